package deploy

import (
	"testing"

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
