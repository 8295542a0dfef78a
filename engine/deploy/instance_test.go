package deploy

import (
	"context"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
)

// optIn trusts package pkgA's provider with the fast path.
func optIn(o *Options) { o.FastPathPackages = []string{"other", "pkgA"} }

func TestFastPathTrustsOnlyProvidersThatDeclareIt(t *testing.T) {
	h := newHarness(t)
	h.thirdParty["pkgA"] = true
	a := res("a", map[string]any{"x": 1})
	h.mustUp(program(a))
	h.log.take()

	// A provider that does not declare InputsOnly is called every time,
	// and the resources it could have skipped are counted.
	all := []string{"Check a", "CheckConfig default", "Diff a", "DiffConfig default"}
	for range 2 {
		got := h.mustUp(program(a))
		equal(t, "calls by default", h.planCalls(), all)
		equal(t, "untrusted", got.Untrusted, map[string]int{"pkgA": 1})
	}

	// Opted in, by name or all packages, it is skipped as Cairn's own are.
	for _, opt := range []func(*Options){optIn, func(o *Options) { o.FastPathAll = true }} {
		got := h.mustUp(program(a), opt)
		equal(t, "calls opted in", h.planCalls(), []string(nil))
		equal(t, "untrusted", got.Untrusted, map[string]int(nil))
	}
}

func TestFastPathStartsNoProvider(t *testing.T) {
	h := newHarness(t)
	h.identify = true
	h.config = map[string]resource.Value{"pkgA:region": resource.String("north")}
	a := res("a", map[string]any{"x": 1})
	h.mustUp(program(a))
	h.loads = map[string]int{}
	h.log.take()

	// Every resource takes the fast path, the default provider too: the
	// provider is not loaded, so neither configured nor asked anything.
	if _, err := h.preview(program(a)); err != nil {
		t.Fatal(err)
	}
	h.mustUp(program(a))
	equal(t, "loads", h.loads["pkgA"], 0)
	equal(t, "calls", h.log.take(), []string(nil))

	// A changed input loads it, configures it with the configuration
	// recorded, and calls it; the default provider keeps the fast path.
	a.Properties = resource.MapFromGo(map[string]any{"x": 2})
	h.mustUp(program(a))
	equal(t, "loads after a change", h.loads["pkgA"], 1)
	equal(t, "calls after a change", h.log.take(), []string{"Configure default", "Check a", "Diff a", "Update a"})

	// So does an invoke.
	invoke := func(ctx context.Context, info RunInfo) error {
		if err := program(a)(ctx, info); err != nil {
			return err
		}
		_, err := info.Monitor.Invoke(ctx, InvokeRequest{Token: "pkgA:index:get"})
		return err
	}
	h.loads = map[string]int{}
	if _, err := h.preview(invoke); err != nil {
		t.Fatal(err)
	}
	equal(t, "loads for an invoke", h.loads["pkgA"], 1)
	equal(t, "calls for an invoke", h.log.take(), []string{"Configure default", "Invoke pkgA:index:get"})

	// A provider not identified without loading it is loaded to ask its
	// version, and nothing else.
	h.identify = false
	h.loads = map[string]int{}
	h.mustUp(program(a))
	equal(t, "loads unidentified", h.loads["pkgA"], 1)
	equal(t, "calls unidentified", h.log.take(), []string(nil))

	// One that does not declare InputsOnly is loaded to ask whether it
	// does, then called; opted in, it is not loaded.
	h.identify, h.thirdParty["pkgA"] = true, true
	h.loads = map[string]int{}
	h.mustUp(program(a))
	equal(t, "loads of a third party", h.loads["pkgA"], 1)
	equal(t, "calls of a third party", h.planCalls(), []string{"Check a", "CheckConfig default", "Diff a", "DiffConfig default"})
	h.loads = map[string]int{}
	h.mustUp(program(a), optIn)
	equal(t, "loads of a third party opted in", h.loads["pkgA"], 0)
	equal(t, "calls of a third party opted in", h.log.take(), []string(nil))
}

func TestFastPathOfExplicitProviders(t *testing.T) {
	h := newHarness(t)
	h.identify = true
	prog := func(region string) func(context.Context, RunInfo) error {
		return func(ctx context.Context, info RunInfo) error {
			root, err := stack(ctx, info)
			if err != nil {
				return err
			}
			p, err := info.Monitor.RegisterResource(ctx, RegisterRequest{Type: "pulumi:providers:pkgA", Name: "east", Custom: true,
				Parent: root, Properties: resource.Map{"region": resource.String(region)}})
			if err != nil {
				return err
			}
			a := res("a", map[string]any{"x": 1})
			a.Parent, a.Provider = root, resource.ProviderRef{URN: p.URN, ID: p.ID}.String()
			_, err = info.Monitor.RegisterResource(ctx, a)
			return err
		}
	}
	h.mustUp(prog("east-1"))
	id := h.find("east").ID
	h.loads = map[string]int{}
	h.log.take()
	h.mustUp(prog("east-1"))
	equal(t, "loads", h.loads["pkgA"], 0)
	equal(t, "calls", h.log.take(), []string(nil))

	// A new configuration is checked, diffed and configured; the resources
	// of the provider are checked and diffed under it.
	got := h.mustUp(prog("east-2"))
	equal(t, "changes", got.Changes, map[Op]int{OpSame: 2, OpUpdate: 1})
	equal(t, "calls", h.log.take(), []string{"CheckConfig east", "DiffConfig east", "Configure east", "Check a", "Diff a"})
	if e := h.find("east"); e.ID != id || !e.Inputs["region"].Equal(resource.String("east-2")) || e.Digest == "" {
		t.Fatalf("the provider after the update: %s %v %q", e.ID, resource.Object(e.Inputs), e.Digest)
	}
	h.mustUp(prog("east-2"))
	equal(t, "calls after", h.log.take(), []string(nil))
}
