package host_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/plugintest"
	"github.com/cairn-iac/cairn/plugins/host"
)

// TestEnvVarMappingsReachTheProvider registers explicit providers with
// Pulumi's envVarMappings option renaming MY_KV_DIR to the variable the KV
// provider reads: a plugin from disk and a built-in provider, which runs in
// a process of its own to get its environment. Their items land in the
// folder of MY_KV_DIR, not in that of the provider's own variable.
func TestEnvVarMappingsReachTheProvider(t *testing.T) {
	dir := t.TempDir()
	cairn := plugintest.Link(t, dir, "cairn")
	e := newEnv(t, host.ResolverOptions{
		Builtins:     provider.Factories{plugintest.Factory("kvb", "2.0.0", false)},
		ServeCommand: func(pkg string) []string { return []string{cairn, "plugin", "serve", pkg} },
	})
	mapped := filepath.Join(e.dir, "mapped")
	if err := os.MkdirAll(mapped, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("MY_KV_DIR", mapped)
	e.up(program(func(r *registrar) error {
		for _, pkg := range []string{"kv", "kvb"} {
			prov, err := r.info.Monitor.RegisterResource(r.ctx, deploy.RegisterRequest{Type: resource.ProviderType(pkg),
				Name: "mapped", Custom: true, Parent: r.root, Properties: resource.Map{},
				EnvVarMappings: map[string]string{"MY_KV_DIR": plugintest.DirEnv}})
			if err != nil {
				return err
			}
			ref := resource.ProviderRef{URN: prov.URN, ID: prov.ID}.String()
			if _, err := r.item(pkg+":index:Item", pkg, resource.Map{"key": str(pkg)},
				func(req *deploy.RegisterRequest) { req.Provider = ref }); err != nil {
				return err
			}
		}
		return nil
	}))
	for _, id := range []resource.ID{"kv", "kvb"} {
		if _, _, _, err := plugintest.ReadItem(mapped, id); err != nil {
			t.Errorf("item %s is not in the folder of MY_KV_DIR: %v", id, err)
		}
		if _, _, _, err := plugintest.ReadItem(e.cloud, id); err == nil {
			t.Errorf("item %s is in the folder of %s, which envVarMappings replaced", id, plugintest.DirEnv)
		}
	}
}
