package deploy

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// replaceOn makes the provider's Diff demand replacement when any of keys
// changed.
func replaceOn(keys ...string) func(provider.DiffRequest) (provider.DiffResponse, error) {
	return func(req provider.DiffRequest) (provider.DiffResponse, error) {
		dd, changed := resource.DiffMaps(req.OldInputs, req.News)
		if len(changed) == 0 {
			return provider.DiffResponse{Changes: provider.DiffNone}, nil
		}
		resp := provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: changed, DetailedDiff: dd}
		for _, c := range changed {
			for _, k := range keys {
				if c == k {
					resp.ReplaceKeys = append(resp.ReplaceKeys, k)
				}
			}
		}
		return resp, nil
	}
}

func TestCreateBeforeReplace(t *testing.T) {
	h := newHarness(t)
	h.provider("pkgA", func(p *fakeProvider) { p.DiffF = replaceOn("x") })
	h.mustUp(program(res("a", map[string]any{"x": 1})))
	oldID := h.find("a").ID

	h.log.take()
	res := h.mustUp(program(res("a", map[string]any{"x": 2})))
	equal(t, "changes", res.Changes, map[Op]int{OpSame: 2, OpReplace: 1})
	calls := h.log.take()
	// The replacement is created before the original is deleted, and the
	// replacement's inputs are checked twice (the second time without olds).
	create, del := indexOf(calls, "Create a"), indexOf(calls, "Delete a")
	if create < 0 || del < 0 || create > del {
		t.Fatalf("want Create a before Delete a, got %v", calls)
	}
	if n := count(calls, "Check a"); n != 2 {
		t.Errorf("Check a called %d times, want 2: %v", n, calls)
	}
	a := h.find("a")
	if a.ID == oldID || !a.Outputs["x"].Equal(resource.Number(2)) {
		t.Errorf("replacement state wrong: %s %v", a.ID, resource.Object(a.Outputs))
	}
	equal(t, "resources", len(h.snap.Resources), 3)
	equal(t, "replace steps", h.steps(), []string{"create-replacement a", "delete-replaced a", "replace a", "same default", "same proj-dev"})
}

func TestDeleteBeforeReplaceWithDependents(t *testing.T) {
	// The example of Pulumi's engine design: a is replaced
	// delete-before-create; b depends on a only through dependsOn, c takes
	// an input from a, d takes an input from b. Only c must be replaced
	// along with a.
	h := newHarness(t)
	h.provider("pkgA", func(p *fakeProvider) {
		p.DiffF = func(req provider.DiffRequest) (provider.DiffResponse, error) {
			resp, _ := replaceOn("x", "input")(req)
			resp.DeleteBeforeReplace = true
			return resp, nil
		}
	})
	prog := func(x int) func(context.Context, RunInfo) error {
		return func(ctx context.Context, info RunInfo) error {
			root, err := stack(ctx, info)
			if err != nil {
				return err
			}
			reg := func(r RegisterRequest) *RegisterResponse {
				if err != nil {
					return nil
				}
				r.Parent = root
				var resp *RegisterResponse
				resp, err = info.Monitor.RegisterResource(ctx, r)
				return resp
			}
			a := reg(res("a", map[string]any{"x": x}))
			if err != nil {
				return err
			}
			b := reg(RegisterRequest{Type: "pkgA:index:Thing", Name: "b", Custom: true, Properties: resource.Map{}, Dependencies: []resource.URN{a.URN}})
			c := reg(RegisterRequest{Type: "pkgA:index:Thing", Name: "c", Custom: true,
				Properties:           resource.Map{"input": a.Outputs["x"]},
				PropertyDependencies: map[string][]resource.URN{"input": {a.URN}}, Dependencies: []resource.URN{a.URN}})
			if err != nil {
				return err
			}
			reg(RegisterRequest{Type: "pkgA:index:Thing", Name: "d", Custom: true,
				Properties:           resource.Map{"input": resource.String(string(b.ID))},
				PropertyDependencies: map[string][]resource.URN{"input": {b.URN}}, Dependencies: []resource.URN{b.URN}})
			_ = c
			return err
		}
	}
	h.mustUp(prog(1))
	h.log.take()
	res := h.mustUp(prog(2))
	calls := h.log.take()
	deletes := filterPrefix(calls, "Delete")
	equal(t, "deletes", deletes, []string{"Delete c", "Delete a"})
	// c is deleted before a, and a before its replacement is created.
	if !(indexOf(calls, "Delete c") < indexOf(calls, "Delete a") && indexOf(calls, "Delete a") < indexOf(calls, "Create a")) {
		t.Errorf("wrong order: %v", calls)
	}
	if indexOf(calls, "Create c") < 0 {
		t.Errorf("c was not re-created: %v", calls)
	}
	equal(t, "changes", res.Changes, map[Op]int{OpSame: 4, OpReplace: 2})
	for _, n := range []string{"a", "b", "c", "d"} {
		if r := h.find(n); r == nil || r.PendingReplacement {
			t.Errorf("%s missing or still pending replacement", n)
		}
	}
}

