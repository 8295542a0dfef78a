package tftest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

const testConfig = `
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw" }
  }
}
variable "name" {
  default = "a"
}
locals {
  up = upper(var.name)
}
resource "terraform_data" "d" {
  input = local.up
}
output "o" {
  value = terraform_data.d.output
}
check "c" {
  assert {
    condition     = var.name != ""
    error_message = "empty"
  }
}
provider "cairnfw" {
  alias = "other"
  dir   = "x"
}
data "cairnfw_file" "f" {
  provider = cairnfw.other
  name     = "f"
}
module "m" {
  source = "./m"
  size   = 1
}
module "r" {
  source  = "example.com/x/r/cairnfw"
  version = "1.0.0"
}
`

// testModule is the module the test configuration calls.
const testModule = `
resource "terraform_data" "inner" {}
output "out" {
  value = 1
}
`

func loadTestConfig(t *testing.T) *Config {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(testConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "m"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "m", "main.tf"), []byte(testModule), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestBadFiles checks that what tofu test refuses in a test file is an
// error at its position, before anything runs.
func TestBadFiles(t *testing.T) {
	c := loadTestConfig(t)
	for _, tc := range []struct {
		name, src, summary, at string
	}{
		{"unknown block", "run \"a\" {}\nrunn \"b\" {}\n", "Unsupported block type", "t.tftest.hcl:2,1"},
		{"unknown argument in run", "run \"a\" {\n  comand = plan\n}\n", "Unsupported argument", "t.tftest.hcl:2,3"},
		{"bad command", "run \"a\" {\n  command = destroy\n}\n", "Invalid command", "t.tftest.hcl:2,13"},
		{"missing run", "run \"a\" {\n  variables {\n    name = run.nope.o\n  }\n}\n", "Reference to unknown run block", "t.tftest.hcl:3,12"},
		{"later run", "run \"a\" {\n  variables {\n    name = run.b.o\n  }\n}\nrun \"b\" {}\n", "Reference to unknown run block", "t.tftest.hcl:3,12"},
		{"undeclared resource", "run \"a\" {\n  assert {\n    condition = terraform_data.e.output == 1\n    error_message = \"x\"\n  }\n}\n", "Reference to an undeclared object", "t.tftest.hcl:3,17"},
		{"undeclared output", "run \"a\" {\n  assert {\n    condition = output.p == 1\n    error_message = \"x\"\n  }\n}\n", "Reference to an undeclared object", "t.tftest.hcl:3,17"},
		{"undeclared expected failure", "run \"a\" {\n  expect_failures = [check.nope]\n}\n", "Reference to an undeclared object", "t.tftest.hcl:2,22"},
		{"mock of an unused provider", "mock_provider \"aws\" {}\nrun \"a\" {}\n", "Mock of an unused provider", "t.tftest.hcl:1,1"},
		{"mock of an undeclared alias", "mock_provider \"cairnfw\" {\n  alias = \"x\"\n}\nrun \"a\" {}\n", "Mock of an undeclared provider configuration", "t.tftest.hcl:1,1"},
		{"mock alias not a string", "mock_provider \"cairnfw\" {\n  alias = [1]\n}\n", "Invalid provider alias", "t.tftest.hcl:2,11"},
		{"override in a mock of an undeclared resource", "mock_provider \"cairnfw\" {\n  override_resource {\n    target = terraform_data.e\n  }\n}\n", "Reference to an undeclared object", "t.tftest.hcl:3,14"},
		{"override_data of an undeclared data source", "override_data {\n  target = data.cairnfw_file.g\n}\n", "Reference to an undeclared object", "t.tftest.hcl:2,12"},
		{"override_data of a resource", "override_data {\n  target = terraform_data.d\n}\n", "Invalid override target", "t.tftest.hcl:2,12"},
		{"override_data of a module's", "override_data {\n  target = module.m.data.cairnfw_file.f\n}\n", "Not supported by cairn test", "t.tftest.hcl:2,12"},
		{"override_module of an undeclared call", "run \"a\" {\n  override_module {\n    target = module.n\n  }\n}\n", "Reference to an undeclared object", "t.tftest.hcl:3,14"},
		{"override_module of a resource", "run \"a\" {\n  override_module {\n    target = terraform_data.d\n  }\n}\n", "Invalid override target", "t.tftest.hcl:3,14"},
		{"override of a resource of an undeclared call", "override_resource {\n  target = module.n.terraform_data.inner\n}\n", "Reference to an undeclared object", "t.tftest.hcl:2,12"},
		{"override of a module's undeclared resource", "override_resource {\n  target = module.m.terraform_data.nope\n}\n", "Reference to an undeclared object", "t.tftest.hcl:2,20"},
		{"override of an undeclared resource", "override_resource {\n  target = terraform_data.e\n}\n", "Reference to an undeclared object", "t.tftest.hcl:2,12"},
		{"override of an output", "run \"a\" {\n  override_resource {\n    target = output.o\n  }\n}\n", "Invalid override target", "t.tftest.hcl:3,14"},
		{"override without target", "override_resource {\n  values = {}\n}\n", "Missing required argument", "t.tftest.hcl:1,19"},
		{"duplicate run", "run \"a\" {}\nrun \"a\" {}\n", "Duplicate run block", "t.tftest.hcl:2,1"},
		{"undeclared provider in mapping", "run \"a\" {\n  providers = { cairnfw = cairnfw.x }\n}\n", "Reference to an undeclared provider", "t.tftest.hcl:2,27"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, diags := Parse("t.tftest.hcl", []byte(tc.src))
			if !diags.HasErrors() {
				diags = Check(f, map[string]*Config{"": c})
			}
			if !diags.HasErrors() {
				t.Fatalf("no error; want %q", tc.summary)
			}
			d := diags[0]
			got := fmt.Sprintf("%s:%d,%d", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
			if d.Summary != tc.summary || got != tc.at {
				t.Errorf("got %q at %s, want %q at %s (%s)", d.Summary, got, tc.summary, tc.at, d.Detail)
			}
		})
	}
}

// TestGoodFile checks that a test file using what the configuration and
// its own variables declare has no errors.
func TestGoodFile(t *testing.T) {
	src := `variables {
  extra = "x"
}
run "a" {
  assert {
    condition     = output.o == local.up && var.extra == "x" && var.name == "a"
    error_message = "bad"
  }
  expect_failures = [check.c, var.name, output.o, terraform_data.d]
}
run "b" {
  command = plan
  variables {
    name = run.a.o
  }
  plan_options {
    mode    = refresh-only
    refresh = false
    replace = [terraform_data.d]
    target  = [terraform_data.d]
  }
  override_module {
    target  = module.m
    outputs = { out = 2 }
  }
}
mock_provider "cairnfw" {
  alias = "other"
  override_data {
    target = data.cairnfw_file.f
  }
}
override_resource {
  target = module.m.terraform_data.inner
}
`
	f, diags := Parse("t.tftest.hcl", []byte(src))
	diags = append(diags, Check(f, map[string]*Config{"": loadTestConfig(t)})...)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	b := f.Runs[1]
	if b.Command != "plan" || b.Plan.Mode != "refresh-only" || b.Plan.Refresh || len(b.Plan.Replace) != 1 || len(b.Plan.Target) != 1 {
		t.Errorf("run b read as %+v", b)
	}
	if len(f.Runs[0].ExpectFailures) != 4 {
		t.Errorf("expect_failures: %d", len(f.Runs[0].ExpectFailures))
	}
}

// TestChecksFor checks how assertions become check blocks: output.NAME
// becomes the output's expression, run.NAME.X and the test's own
// variables their values, and the rest is left to the configuration.
func TestChecksFor(t *testing.T) {
	c := loadTestConfig(t)
	src := `run "a" {
  assert {
    condition     = output.o == run.prev.o && var.extra == 2 && var.name == "a"
    error_message = "got ${output.o}"
  }
}
`
	f, diags := Parse("t.tftest.hcl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ctx := (&Runner{Dir: c.Dir}).evalContext(map[string]cty.Value{"prev": cty.ObjectVal(map[string]cty.Value{"o": cty.StringVal("A")})},
		map[string]cty.Value{"extra": cty.NumberIntVal(2)})
	got, _, diags := checksFor(f, f.Runs[0], c, ctx)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := `check "cairn_tftest_0" {
  assert {
    condition = ((terraform_data.d.output) == ("A") && (2) == 2 && var.name == "a")
    error_message = "got ${(terraform_data.d.output)}"
  }
}
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestAt checks that a position in the configuration names the object
// whose block holds it, the innermost one.
func TestAt(t *testing.T) {
	c := loadTestConfig(t)
	for _, tc := range []struct {
		line, col int
		want      string
	}{{8, 13, "var.name"}, {11, 5, "local.up"}, {14, 3, "terraform_data.d"}, {17, 3, "output.o"}, {21, 5, "check.c"}, {3, 1, ""}} {
		if got := c.At("main.tf", tc.line, tc.col); got != tc.want {
			t.Errorf("At(%d,%d) = %q, want %q", tc.line, tc.col, got, tc.want)
		}
	}
}

// TestDiscover checks which files are test files and their order: the
// folder's, then the test folder's.
func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.tftest.hcl", "a.tofutest.hcl", "main.tf", "x.hcl", "tests/c.tftest.hcl", "tests/d.txtar", "other/e.tftest.hcl", "tests/f.tftest.hcl", "tests/f.tofutest.hcl"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Discover(dir, "tests")
	if err != nil {
		t.Fatal(err)
	}
	if want := "a.tofutest.hcl b.tftest.hcl tests/c.tftest.hcl tests/f.tofutest.hcl"; strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
}

// TestLiteralSensitive checks that a secret output of a run stays
// sensitive where an assertion uses it.
func TestLiteralSensitive(t *testing.T) {
	v := cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("s3cret")}).Mark(sensitive)
	if got, want := literal(v), `sensitive({
  a = "s3cret"
})`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := literal(cty.StringVal("x")); got != `"x"` {
		t.Errorf("got %s", got)
	}
}

// TestLoadConfigHCLProject checks that a folder without .tf files is read
// from its *.hcl files, test files left out, and its checks go to .hcl.
func TestLoadConfigHCLProject(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"main.hcl":        "resource \"random_pet\" \"p\" {}\n",
		"a.tftest.hcl":    "run \"x\" {}\n",
		"Pulumi.yaml":     "name: p\nruntime: hcl\n",
		"outputs.hcl":     "output \"o\" {\n  value = random_pet.p.id\n}\n",
		"notes.txt":       "",
		"variables.tf.md": "",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.Ext != ".hcl" || c.Objects["random_pet.p"] == nil || c.Objects["output.o"] == nil || len(c.Files) != 2 {
		t.Errorf("read %v files, ext %s, objects %v", len(c.Files), c.Ext, c.Objects)
	}
}
