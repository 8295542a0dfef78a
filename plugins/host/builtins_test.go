package host_test

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/plugintest"
	"github.com/cairn-iac/cairn/plugins/command"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/random"
)

// builtins are Cairn's own providers that the serve role can serve.
var builtins = provider.Factories{random.Factory(), command.Factory()}

// TestBuiltinProvidersAsPlugins runs Cairn's random and command providers
// out of process, as `cairn plugin serve` does, through a whole lifecycle.
func TestBuiltinProvidersAsPlugins(t *testing.T) {
	cairn := plugintest.Link(t, t.TempDir(), "cairn")
	e := newEnv(t, host.ResolverOptions{Builtins: builtins, Isolate: []string{"*"},
		ServeCommand: func(pkg string) []string { return []string{cairn, "plugin", "serve", pkg} }})
	prog := func(length float64, message string) deploy.Program {
		return program(func(r *registrar) error {
			if _, err := r.item("random:index/randomString:RandomString", "s", resource.Map{"length": resource.Number(length)}); err != nil {
				return err
			}
			if _, err := r.item("random:index/randomPassword:RandomPassword", "pw", resource.Map{"length": resource.Number(12)}); err != nil {
				return err
			}
			_, err := r.item("command:local:Command", "echo", resource.Map{"create": str("echo " + message)})
			return err
		})
	}
	if _, err := e.run(deploy.Update, e.options(prog(8, "hi"), true)); err != nil {
		t.Fatalf("preview: %v", err)
	}
	e.up(prog(8, "hi"))
	s := e.mustFind("s")
	if r := s.Outputs["result"]; !r.IsString() || len(r.StringValue()) != 8 {
		t.Errorf("random string = %v, want 8 characters", r)
	}
	if r := e.mustFind("pw").Outputs["result"]; !r.IsSecret() {
		t.Errorf("random password = %v, want a secret", r)
	}
	if out := e.mustFind("echo").Outputs["stdout"]; !out.IsString() || strings.TrimSpace(out.StringValue()) != "hi" {
		t.Errorf("command stdout = %v, want hi", out)
	}
	res := e.up(prog(10, "hi"))
	if res.Changes[deploy.OpReplace] != 1 || len(e.mustFind("s").Outputs["result"].StringValue()) != 10 {
		t.Errorf("changing the length: changes %v, result %v", res.Changes, e.mustFind("s").Outputs["result"])
	}
	if _, err := e.run(deploy.Destroy, e.options(nil, false)); err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if len(e.snap.Resources) != 0 {
		t.Errorf("destroy left %d resources", len(e.snap.Resources))
	}
}
