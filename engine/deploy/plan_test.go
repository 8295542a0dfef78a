package deploy

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/plan"
)

// A preview records its steps as a plan; an update under that plan makes
// them, and one that diverges fails before the provider touches the
// resource.
func TestUpdateFollowsPlan(t *testing.T) {
	stack := func() *harness {
		h := newHarness(t)
		h.mustUp(program(res("a", map[string]any{"x": 1}), res("gone", map[string]any{"y": 1})))
		h.log.take()
		return h
	}
	h := stack()
	next := program(res("a", map[string]any{"x": 2}), res("b", map[string]any{"y": "s"}))
	pre, err := h.preview(next)
	if err != nil {
		t.Fatal(err)
	}
	p := &plan.Plan{Resources: pre.Planned}
	ops := map[string]string{}
	for u, s := range p.Resources {
		ops[u.Name()] = s.Op
	}
	equal(t, "planned ops", ops, map[string]string{"a": "update", "b": "create", "gone": "delete", "default": "same", "proj-dev": "same"})
	withPlan := func(o *Options) { o.Plan = p }

	// A planned change that no longer happens is a divergence, which a
	// preview under the plan shows before anything changes.
	_, err = h.preview(program(res("a", map[string]any{"x": 2})), withPlan)
	if err == nil || !strings.Contains(err.Error(), "the planned create of "+string(urnOf("b"))+" did not happen") {
		t.Fatalf("got %v", err)
	}

	// The planned program follows the plan.
	done := h.mustUp(next, withPlan)
	equal(t, "changes", done.Changes, map[Op]int{OpSame: 2, OpUpdate: 1, OpCreate: 1, OpDelete: 1})

	// b's input changed: the update refuses b before creating it, and
	// deletes nothing, as a failure stops the update.
	h = stack()
	changed := program(res("a", map[string]any{"x": 2}), res("b", map[string]any{"y": "t"}))
	_, err = h.up(changed, withPlan)
	if err == nil || !strings.Contains(err.Error(), `diverges from the plan at `+string(urnOf("b"))+` (create): input y planned "s", actual "t"`) {
		t.Fatalf("got %v", err)
	}
	equal(t, "creates", h.log.filter("Create"), []string(nil))
	equal(t, "deletes", h.log.filter("Delete"), []string(nil))
	if h.find("b") != nil || h.find("gone") == nil {
		t.Error("b was created or gone deleted")
	}
}
