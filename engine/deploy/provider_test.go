package deploy

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

func TestDefaultProviderOncePerPackageAndVersion(t *testing.T) {
	h := newHarness(t)
	h.versions["pkgA"] = []string{"1.0.0", "1.2.0", "2.0.0"}
	h.config = map[string]resource.Value{"pkgA:region": resource.String("north"), "proj:other": resource.String("x")}
	var reqs []RegisterRequest
	for _, n := range []string{"a", "b", "c"} {
		reqs = append(reqs, res(n, nil))
	}
	v1 := res("v1", nil)
	v1.Version = "1.0.0"
	v2 := res("v2", nil)
	v2.Version = "2.0.0"
	h.mustUp(program(append(reqs, v1, v2)...))

	// One default provider per package and version, each loaded once.
	var providers []string
	for _, r := range h.snap.Resources {
		if resource.IsProviderType(r.Type) {
			providers = append(providers, r.URN.Name())
		}
	}
	equal(t, "providers", providers, []string{"default", "default_1_0_0", "default_2_0_0"})
	equal(t, "configured", len(h.log.filter("Configure")), 3)
	def := h.find("default")
	if !def.Inputs["region"].Equal(resource.String("north")) || len(def.Inputs) != 1 {
		t.Errorf("default provider inputs = %v", resource.Object(def.Inputs))
	}
	if got := h.find("v2").Provider; !strings.Contains(got, "::default_2_0_0::") {
		t.Errorf("v2's provider = %s", got)
	}
	if !h.find("default_1_0_0").Inputs["version"].Equal(resource.String("1.0.0")) {
		t.Errorf("versioned default provider lacks its version input")
	}
}

func TestDefaultProviderUpgradeDoesNotReplace(t *testing.T) {
	h := newHarness(t)
	h.versions["pkgA"] = []string{"1.0.0", "1.1.0"}
	r := res("a", nil)
	r.Version = "1.0.0"
	h.mustUp(program(r))
	r.Version = "1.1.0"
	res1 := h.mustUp(program(r))
	// The old default provider goes, the new one comes, a stays.
	equal(t, "changes", res1.Changes, map[Op]int{OpSame: 2, OpCreate: 1, OpDelete: 1})

	// When DiffConfig says the new default provider cannot manage the old
	// resources, they are replaced.
	h.provider("pkgA", func(p *fakeProvider) {
		p.DiffConfigF = func(provider.DiffRequest) (provider.DiffResponse, error) {
			return provider.DiffResponse{Changes: provider.DiffSome, ReplaceKeys: []string{"region"}}, nil
		}
	})
	h.versions["pkgA"] = append(h.versions["pkgA"], "1.2.0")
	r.Version = "1.2.0"
	res2 := h.mustUp(program(r))
	equal(t, "changes", res2.Changes, map[Op]int{OpSame: 1, OpCreate: 1, OpDelete: 1, OpReplace: 1})
}

func TestExplicitProvider(t *testing.T) {
	h := newHarness(t)
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
			ref := resource.ProviderRef{URN: p.URN, ID: p.ID}.String()
			a := res("a", nil)
			a.Parent, a.Provider = root, ref
			if _, err := info.Monitor.RegisterResource(ctx, a); err != nil {
				return err
			}
			// A component passes its provider to children.
			comp, err := info.Monitor.RegisterResource(ctx, RegisterRequest{Type: "my:comp:Comp", Name: "c", Parent: root,
				Providers: map[string]string{"pkgA": ref}})
			if err != nil {
				return err
			}
			child := res("child", nil)
			child.Parent = comp.URN
			_, err = info.Monitor.RegisterResource(ctx, child)
			return err
		}
	}
	h.mustUp(prog("east-1"))
	if h.find("default") != nil {
		t.Errorf("a default provider was created")
	}
	east := h.find("east")
	for _, n := range []string{"a", "child"} {
		if got := h.find(n).Provider; got != string(east.URN)+"::"+string(east.ID) {
			t.Errorf("%s's provider = %s", n, got)
		}
	}
	// A configuration change DiffConfig accepts is an update of the provider
	// alone.
	res1 := h.mustUp(prog("east-2"))
	equal(t, "changes", res1.Changes, map[Op]int{OpSame: 4, OpUpdate: 1})
	if h.find("east").ID != east.ID {
		t.Errorf("the provider's ID changed on update")
	}
}

