package langhost_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/cairn-iac/cairn/internal/plugintest"
)

func (e *env) probe(require ...any) (*bytes.Buffer, error) {
	prog := e.program("main.js")
	prog.Runtime, prog.Host, prog.Options = "probe", e.resolver, map[string]any{"require": require, "packagemanager": "pnpm"}
	var out bytes.Buffer
	prog.Output = &out
	_, err := e.update(prog, nil, true)
	return &out, err
}

func TestLanguageHostGetsTheEngineServices(t *testing.T) {
	e := newEnv(t)
	out, err := e.probe("kv@1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "missing: left-pad") || !strings.Contains(out.String(), "added left-pad") {
		t.Errorf("installing the dependencies printed %q, want why and the host's output", out)
	}
	data, err := os.ReadFile(filepath.Join(e.dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got plugintest.Probed
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	var req pulumirpc.RunRequest
	if err := protojson.Unmarshal(got.Request, &req); err != nil {
		t.Fatal(err)
	}
	info := req.GetInfo()
	if req.GetLoaderTarget() == "" || info.GetEntryPoint() != "main.js" || info.GetProgramDirectory() != e.dir ||
		info.GetOptions().GetFields()["packagemanager"].GetStringValue() != "pnpm" {
		t.Errorf("RunRequest = %s", got.Request)
	}
	if got.Health != "SERVING" {
		t.Errorf("the health service answered %s", got.Health)
	}
	if got.Schema != "kv" {
		t.Errorf("the Loader answered %s, want kv's schema", got.Schema)
	}

	// Installed, the dependencies are not installed again.
	out, err = e.probe("kv")
	if err != nil || out.Len() != 0 {
		t.Errorf("second run: %v, printed %q", err, out)
	}
}

func TestMissingPluginsAreNamed(t *testing.T) {
	e := newEnv(t)
	_, err := e.probe("kv@1.0.0", "aws@6.0.0", "gcp")
	for _, want := range []string{"not installed: aws 6.0.0, gcp", "cairn plugin install resource aws 6.0.0 and cairn plugin install resource gcp"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want it to say %q", err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(e.dir, "run.json")); err == nil {
		t.Error("the program ran without its plugins")
	}
}
