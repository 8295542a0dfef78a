package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/cairn-iac/cairn/internal/objtest"
)

// TestTerraformBackends runs the scenarios of testdata/tfbackend, in
// which OpenTofu keeps states in the backends of real servers and Cairn
// reads them: terraform_remote_state must give the outputs OpenTofu's
// does, and a state moved in with `cairn stack import --from-terraform`
// must preview no changes. pg.txtar starts PostgreSQL itself; s3.txtar
// runs against VersityGW, gcs.txtar and azurerm.txtar (Cairn's stacks
// beside the state, no tofu) against fake-gcs-server and Azurite, started
// here. Without tofu the test says so and skips (fails under
// CAIRN_REQUIRE_TOFU=1); without a server, its scenario does (fails under
// CAIRN_REQUIRE_OBJECT_STORAGE=1).
func TestTerraformBackends(t *testing.T) {
	if _, err := exec.LookPath("tofu"); err != nil {
		if os.Getenv(requireTofuEnv) == "1" {
			t.Fatalf("tofu is not on PATH, and %s=1 requires it: build it with .ci/tofu and put its folder on PATH", requireTofuEnv)
		}
		fmt.Fprintln(os.Stderr, "SKIPPED: tofu is not on PATH")
		t.Skip("SKIPPED: tofu is not on PATH")
	}
	dir := filepath.Join("..", "..", "testdata", "tfbackend")
	t.Run("pg", func(t *testing.T) {
		testscript.Run(t, tfBackendParams(filepath.Join(dir, "pg.txtar"), nil))
	})
	for _, store := range []struct {
		name  string
		start func(testing.TB) *objtest.Store
	}{{"s3", objtest.S3}, {"gcs", objtest.GCS}, {"azurerm", objtest.Azure}} {
		t.Run(store.name, func(t *testing.T) {
			srv := store.start(t).Server
			testscript.Run(t, tfBackendParams(filepath.Join(dir, store.name+".txtar"), func(e *testscript.Env) error {
				st, err := srv.NewBucket()
				if err != nil {
					return err
				}
				objtest.SetenvWith(st.Env, e.Setenv)
				e.Setenv("BUCKET", st.Bucket)
				e.Setenv("ENDPOINT", st.Endpoint)
				return nil
			}))
		})
	}
}

// tfBackendParams runs one scenario of testdata/tfbackend, with tofu's
// settings and Cairn's default backend (no CAIRN_BACKEND_URL), and more
// setup when given.
func tfBackendParams(file string, more func(*testscript.Env) error) testscript.Params {
	p := scriptParams(nil)
	p.Dir, p.Files, p.UpdateScripts = "", []string{file}, false
	p.Cmds["outputscmp"] = outputsCmpCmd
	setup := p.Setup
	p.Setup = func(e *testscript.Env) error {
		if err := setup(e); err != nil {
			return err
		}
		e.Setenv("CAIRN_BACKEND_URL", "")
		e.Setenv("HOME", filepath.Join(e.WorkDir, "home"))
		e.Setenv("CHECKPOINT_DISABLE", "1")
		e.Setenv("TF_IN_AUTOMATION", "1")
		if more != nil {
			return more(e)
		}
		return nil
	}
	return p
}

// outputsCmpCmd compares the outputs `tofu output -json` wrote to one
// file with those `cairn stack output --json --show-secrets` wrote to
// another, value by value, and their sensitivity with a third, `cairn
// stack output --json`, in which secrets are "[secret]": "outputscmp
// TOFU CAIRN CAIRN_MASKED".
func outputsCmpCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: outputscmp TOFU CAIRN CAIRN_MASKED")
	}
	var tofu map[string]struct {
		Sensitive bool `json:"sensitive"`
		Value     any  `json:"value"`
	}
	var cairn, masked map[string]any
	for i, v := range []any{&tofu, &cairn, &masked} {
		ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[i])), v))
	}
	if len(tofu) != len(cairn) {
		ts.Fatalf("OpenTofu has %d outputs, Cairn %d", len(tofu), len(cairn))
	}
	for name, o := range tofu {
		if !reflect.DeepEqual(o.Value, cairn[name]) {
			ts.Fatalf("output %s: OpenTofu %#v, Cairn %#v", name, o.Value, cairn[name])
		}
		if secret := masked[name] == "[secret]"; secret != o.Sensitive {
			ts.Fatalf("output %s: sensitive under OpenTofu %v, secret under Cairn %v", name, o.Sensitive, secret)
		}
	}
}