func TestProviderReplacementReplacesDependents(t *testing.T) {
	h := newHarness(t)
	h.provider("pkgA", func(p *fakeProvider) {
		p.DiffConfigF = func(req provider.DiffRequest) (provider.DiffResponse, error) {
			if !req.OldInputs["region"].Equal(req.News["region"]) {
				return provider.DiffResponse{Changes: provider.DiffSome, ReplaceKeys: []string{"region"}}, nil
			}
			return provider.DiffResponse{Changes: provider.DiffNone}, nil
		}
	})
	prog := func(region string) func(context.Context, RunInfo) error {
		return func(ctx context.Context, info RunInfo) error {
			root, err := stack(ctx, info)
			if err != nil {
				return err
			}
			p, err := info.Monitor.RegisterResource(ctx, RegisterRequest{Type: "pulumi:providers:pkgA", Name: "prov", Custom: true,
				Parent: root, Properties: resource.Map{"region": resource.String(region)}})
			if err != nil {
				return err
			}
			for _, n := range []string{"a", "b"} {
				r := res(n, nil)
				r.Parent, r.Provider = root, resource.ProviderRef{URN: p.URN, ID: p.ID}.String()
				if _, err := info.Monitor.RegisterResource(ctx, r); err != nil {
					return err
				}
			}
			return nil
		}
	}
	h.mustUp(prog("one"))
	h.log.take()
	res1 := h.mustUp(prog("two"))
	equal(t, "changes", res1.Changes, map[Op]int{OpSame: 1, OpReplace: 3})
	equal(t, "deletes", h.log.filter("Delete"), []string{"Delete a", "Delete b"})
	// The old resources were deleted with the old provider's configuration.
}

func TestDisableDefaultProviders(t *testing.T) {
	for _, setting := range []resource.Value{
		resource.String(`["pkgA"]`),
		resource.String(`["*"]`),
		resource.Array(resource.String("pkgA")),
	} {
		h := newHarness(t)
		h.config = map[string]resource.Value{"pulumi:disable-default-providers": setting}
		_, err := h.up(program(res("a", nil)))
		if err == nil || !strings.Contains(err.Error(), "default providers for package \"pkgA\" are disabled") {
			t.Errorf("%v: %v", setting, err)
		}
	}
	h := newHarness(t)
	h.config = map[string]resource.Value{"pulumi:disable-default-providers": resource.String(`["other"]`)}
	h.mustUp(program(res("a", nil)))
}

func TestProviderNotFound(t *testing.T) {
	h := newHarness(t)
	r := res("a", nil)
	r.Version = "9.0.0"
	_, err := h.up(program(r))
	if err == nil || !strings.Contains(err.Error(), "no provider for package \"pkgA\" compatible with version 9.0.0") {
		t.Fatalf("missing provider: %v", err)
	}
}

func TestDiffUnknownFallsBackToInputDiff(t *testing.T) {
	h := newHarness(t) // the fake provider's Diff answers DiffUnknown
	h.mustUp(program(res("a", map[string]any{"x": 1})))
	h.log.take()
	res1 := h.mustUp(program(res("a", map[string]any{"x": 1})), noFastPath)
	equal(t, "same", res1.Changes, map[Op]int{OpSame: 3})
	res2 := h.mustUp(program(res("a", map[string]any{"x": 2})))
	equal(t, "update", res2.Changes, map[Op]int{OpSame: 2, OpUpdate: 1})
	equal(t, "diff was asked", h.log.filter("Diff a"), []string{"Diff a", "Diff a"})
}

func TestInvoke(t *testing.T) {
	h := newHarness(t)
	h.provider("pkgA", func(p *fakeProvider) {
		p.InvokeF = func(req provider.InvokeRequest) (provider.InvokeResponse, error) {
			if req.Args["bad"].IsBool() {
				return provider.InvokeResponse{Failures: []provider.CheckFailure{{Property: "bad", Reason: "not allowed"}}}, nil
			}
			return provider.InvokeResponse{Return: resource.Map{"echo": req.Args["in"]}}, nil
		}
	})
	var got resource.Value
	var failure error
	h.mustUp(func(ctx context.Context, info RunInfo) error {
		if _, err := stack(ctx, info); err != nil {
			return err
		}
		r, err := info.Monitor.Invoke(ctx, InvokeRequest{Token: "pkgA:index:echo", Args: resource.Map{"in": resource.String("hi")}})
		if err != nil {
			return err
		}
		got = r.Return["echo"]
		_, failure = info.Monitor.Invoke(ctx, InvokeRequest{Token: "pkgA:index:echo", Args: resource.Map{"bad": resource.Bool(true)}})
		return nil
	})
	if !got.Equal(resource.String("hi")) {
		t.Errorf("invoke returned %v", got)
	}
	if failure == nil || !strings.Contains(failure.Error(), "bad: not allowed") {
		t.Errorf("invoke failure: %v", failure)
	}
}
