package deploy

import (
	"context"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// noFastPath makes every registration call Check and Diff.
func noFastPath(o *Options) { o.NoFastPath = true }

// checksAndDiffs returns the Check and Diff calls made for a, and forgets
// every call so far.
func (h *harness) checksAndDiffs() []string {
	calls := append(h.log.filter("Check a"), h.log.filter("Diff a")...)
	h.log.take()
	return calls
}

func TestFastPathSkipsCheckAndDiffOfUnchangedResources(t *testing.T) {
	h := newHarness(t)
	a := res("a", map[string]any{"x": 1})
	h.mustUp(program(a))
	h.log.take()

	got := h.mustUp(program(a))
	equal(t, "changes", got.Changes, map[Op]int{OpSame: 3})
	equal(t, "calls of an unchanged resource", h.checksAndDiffs(), []string(nil))
	preview, err := h.preview(program(a))
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "preview changes", preview.Changes, map[Op]int{OpSame: 3})
	equal(t, "calls in the preview", h.checksAndDiffs(), []string(nil))

	// Asked for, every call is made; so it is for a refreshing update.
	h.mustUp(program(a), noFastPath)
	equal(t, "calls with NoFastPath", h.checksAndDiffs(), []string{"Check a", "Diff a"})
}

func TestFastPathChangesForceTheCalls(t *testing.T) {
	both := []string{"Check a", "Diff a"}
	for _, tc := range []struct {
		name   string
		change func(h *harness, a *RegisterRequest)
	}{
		{"input", func(_ *harness, a *RegisterRequest) { a.Properties = resource.MapFromGo(map[string]any{"x": 2}) }},
		{"option", func(_ *harness, a *RegisterRequest) { a.IgnoreChanges = []string{"y"} }},
		{"provider version", func(h *harness, _ *RegisterRequest) { h.versions["pkgA"] = []string{"1.0.0", "1.1.0"} }},
		{"provider config", func(h *harness, _ *RegisterRequest) {
			h.config = map[string]resource.Value{"pkgA:region": resource.String("south")}
		}},
		{"secret input", func(_ *harness, a *RegisterRequest) {
			a.Properties = resource.Map{"x": resource.MakeSecret(resource.Number(1))}
		}},
		{"secret provider config", func(h *harness, _ *RegisterRequest) {
			h.config = map[string]resource.Value{"pkgA:region": resource.MakeSecret(resource.String("north"))}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.config = map[string]resource.Value{"pkgA:region": resource.String("north")}
			a := res("a", map[string]any{"x": 1})
			h.mustUp(program(a))
			tc.change(h, &a)
			h.mustUp(program(a))
			h.log.take()
			h.mustUp(program(a))
			equal(t, "calls once the change is recorded", h.checksAndDiffs(), []string(nil))

			// The change made the calls; the next update after it did not.
			h2 := newHarness(t)
			h2.config = map[string]resource.Value{"pkgA:region": resource.String("north")}
			b := res("a", map[string]any{"x": 1})
			h2.mustUp(program(b))
			h2.log.take()
			tc.change(h2, &b)
			h2.mustUp(program(b))
			equal(t, "calls after the change", h2.checksAndDiffs(), both)
		})
	}
}

func TestFastPathRecordedStateMustMatch(t *testing.T) {
	h := newHarness(t)
	a := res("a", map[string]any{"x": 1})
	h.mustUp(program(a))
	if h.find("a").Digest == "" {
		t.Fatal("no digest recorded")
	}

	// Outputs changed since the last step (as a refresh finds drift): the
	// calls are made.
	h.find("a").Outputs = resource.MapFromGo(map[string]any{"x": 1, "drift": true})
	h.log.take()
	h.mustUp(program(a))
	equal(t, "calls after drift", h.checksAndDiffs(), []string{"Check a", "Diff a"})

	// A resource with a pending operation takes the calls.
	h.snap.PendingOperations = []resource.Operation{{Resource: h.find("a").Copy(), Type: resource.OpUpdating}}
	h.log.take()
	h.mustUp(program(a))
	equal(t, "calls with a pending operation", h.checksAndDiffs(), []string{"Check a", "Diff a"})
}

func TestFastPathDigestsOfSecretsAreKeyed(t *testing.T) {
	h := newHarness(t)
	plain := res("plain", map[string]any{"x": 1})
	secret := res("secret", nil)
	secret.Properties = resource.Map{"x": resource.MakeSecret(resource.Number(1))}
	prog := program(plain, secret)
	h.mustUp(prog)
	h.log.take()
	h.mustUp(prog)
	equal(t, "calls of unchanged resources", h.log.filter("Check "), []string(nil))

	// Under another seed key the digest of the secret resource no longer
	// matches; the other one's does.
	h.snap.Seeds.Key = []byte("another seed key, 32 bytes long.")
	h.mustUp(prog)
	equal(t, "calls under another seed key", h.log.filter("Check "), []string{"Check secret"})
}

