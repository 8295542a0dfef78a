package tftest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/plugins/tfplugin"
)

// TestWriteMocks checks the mocks a run gets: the file's mock provider
// defaults, evaluated over the test's variables, and the overrides, a
// run's beating the file's; a run of a file without mocks gets none.
func TestWriteMocks(t *testing.T) {
	src := `mock_provider "cairnfw" {
  mock_resource "cairnfw_file" {
    defaults = { size = 42, tags = ["a", var.tag] }
  }
  mock_data "cairnfw_file" {
    defaults = { content = "mocked" }
  }
}
override_resource {
  target = terraform_data.d
  values = { output = "file" }
}
run "file" {}
run "mine" {
  override_resource {
    target = terraform_data.d
    values = { output = "run" }
  }
}
`
	f, diags := Parse("t.tftest.hcl", []byte(strings.Replace(src, `mock_provider "cairnfw"`, `mock_provider "fw"`, 1)))
	c := loadTestConfig(t)
	if c.Types["cairnfw"] != "cairnfw" {
		t.Fatalf("required_providers gave the types %v", c.Types)
	}
	c.Providers["fw"], c.Types["fw"] = true, "cairnfw" // fw = { source = "cairn/cairnfw" }
	if !diags.HasErrors() {
		diags = Check(f, map[string]*Config{"": c})
	}
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	stack := filepath.Join(t.TempDir(), "s0", "proj")
	if err := os.MkdirAll(stack, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{"tag": cty.StringVal("b")})}}
	read := func(run *Run) tfplugin.Mocks {
		t.Helper()
		if d := writeMocks(stack, f, run, c, ctx); d.HasErrors() {
			t.Fatal(d)
		}
		data, err := os.ReadFile(mocksFile(stack))
		if err != nil {
			t.Fatal(err)
		}
		var m tfplugin.Mocks
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := read(f.Runs[0])
	p := m.Providers["cairnfw"]
	if p == nil || string(p.Resources["cairnfw_file"]["size"]) != "42" || string(p.Resources["cairnfw_file"]["tags"]) != `["a","b"]` ||
		string(p.Data["cairnfw_file"]["content"]) != `"mocked"` {
		t.Errorf("mock provider: %+v", p)
	}
	if got := string(m.Resources["terraform_data.d"]["output"]); got != `"file"` {
		t.Errorf("file override: %s", got)
	}
	if got := string(read(f.Runs[1]).Resources["terraform_data.d"]["output"]); got != `"run"` {
		t.Errorf("run override: %s, want the run's", got)
	}
	plain, _ := Parse("p.tftest.hcl", []byte(`run "a" {}`))
	if d := writeMocks(stack, plain, plain.Runs[0], c, ctx); d.HasErrors() || hasMocks(stack) {
		t.Errorf("a file without mocks left %s (%v)", mocksFile(stack), d)
	}
}

// TestBadMockValues checks that mock values that are not an object are
// an error at their position.
func TestBadMockValues(t *testing.T) {
	f, _ := Parse("t.tftest.hcl", []byte("override_resource {\n  target = terraform_data.d\n  values = 3\n}\nrun \"a\" {}\n"))
	d := writeMocks(t.TempDir(), f, f.Runs[0], loadTestConfig(t), &hcl.EvalContext{})
	if !d.HasErrors() || d[0].Summary != "Invalid mock values" || d[0].Subject.Start.Line != 3 {
		t.Fatalf("got %v, want Invalid mock values at line 3", d)
	}
}
