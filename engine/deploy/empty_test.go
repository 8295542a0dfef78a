package deploy

import (
	"sort"
	"strings"
	"testing"
)

// An update whose program declares nothing, while the stack has resources,
// is refused before anything is deleted, in a preview too; AllowEmpty lets
// it delete them. A stack holding only what no program declares (its root
// resource, default providers) is no concern.
func TestEmptyProgramIsRefused(t *testing.T) {
	h := newHarness(t)
	h.mustUp(program())
	h.mustUp(program(res("a", nil), res("b", nil)))
	before := dump(h.snap)
	h.log.take()
	for _, dry := range []bool{true, false} {
		_, err := h.up(program(), func(o *Options) { o.DryRun = dry })
		if err == nil || !strings.Contains(err.Error(), "the program declares no resources, but the stack has 2") ||
			!strings.Contains(err.Error(), "cairn destroy") {
			t.Fatalf("dry run %v: err = %v, want the refusal", dry, err)
		}
	}
	equal(t, "provider deletes", h.log.filter("Delete"), []string(nil))
	if got := dump(h.snap); got != before {
		t.Errorf("the refused update changed the state:\n%s\nwas:\n%s", got, before)
	}
	h.mustUp(program(), allowEmpty)
	deleted := h.log.filter("Delete")
	sort.Strings(deleted)
	equal(t, "provider deletes", deleted, []string{"Delete a", "Delete b"})
	h.mustUp(program())
}

// With ProtectDeclared, protection refuses the deletion of an instance of
// a resource the program still declares (under any keys, its modules'
// too), and lets one the program no longer declares go, as Terraform's
// prevent_destroy does.
func TestProtectDeclared(t *testing.T) {
	h := newHarness(t)
	protected := func(name string) RegisterRequest {
		r := res(name, nil)
		r.Protect = boolp(true)
		return r
	}
	declared := func(o *Options) { o.ProtectDeclared = true }
	h.mustUp(program(protected("web[0]"), protected("web[1]"), protected(`site["a"].db`), protected(`site["b"].db`), res("other", nil)))
	if _, err := h.up(program(protected("web[0]"), protected(`site["a"].db`), res("other", nil)), declared); err == nil ||
		!strings.Contains(err.Error(), "2 protected resources would be deleted") {
		t.Fatalf("err = %v, want the deletion of web[1] and site[\"b\"].db refused", err)
	}
	h.log.take()
	h.mustUp(program(res("other", nil)), declared)
	deleted := h.log.filter("Delete")
	sort.Strings(deleted)
	equal(t, "provider deletes", deleted, []string{"Delete site[\"a\"].db", "Delete site[\"b\"].db", "Delete web[0]", "Delete web[1]"})
}
