package host_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/plugintest"
	"github.com/cairn-iac/cairn/plugins/host"
)

func launchBare(t *testing.T) *host.Plugin {
	t.Helper()
	bin := plugintest.Link(t, filepath.Join(t.TempDir(), "bin"), "pulumi-resource-bare")
	p, err := host.Launch(context.Background(), "bare", []string{bin}, host.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func TestOptionalMethodsFallBackAsPulumis(t *testing.T) {
	p := launchBare(t)
	ctx := context.Background()
	news := resource.Map{"region": str("north")}
	check, err := p.CheckConfig(ctx, provider.CheckRequest{URN: "urn:pulumi:dev::proj::pulumi:providers:bare::b", News: news})
	if err != nil || !check.Inputs.Equal(news) || len(check.Failures) != 0 {
		t.Errorf("CheckConfig = %+v, %v; want the configuration accepted as given", check, err)
	}
	diff, err := p.DiffConfig(ctx, provider.DiffRequest{OldInputs: resource.Map{"region": str("south")}, News: news})
	if err != nil || diff.Changes != provider.DiffUnknown || len(diff.ReplaceKeys) != 0 {
		t.Errorf("DiffConfig = %+v, %v; want the engine left to diff, with no replacement", diff, err)
	}
	if err := p.SignalCancellation(ctx); err != nil {
		t.Errorf("SignalCancellation = %v, want nothing to cancel", err)
	}
	// Without a schema or parameterization the answer stays "not
	// implemented", which callers that can do without treat as such.
	if _, err := p.GetSchema(ctx, provider.GetSchemaRequest{}); !errors.Is(err, provider.ErrNotImplemented) {
		t.Errorf("GetSchema = %v, want not implemented", err)
	}
}

// TestBareProviderLifecycle runs a stack on an explicit provider that
// implements no optional method: its configuration is checked and diffed
// by Pulumi's fallbacks, so changing it updates the provider in place.
func TestBareProviderLifecycle(t *testing.T) {
	e := newEnv(t, host.ResolverOptions{})
	plugintest.Link(t, filepath.Join(e.plugins, "resource-bare-v1.0.0"), "pulumi-resource-bare")
	stackOf := func(region string) deploy.Program {
		return program(func(r *registrar) error {
			prov, err := r.item("pulumi:providers:bare", "b", resource.Map{"region": str(region)})
			if err != nil {
				return err
			}
			ref := resource.ProviderRef{URN: prov.URN, ID: prov.ID}.String()
			_, err = r.item("bare:index:Thing", "t", resource.Map{"size": resource.Number(1)},
				func(req *deploy.RegisterRequest) { req.Provider = ref })
			return err
		})
	}
	e.up(stackOf("north"))
	res := e.up(stackOf("south"))
	if res.Changes[deploy.OpReplace] != 0 || res.Changes[deploy.OpUpdate] != 1 {
		t.Errorf("changing the configuration: %v, want the provider updated in place", res.Changes)
	}
	if got := e.mustFind("b").Inputs["region"]; !got.Equal(str("south")) {
		t.Errorf("the provider's region = %v", got)
	}
	if _, err := e.run(deploy.Destroy, e.options(nil, false)); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if len(e.snap.Resources) != 0 {
		t.Errorf("%d resources left after destroy", len(e.snap.Resources))
	}
}
