package langhost_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/plugins/langhost"
)

// pythonProgram is a Python program on the Pulumi Python SDK: an item of
// the kv provider, a secret from the configuration and stack outputs.
const pythonProgram = `
import pulumi

class Item(pulumi.CustomResource):
    def __init__(self, name, value, opts=None):
        super().__init__("kv:index:Item", name, {"value": value, "length": None}, opts)

config = pulumi.Config()
item = Item("first", config.require("greeting"))
pulumi.export("length", item.length)
pulumi.export("password", config.require_secret("password"))
`

// TestPythonProgram runs a Python program through Cairn's Python language
// host. It needs python3 with the pulumi package importable, which Cairn
// cannot install (PyPI is out of its reach), so it skips, saying so,
// without them, even in CI.
func TestPythonProgram(t *testing.T) {
	if err := exec.Command("python3", "-c", "import pulumi").Run(); err != nil {
		msg := fmt.Sprintf("SKIPPED %s: python3 cannot import the pulumi package (%v), so Cairn's Python language host is not tested", t.Name(), err)
		fmt.Fprintln(os.Stderr, msg)
		t.Skip(msg)
	}
	e := newEnv(t)
	writeFile(t, filepath.Join(e.dir, "__main__.py"), pythonProgram)
	prog := &langhost.Program{Runtime: "python", RootDirectory: e.dir, ProgramDirectory: e.dir, Dirs: e.dirs, Diag: e.diag}
	config := map[string]resource.Value{
		"proj:greeting": resource.String("hello"),
		"proj:password": resource.MakeSecret(resource.String("s3cret")),
	}
	if _, err := e.update(prog, config, false); err != nil {
		t.Fatal(err)
	}
	outputs := e.snap.Resources[0].Outputs
	if !outputs["length"].Equal(resource.Number(5)) || !outputs["password"].IsSecret() {
		t.Errorf("stack outputs = %v", outputs)
	}
	res, err := e.update(prog, config, false)
	if err != nil || res.HasChanges() {
		t.Errorf("second update: %v, changes %v", err, res.Changes)
	}
}