func TestDeleteBeforeReplaceOption(t *testing.T) {
	h := newHarness(t)
	h.provider("pkgA", func(p *fakeProvider) { p.DiffF = replaceOn("x") })
	r := res("a", map[string]any{"x": 1})
	r.DeleteBeforeReplace = boolp(true)
	h.mustUp(program(r))
	r2 := res("a", map[string]any{"x": 2})
	r2.DeleteBeforeReplace = boolp(true)
	h.log.take()
	h.mustUp(program(r2))
	calls := h.log.take()
	if !(indexOf(calls, "Delete a") >= 0 && indexOf(calls, "Delete a") < indexOf(calls, "Create a")) {
		t.Errorf("want Delete a before Create a: %v", calls)
	}
}

func TestInterruptedDeleteBeforeReplaceResumes(t *testing.T) {
	h := newHarness(t)
	fail := false
	h.provider("pkgA", func(p *fakeProvider) {
		p.DiffF = func(req provider.DiffRequest) (provider.DiffResponse, error) {
			resp, _ := replaceOn("x")(req)
			resp.DeleteBeforeReplace = true
			return resp, nil
		}
		p.CreateF = func(req provider.CreateRequest) (provider.CreateResponse, error) {
			if fail {
				return provider.CreateResponse{}, errFake
			}
			return provider.CreateResponse{ID: "id-" + resource.ID(req.URN.Name()), Outputs: req.Inputs}, nil
		}
	})
	h.mustUp(program(res("a", map[string]any{"x": 1})))
	fail = true
	if _, err := h.up(program(res("a", map[string]any{"x": 2}))); err == nil {
		t.Fatal("the update should fail")
	}
	if a := h.find("a"); a == nil || !a.PendingReplacement {
		t.Fatalf("a must be recorded as deleted pending replacement: %s", dump(h.snap))
	}
	fail = false
	h.log.take()
	h.mustUp(program(res("a", map[string]any{"x": 2})))
	calls := h.log.take()
	equal(t, "resumed calls", filterPrefix(calls, "Delete"), []string(nil))
	if indexOf(calls, "Create a") < 0 {
		t.Errorf("a was not created: %v", calls)
	}
	if a := h.find("a"); a.PendingReplacement || !a.Outputs["x"].Equal(resource.Number(2)) {
		t.Errorf("a = %+v", a)
	}
}

func TestReplaceOnChanges(t *testing.T) {
	h := newHarness(t)
	r := func(v string) RegisterRequest {
		q := res("a", map[string]any{"nested": map[string]any{"k": v}, "other": 1})
		q.ReplaceOnChanges = []string{"nested.k"}
		return q
	}
	h.mustUp(program(r("one")))
	h.log.take()
	res := h.mustUp(program(r("two")))
	equal(t, "changes", res.Changes, map[Op]int{OpSame: 2, OpReplace: 1})
	// A change elsewhere is an update.
	q := r("two")
	q.Properties["other"] = resource.Number(2)
	res = h.mustUp(program(q))
	equal(t, "changes", res.Changes, map[Op]int{OpSame: 2, OpUpdate: 1})
}

