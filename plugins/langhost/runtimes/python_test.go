package runtimes

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// fakePulumi is a stand-in for the Pulumi Python SDK with the parts the
// launcher uses; it records the settings it is configured with.
const fakePulumi = `
import json, os

class RunError(Exception):
    pass

class log:
    @staticmethod
    def error(msg):
        with open(os.environ["FAKE_LOG"], "a") as f:
            f.write(msg + "\n")
`

const fakeRuntime = `
import json, os
settings = None
config = None

class Settings:
    def __init__(self, **kw):
        self.kw = kw

def configure(s):
    global settings
    settings = s.kw

def set_all_config(c, secret_keys):
    global config
    config = {"config": c, "secretKeys": secret_keys}

async def run_in_stack(fn):
    fn()
`

// fakeProgram writes what the SDK was set up with, or fails as asked.
const fakeProgram = `
import json, sys
import pulumi, pulumi.runtime
if sys.argv[1:] == ["fail"]:
    raise pulumi.RunError("the program refused")
with open("seen.json", "w") as f:
    json.dump({"settings": pulumi.runtime.settings, "config": pulumi.runtime.config, "argv": sys.argv}, f)
`

// TestPythonLauncher runs the launcher on a stand-in for the Pulumi SDK:
// this machine cannot install the real one.
func TestPythonLauncher(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skipf("SKIPPED: python3 is not on PATH: %v", err)
	}
	sdk, dir := t.TempDir(), t.TempDir()
	write(t, filepath.Join(sdk, "pulumi", "__init__.py"), fakePulumi)
	write(t, filepath.Join(sdk, "pulumi", "runtime", "__init__.py"), fakeRuntime)
	write(t, filepath.Join(dir, "__main__.py"), fakeProgram)
	t.Setenv("PYTHONPATH", sdk)
	t.Setenv("FAKE_LOG", filepath.Join(dir, "log.txt"))
	req := &pulumirpc.RunRequest{
		Project: "proj", Stack: "dev", Organization: "acme", Pwd: dir, DryRun: true, Parallel: 4, MonitorAddress: "127.0.0.1:1",
		Config: map[string]string{"proj:name": "world"}, ConfigSecretKeys: []string{"proj:name"},
		Info: info(t, dir, nil), Args: []string{"one"},
	}
	resp, err := Python{Options{Engine: "127.0.0.1:2"}}.Run(context.Background(), req)
	if err != nil || resp.GetError() != "" || resp.GetBail() {
		t.Fatalf("Run: %v, %v", resp, err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "seen.json"))
	if err != nil {
		t.Fatal(err)
	}
	var seen struct {
		Settings map[string]any
		Config   map[string]any
		Argv     []string
	}
	if err := json.Unmarshal(b, &seen); err != nil {
		t.Fatal(err)
	}
	s := seen.Settings
	if s["monitor"] != "127.0.0.1:1" || s["engine"] != "127.0.0.1:2" || s["project"] != "proj" || s["stack"] != "dev" ||
		s["organization"] != "acme" || s["dry_run"] != true || s["parallel"] != 4.0 || s["root_directory"] != dir {
		t.Errorf("settings = %v", s)
	}
	if c := seen.Config; c["config"].(map[string]any)["proj:name"] != "world" || c["secretKeys"].([]any)[0] != "proj:name" {
		t.Errorf("config = %v", c)
	}
	if len(seen.Argv) != 2 || seen.Argv[1] != "one" {
		t.Errorf("argv = %v", seen.Argv)
	}

	// A failure the SDK reports bails.
	req.Args = []string{"fail"}
	resp, err = Python{Options{Engine: "127.0.0.1:2"}}.Run(context.Background(), req)
	if err != nil || !resp.GetBail() {
		t.Errorf("a failing program: %v, %v; want a bail", resp, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "log.txt")); string(b) != "the program refused\n" {
		t.Errorf("logged %q", b)
	}
}
