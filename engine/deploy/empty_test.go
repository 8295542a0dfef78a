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
