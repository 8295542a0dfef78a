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

// requirePulumiEnv, set to 1 (as CI does), makes TestPulumiInterop fail
// rather than skip when pulumi or pulumi-language-yaml is not on PATH.
const requirePulumiEnv = "CAIRN_REQUIRE_PULUMI"

// pulumiDirEnv names a folder holding pulumi and pulumi-language-yaml
// (.ci/pulumi prints it) that TestPulumiInterop puts first on PATH, so
// that other tests do not find Pulumi's YAML host there.
const pulumiDirEnv = "CAIRN_PULUMI_DIR"

// pulumiStore is a store the interop scenarios run on. start readies it
// for a test and returns open, which gives a scenario the backend URL of
// a store of its own, the environment that reaches it, and the folder in
// which the store's objects appear as files (.pulumi/… under it), which
// the scenarios inspect as $STORE.
type pulumiStore struct {
	name  string
	start func(t *testing.T) (open func(e *testscript.Env) (url, dir string, env []string, err error))
}

// pulumiStores lists the stores; every scenario runs on each.
var pulumiStores = []pulumiStore{
	{name: "file", start: func(*testing.T) func(e *testscript.Env) (string, string, []string, error) {
		return func(e *testscript.Env) (string, string, []string, error) {
			dir := filepath.Join(e.WorkDir, "store")
			return "file://" + dir, dir, nil, os.MkdirAll(dir, 0o755)
		}
	}},
	// S3 on VersityGW, whose posix backend keeps objects as files.
	{name: "s3", start: func(t *testing.T) func(e *testscript.Env) (string, string, []string, error) {
		srv := objtest.S3(t).Server
		return func(*testscript.Env) (string, string, []string, error) {
			st, err := srv.NewBucket()
			if err != nil {
				return "", "", nil, err
			}
			return st.URL, st.Folder(), st.Env, nil
		}
	}},
}

// TestPulumiInterop runs the scenarios of testdata/pulumi, in which
// Pulumi's own CLI and Cairn take turns on one store in Pulumi's DIY
// layout. They need pulumi and pulumi-language-yaml on PATH (.ci/pulumi
// builds both); Cairn serves the providers, as pulumi-resource-random and
// pulumi-resource-command.
func TestPulumiInterop(t *testing.T) {
	if dir := os.Getenv(pulumiDirEnv); dir != "" {
		t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	for _, tool := range []string{"pulumi", "pulumi-language-yaml"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv(requirePulumiEnv) == "1" {
				t.Fatalf("%s is not on PATH, and %s=1 requires it: build it with .ci/pulumi and put its folder on PATH", tool, requirePulumiEnv)
			}
			fmt.Fprintf(os.Stderr, "SKIPPED: %s is not on PATH\n", tool)
			t.Skipf("SKIPPED: %s is not on PATH", tool)
		}
	}
	for _, store := range pulumiStores {
		t.Run(store.name, func(t *testing.T) {
			p := scriptParams(nil)
			p.Dir, p.UpdateScripts = filepath.Join("..", "..", "testdata", "pulumi"), false
			p.Cmds["jsoneq"] = jsonEqCmd
			open := store.start(t)
			setup := p.Setup
			p.Setup = func(e *testscript.Env) error {
				if err := setup(e); err != nil {
					return err
				}
				url, dir, env, err := open(e)
				if err != nil {
					return err
				}
				objtest.SetenvWith(env, e.Setenv)
				e.Setenv("STORE", dir)
				e.Setenv("CAIRN_BACKEND_URL", url)
				e.Setenv("PULUMI_BACKEND_URL", url)
				e.Setenv("PULUMI_HOME", filepath.Join(e.WorkDir, ".pulumi-home"))
				e.Setenv("PULUMI_CONFIG_PASSPHRASE", e.Getenv("CAIRN_CONFIG_PASSPHRASE"))
				e.Setenv("PULUMI_SKIP_UPDATE_CHECK", "true")
				e.Setenv("PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION", "true")
				return nil
			}
			testscript.Run(t, p)
		})
	}
}

// jsonEqCmd compares two JSON files by value, whatever their layout:
// "jsoneq FILE1 FILE2".
func jsonEqCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: jsoneq FILE1 FILE2")
	}
	var v [2]any
	for i, name := range args {
		if err := json.Unmarshal([]byte(ts.ReadFile(name)), &v[i]); err != nil {
			ts.Fatalf("%s: %v", name, err)
		}
	}
	if eq := reflect.DeepEqual(v[0], v[1]); eq == neg {
		ts.Fatalf("%s and %s: equal %v, want %v:\n%s\n%s", args[0], args[1], eq, !eq, ts.ReadFile(args[0]), ts.ReadFile(args[1]))
	}
}