func TestForcedReplaceAndTaint(t *testing.T) {
	h := newHarness(t)
	prog := program(res("a", map[string]any{"x": 1}), res("b", map[string]any{"x": 1}))
	h.mustUp(prog)
	res := h.mustUp(prog, func(o *Options) { o.Replaces = []string{string(urnOf("b"))} })
	equal(t, "--replace", res.Changes, map[Op]int{OpSame: 3, OpReplace: 1})
	h.snap.Resources[indexOfState(h.snap, "a")].Taint = true
	res = h.mustUp(prog)
	equal(t, "taint", res.Changes, map[Op]int{OpSame: 3, OpReplace: 1})
	if h.find("a").Taint {
		t.Errorf("the replacement is still tainted")
	}
}

func TestReplaceWithAndDeletedWithCascade(t *testing.T) {
	h := newHarness(t)
	h.provider("pkgA", func(p *fakeProvider) { p.DiffF = replaceOn("x") })
	prog := func(x int) func(context.Context, RunInfo) error {
		b := res("b", map[string]any{})
		b.ReplaceWith = []resource.URN{urnOf("a")}
		c := res("c", map[string]any{})
		c.DeletedWith = urnOf("a")
		return program(res("a", map[string]any{"x": x}), b, c)
	}
	h.mustUp(prog(1))
	res := h.mustUp(prog(2))
	equal(t, "changes", res.Changes, map[Op]int{OpSame: 2, OpReplace: 3})
}

func TestReplacementTrigger(t *testing.T) {
	h := newHarness(t)
	r := func(trigger resource.Value) RegisterRequest {
		q := res("a", map[string]any{"x": 1})
		q.ReplacementTrigger = trigger
		return q
	}
	h.mustUp(program(r(resource.String("v1"))))
	res := h.mustUp(program(r(resource.String("v1"))))
	equal(t, "same trigger", res.Changes, map[Op]int{OpSame: 3})
	res = h.mustUp(program(r(resource.MakeSecret(resource.String("v2")))))
	equal(t, "changed trigger", res.Changes, map[Op]int{OpSame: 2, OpReplace: 1})
	// An unknown trigger replaces in a preview and is an error in an update.
	res, err := h.preview(program(r(resource.Unknown())))
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "unknown trigger preview", res.Changes, map[Op]int{OpSame: 2, OpReplace: 1})
	if _, err := h.up(program(r(resource.Unknown()))); err == nil || !strings.Contains(err.Error(), "replacementTrigger") {
		t.Errorf("unknown trigger in an update: %v", err)
	}
}

func indexOf(xs []string, x string) int {
	for i, e := range xs {
		if e == x {
			return i
		}
	}
	return -1
}

func count(xs []string, x string) int {
	n := 0
	for _, e := range xs {
		if e == x {
			n++
		}
	}
	return n
}

func filterPrefix(xs []string, prefix string) []string {
	var out []string
	for _, e := range xs {
		if strings.HasPrefix(e, prefix) {
			out = append(out, e)
		}
	}
	return out
}

func indexOfState(s *snapshot.Snapshot, name string) int {
	for i, r := range s.Resources {
		if r.URN.Name() == name && !r.Delete {
			return i
		}
	}
	return -1
}

// TestForcedReplacementOrder replaces a resource whose replacement is
// forced (a trigger, --replace) in the order the program asks for.
func TestForcedReplacementOrder(t *testing.T) {
	h := newHarness(t)
	r := func(trigger string) RegisterRequest {
		q := res("a", map[string]any{"x": 1})
		q.ReplacementTrigger, q.DeleteBeforeReplace = resource.String(trigger), boolp(true)
		return q
	}
	h.mustUp(program(r("v1")))
	h.log.take()
	h.mustUp(program(r("v2")))
	calls := h.log.take()
	if !(indexOf(calls, "Delete a") >= 0 && indexOf(calls, "Delete a") < indexOf(calls, "Create a")) {
		t.Errorf("want Delete a before Create a: %v", calls)
	}
}
