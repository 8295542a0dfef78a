package tfbuiltin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// state is a state file as OpenTofu 1.12 writes it for outputs a, n and
// the sensitive s.
const state = `{"version": 4, "terraform_version": "1.12.6", "serial": 1, "lineage": "l",
  "outputs": {
    "a": {"value": "hello", "type": "string"},
    "n": {"value": {"x": 1, "y": [true]}, "type": ["object", {"x": "number", "y": ["tuple", ["bool"]]}]},
    "s": {"value": "hunter2", "type": "string", "sensitive": true}
  },
  "resources": [], "check_results": null}`

func TestRemoteState(t *testing.T) {
	dir := t.TempDir()
	write := func(path, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, path)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, path), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("terraform.tfstate", state)
	write("other/x.tfstate", strings.Replace(state, `"hello"`, `"other"`, 1))
	write("terraform.tfstate.d/w2/terraform.tfstate", strings.Replace(state, `"hello"`, `"w2"`, 1))
	write("old.tfstate", `{"version": 3}`)
	p, err := Factory(dir, nil).New(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	read := func(args resource.Map) provider.InvokeResponse {
		t.Helper()
		resp, err := p.Invoke(context.Background(), provider.InvokeRequest{Token: RemoteStateToken, Args: args})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	local := resource.String("local")
	config := func(kv ...string) resource.Value {
		m := resource.Map{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = resource.String(kv[i+1])
		}
		return resource.Object(m)
	}

	// terraform.tfstate of the project's folder, over the defaults: the
	// state's a wins, d comes from the defaults, s is a secret.
	resp := read(resource.Map{"backend": local, "defaults": resource.Object(resource.Map{"a": resource.String("default"), "d": resource.String("dflt")})})
	if len(resp.Failures) > 0 {
		t.Fatal(resp.Failures)
	}
	out := resp.Return["outputs"].ObjectValue()
	if !out["a"].Equal(resource.String("hello")) || !out["d"].Equal(resource.String("dflt")) {
		t.Errorf("outputs %v", resp.Return["outputs"])
	}
	if !out["s"].IsSecret() || !out["s"].Unsecret().Equal(resource.String("hunter2")) || out["a"].IsSecret() {
		t.Errorf("s = %v, a = %v: only the sensitive output is secret", out["s"], out["a"])
	}
	if n := out["n"].ObjectValue(); !n["x"].Equal(resource.Number(1)) || !n["y"].ArrayValue()[0].Equal(resource.Bool(true)) {
		t.Errorf("n = %v", out["n"])
	}
	if !resp.Return["backend"].Equal(local) {
		t.Errorf("backend = %v", resp.Return["backend"])
	}

	for _, c := range []struct {
		name string
		args resource.Map
		a    string
	}{
		{"path", resource.Map{"backend": local, "config": config("path", "other/x.tfstate")}, "other"},
		{"absolute path", resource.Map{"backend": local, "config": config("path", filepath.Join(dir, "other/x.tfstate"))}, "other"},
		{"workspace", resource.Map{"backend": local, "workspace": resource.String("w2")}, "w2"},
		{"default workspace", resource.Map{"backend": local, "workspace": resource.String("default")}, "hello"},
	} {
		resp := read(c.args)
		if len(resp.Failures) > 0 {
			t.Errorf("%s: %v", c.name, resp.Failures)
		} else if a := resp.Return["outputs"].ObjectValue()["a"]; !a.Equal(resource.String(c.a)) {
			t.Errorf("%s: a = %v, want %q", c.name, a, c.a)
		}
	}

	for _, c := range []struct {
		name     string
		args     resource.Map
		property string
		reason   string
	}{
		{"unsupported backend", resource.Map{"backend": resource.String("consul")}, "backend", `Cairn does not read Terraform's "consul" backend`},
		{"unknown backend", resource.Map{"backend": resource.String("s4")}, "backend", `there is no Terraform backend named "s4"`},
		{"missing argument", resource.Map{"backend": resource.String("s3"), "config": config("bucket", "b")}, "config", `backend "s3" needs key`},
		{"missing state", resource.Map{"backend": local, "config": config("path", "nope.tfstate")}, "workspace", `no state was found for the workspace "default" in`},
		{"missing workspace", resource.Map{"backend": local, "workspace": resource.String("w3")}, "workspace", "w3/terraform.tfstate"},
		{"unknown attribute", resource.Map{"backend": local, "config": config("bucket", "b")}, "config", `backend "local" has no argument "bucket"`},
		{"old format", resource.Map{"backend": local, "config": config("path", "old.tfstate")}, "config", "format version is 3"},
		{"no backend", resource.Map{}, "backend", ""},
	} {
		resp := read(c.args)
		if len(resp.Failures) != 1 || resp.Failures[0].Property != c.property || !strings.Contains(resp.Failures[0].Reason, c.reason) {
			t.Errorf("%s: failures %v, want one on %s saying %q", c.name, resp.Failures, c.property, c.reason)
		}
	}
}