// planCalls returns the Check, Diff, CheckConfig and DiffConfig calls made
// since the last take, sorted, and forgets every call.
func (h *harness) planCalls() []string {
	calls := append(h.log.filter("Check"), h.log.filter("Diff")...)
	h.log.take()
	return calls
}

func TestFastPathProtect(t *testing.T) {
	h := newHarness(t)
	a := res("a", map[string]any{"x": 1})
	a.Protect = boolp(true)
	h.mustUp(program(a))
	h.log.take()
	h.mustUp(program(a))
	equal(t, "calls of a protected unchanged resource", h.planCalls(), []string(nil))
	if !h.find("a").Protect {
		t.Fatal("the fast path lost the protect option")
	}

	// Protection is an option the digest covers: changing it makes the
	// calls, and the state records it.
	a.Protect = boolp(false)
	h.mustUp(program(a))
	equal(t, "calls once unprotected", h.planCalls(), []string{"Check a", "Diff a"})
	if h.find("a").Protect {
		t.Fatal("a is still protected")
	}
	h.mustUp(program(a))
	equal(t, "calls after", h.planCalls(), []string(nil))
}

func TestFastPathAliases(t *testing.T) {
	h := newHarness(t)
	h.mustUp(program(res("old", map[string]any{"x": 1})))
	id := h.find("old").ID
	renamed := res("new", map[string]any{"x": 1})
	renamed.Aliases = []Alias{{Name: "old"}}
	h.log.take()

	// The URN is digested: a renamed resource is checked and diffed under
	// its new name, and keeps its state.
	h.mustUp(program(renamed))
	equal(t, "calls of the renamed resource", h.planCalls(), []string{"Check new", "Diff new"})
	if n := h.find("new"); n == nil || n.ID != id || n.Digest == "" || h.find("old") != nil {
		t.Fatalf("after the rename: %s", dump(h.snap))
	}
	h.mustUp(program(renamed))
	equal(t, "calls once renamed", h.planCalls(), []string(nil))
}

func TestFastPathDependencyOutputsChange(t *testing.T) {
	h := newHarness(t)
	h.provider("pkgA", func(p *fakeProvider) {
		p.UpdateF = func(req provider.UpdateRequest) (provider.UpdateResponse, error) {
			if req.Preview { // an update's outputs are not known before it runs
				return provider.UpdateResponse{Outputs: resource.Map{"x": resource.Unknown()}}, nil
			}
			return provider.UpdateResponse{Outputs: req.News}, nil
		}
	})
	// b's input y is a's output x.
	prog := func(x int) func(context.Context, RunInfo) error {
		return func(ctx context.Context, info RunInfo) error {
			root, err := stack(ctx, info)
			if err != nil {
				return err
			}
			a := res("a", map[string]any{"x": x})
			a.Parent = root
			ra, err := info.Monitor.RegisterResource(ctx, a)
			if err != nil {
				return err
			}
			b := res("b", nil)
			b.Parent, b.Dependencies = root, []resource.URN{ra.URN}
			b.Properties = resource.Map{"y": ra.Outputs["x"]}
			_, err = info.Monitor.RegisterResource(ctx, b)
			return err
		}
	}
	h.mustUp(prog(1))
	h.mustUp(prog(1))
	h.log.take()

	// In a preview b's input is unknown: its calls are made.
	if _, err := h.preview(prog(2)); err != nil {
		t.Fatal(err)
	}
	equal(t, "calls in the preview", h.planCalls(), []string{"Check a", "Check b", "Diff a", "Diff b"})
	// The update gives b a new input: its calls are made, and it is
	// updated.
	got := h.mustUp(prog(2))
	equal(t, "changes", got.Changes, map[Op]int{OpSame: 2, OpUpdate: 2})
	equal(t, "calls in the update", h.planCalls(), []string{"Check a", "Check b", "Diff a", "Diff b"})
	if y := h.find("b").Inputs["y"]; !y.Equal(resource.Number(2)) {
		t.Fatalf("b's y = %v", y)
	}
	h.mustUp(prog(2))
	equal(t, "calls after", h.planCalls(), []string(nil))
}

