package hcl_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/eval"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

// FuzzVarFile reads variable definitions files given with -var-file, in
// HCL (.tfvars) and JSON (.tfvars.json), for the variables of the
// tf-files corpus program: no file panics, a file that reads gives each
// variable it names a known value placed in that file, and the value
// converts to the variable's type or says why not. The seeds are the
// corpus's terraform.tfvars and values of every type the program
// declares.
func FuzzVarFile(f *testing.F) {
	dir := filepath.Join(corpusDir, "tf-files")
	tfvars, err := os.ReadFile(filepath.Join(dir, "terraform.tfvars"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(tfvars, false)
	f.Add([]byte("zones = [\"a\", \"b\"]\nlabels = { team = \"web\" }\nsize = \"3\"\nundeclared = 1\n"), false)
	f.Add([]byte("size = var.x\nname = \"${1 + 1}\"\n"), false)
	f.Add([]byte(`{"name": "json", "size": 2, "zones": ["a"], "labels": {"team": "web"}, "from_config": null}`), true)
	f.Add([]byte(`{"size": "${1}", "zones": {"a": 1}}`), true)
	program := []byte(`
variable "name" {}
variable "size" { type = number }
variable "from_config" { default = "x" }
variable "zones" { type = list(string) }
variable "labels" { type = map(string) }
`)
	tmp := f.TempDir()
	f.Fuzz(func(t *testing.T, src []byte, json bool) {
		path := filepath.Join(tmp, "given.tfvars")
		if json {
			path += ".json"
		}
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		prog, diags := langhcl.Parse("main.tf", program, langhcl.Options{Project: "p", Vars: []langhcl.VarArg{{File: true, Value: path}}})
		if diags.HasErrors() {
			return
		}
		for _, n := range prog.Root.Nodes {
			c, ok := n.(*eval.Config)
			if !ok || c.Over == nil {
				continue
			}
			if !c.Over.Value.IsWhollyKnown() || c.Over.Range == nil || c.Over.Range.Filename != path {
				t.Fatalf("variable %s: value %#v from %s at %v", c.Name, c.Over.Value, c.Over.Source, c.Over.Range)
			}
			if _, diags := eval.ConfigValue(c, "p", nil); diags.HasErrors() && diags[0].Summary == "" {
				t.Fatalf("variable %s: an error with no summary: %v", c.Name, diags)
			}
		}
	})
}
