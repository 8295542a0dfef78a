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
	stack, ctx, read := mockRuns(t, f, diags, c)
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

// TestWriteOverrides checks what overrides of data sources, module calls
// and a module's resources write: the data source's own mocked provider
// configuration (a copy of its provider block's), the module call's
// stub, which declares its arguments and the module's outputs (null
// but those given), and an aliased mock_provider's configuration, whose
// overrides apply to its own objects only.
func TestWriteOverrides(t *testing.T) {
	src := `mock_provider "cairnfw" {
  alias = "other"
  mock_resource "cairnfw_file" {
    defaults = { size = 1 }
  }
  override_data {
    target = data.cairnfw_file.f
    values = { content = "nested" }
  }
  override_resource {
    target = terraform_data.d
    values = { output = "not of this provider" }
  }
}
override_data {
  target = data.cairnfw_file.f
  values = { content = "file" }
}
override_resource {
  target = module.m.terraform_data.inner
  values = { output = "inner" }
}
run "a" {
  override_module {
    target  = module.m
    outputs = { extra = { a = [var.tag] } }
  }
  override_module {
    target = module.r
  }
}
run "b" {}
`
	f, diags := Parse("t.tftest.hcl", []byte(src))
	c := loadTestConfig(t)
	stack, ctx, write := mockRuns(t, f, diags, c)
	m := write(f.Runs[0])
	data, _ := json.Marshal(m)
	if p := m.Configurations["cairnfw.other"]; p == nil || string(p.Resources["cairnfw_file"]["size"]) != "1" || len(m.Providers) != 0 {
		t.Errorf("the aliased mock: %s", data)
	}
	if p := m.Configurations["cairnfw.cairn_tftest_data_cairnfw_file_f"]; p == nil || string(p.Data["cairnfw_file"]["content"]) != `"file"` {
		t.Errorf("the data source's mock: %s, want the file's values", data)
	}
	if _, ok := m.Resources["terraform_data.d"]; ok {
		t.Errorf("an override in a mock_provider of another provider's resource is taken: %s", data)
	}
	if got := string(m.Resources["module.m.terraform_data.inner"]["output"]); got != `"inner"` {
		t.Errorf("the module's resource: %s", data)
	}
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(stack, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for name, want := range map[string][]string{
		mocksConfig + ".tf":        {`provider "cairnfw" {`, `alias = "cairn_tftest_data_cairnfw_file_f"`, `dir   = "x"`},
		mocksOverride + ".tf":      {`data "cairnfw_file" "f" {`, `provider = cairnfw.cairn_tftest_data_cairnfw_file_f`},
		"main.tf":                  {`module "m" {`, `source = "./zz_cairn_tftest_module_m"`, `size   = 1`, `source = "./zz_cairn_tftest_module_r"`},
		moduleFolder + "m/main.tf": {`variable "size" {`, `type    = any`, `default = null`, `output "extra" {`, `a = ["b"]`, `output "out" {`, `value = null`},
	} {
		got := read(name)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s lacks %q:\n%s", name, w, got)
			}
		}
	}
	if strings.Contains(read("main.tf"), "version") {
		t.Errorf("the stub of a registry module keeps its version:\n%s", read("main.tf"))
	}
	if d := writeMocks(stack, f, f.Runs[1], c, ctx); d.HasErrors() {
		t.Fatal(d)
	}
	if _, err := os.Stat(filepath.Join(stack, moduleFolder+"m")); !os.IsNotExist(err) {
		t.Errorf("the stub of the run before is left: %v", err)
	}
	if !strings.Contains(read("main.tf"), `source = "./m"`) {
		t.Errorf("the module call of the run before is still overridden:\n%s", read("main.tf"))
	}
}

// mockRuns checks test file f (with its parse diagnostics) against c,
// and returns the folder of a stack, the test's context (var.tag is "b")
// and a function that writes the mocks of a run of f and reads them.
func mockRuns(t *testing.T, f *File, diags hcl.Diagnostics, c *Config) (string, *hcl.EvalContext, func(*Run) tfplugin.Mocks) {
	t.Helper()
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
	return stack, ctx, func(run *Run) tfplugin.Mocks {
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
}