func TestFastPathDeleteBeforeReplace(t *testing.T) {
	h := newHarness(t)
	h.provider("pkgA", func(p *fakeProvider) { p.DiffF = replaceOn("x") })
	a := func(x int, dbr *bool) RegisterRequest {
		r := res("a", map[string]any{"x": x})
		r.DeleteBeforeReplace = dbr
		return r
	}
	h.mustUp(program(a(1, boolp(true))))
	h.log.take()
	h.mustUp(program(a(1, boolp(true))))
	equal(t, "calls when unchanged", h.planCalls(), []string(nil))

	// The option is digested, set or not.
	h.mustUp(program(a(1, nil)))
	equal(t, "calls once the option is unset", h.planCalls(), []string{"Check a", "Diff a"})
	h.mustUp(program(a(1, boolp(true))))
	equal(t, "calls once it is set again", h.planCalls(), []string{"Check a", "Diff a"})

	// A replacement deletes first, and records the digest of the new goal.
	got := h.mustUp(program(a(2, boolp(true))))
	equal(t, "changes", got.Changes, map[Op]int{OpSame: 2, OpReplace: 1})
	calls := h.log.take()
	if del, create := indexOf(calls, "Delete a"), indexOf(calls, "Create a"); del < 0 || create < del {
		t.Fatalf("want Delete a before Create a: %v", calls)
	}
	if h.find("a").Digest == "" {
		t.Fatal("the replacement recorded no digest")
	}
	h.mustUp(program(a(2, boolp(true))))
	equal(t, "calls after the replacement", h.planCalls(), []string(nil))
}

func TestFastPathReplaceOnChanges(t *testing.T) {
	h := newHarness(t)
	a := func(k string, paths ...string) RegisterRequest {
		r := res("a", map[string]any{"k": k, "other": 1})
		r.ReplaceOnChanges = paths
		return r
	}
	h.mustUp(program(a("one", "k")))
	h.log.take()
	h.mustUp(program(a("one", "k")))
	equal(t, "calls when unchanged", h.planCalls(), []string(nil))

	got := h.mustUp(program(a("two", "k")))
	equal(t, "changes", got.Changes, map[Op]int{OpSame: 2, OpReplace: 1})
	h.log.take()
	h.mustUp(program(a("two", "k")))
	equal(t, "calls after the replacement", h.planCalls(), []string(nil))

	// A new path of the option makes the calls, and nothing changes.
	got = h.mustUp(program(a("two", "k", "other")))
	equal(t, "changes", got.Changes, map[Op]int{OpSame: 3})
	equal(t, "calls once the option changed", h.planCalls(), []string{"Check a", "Diff a"})
}

func TestFastPathIgnoreChanges(t *testing.T) {
	h := newHarness(t)
	a := func(x, y int) RegisterRequest {
		r := res("a", map[string]any{"x": x, "y": y})
		r.IgnoreChanges = []string{"y"}
		return r
	}
	h.mustUp(program(a(1, 1)))
	h.log.take()

	// The digest is of the program's inputs before ignoreChanges: a new
	// value of an ignored input makes the calls, which find no change, and
	// the next update takes the fast path with the old value kept.
	got := h.mustUp(program(a(1, 2)))
	equal(t, "changes", got.Changes, map[Op]int{OpSame: 3})
	equal(t, "calls once the ignored input changed", h.planCalls(), []string{"Check a", "Diff a"})
	h.mustUp(program(a(1, 2)))
	equal(t, "calls after", h.planCalls(), []string(nil))
	if y := h.find("a").Inputs["y"]; !y.Equal(resource.Number(1)) {
		t.Fatalf("the ignored input y = %v, want the old 1", y)
	}

	got = h.mustUp(program(a(2, 2)))
	equal(t, "changes", got.Changes, map[Op]int{OpSame: 2, OpUpdate: 1})
	if in := h.find("a").Inputs; !in["x"].Equal(resource.Number(2)) || !in["y"].Equal(resource.Number(1)) {
		t.Fatalf("inputs after the update: %v", resource.Object(in))
	}
}

func TestFastPathNeedsAPluginVersion(t *testing.T) {
	// A provider that cannot say its version would look the same after an
	// upgrade: it never takes the fast path.
	h := newHarness(t)
	h.versions["pkgA"] = []string{""}
	a := res("a", map[string]any{"x": 1})
	h.mustUp(program(a))
	h.log.take()
	for range 2 {
		h.mustUp(program(a))
		equal(t, "calls", h.planCalls(), []string{"Check a", "CheckConfig default", "Diff a", "DiffConfig default"})
	}
	if d := h.find("a").Digest; d != "" {
		t.Fatalf("a digest was recorded: %s", d)
	}
}
