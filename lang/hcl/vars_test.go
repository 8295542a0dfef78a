package hcl_test

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

// TestVariableArgs gives variables values from TF_VAR_ and -var by
// Terraform's precedence: the command line over the stack's
// configuration over the environment, the last -var winning; text is a
// string for primitive types and an HCL expression for others.
func TestVariableArgs(t *testing.T) {
	src := `
variable "size" { type = number }
variable "name" {}
variable "tags" { type = map(string) }
variable "zones" {
  type    = list(string)
  default = []
}
`
	prog, diags := langhcl.Parse("main.tf", []byte(src), langhcl.Options{Project: "p",
		Env:  []string{"TF_VAR_name=env", "TF_VAR_zones=[\"a\", \"b\"]", "TF_VAR_unknown=x", "PATH=/bin"},
		Vars: []langhcl.VarArg{{Value: "size=1"}, {Value: "tags={team = \"web\"}"}, {Value: "size=3"}}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	config := map[string]resource.Value{"p:size": resource.String("2"), "p:name": resource.String("stack")}
	want := map[string]cty.Value{
		"size":  cty.NumberIntVal(3),
		"name":  cty.StringVal("stack"),
		"tags":  cty.MapVal(map[string]cty.Value{"team": cty.StringVal("web")}),
		"zones": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
	}
	for _, n := range prog.Root.Nodes {
		c, ok := n.(*eval.Config)
		if !ok {
			continue
		}
		got, diags := eval.ConfigValue(c, "p", config)
		if diags.HasErrors() || !got.RawEquals(want[c.Name]) {
			t.Errorf("%s = %#v (%v), want %#v", c.Name, got, diags, want[c.Name])
		}
	}

	for arg, errText := range map[string]string{
		"size":          "Invalid -var option",
		"colour=red":    `gives a value to the variable "colour", which the root module does not declare`,
		"tags={team = ": "is not a valid HCL expression",
	} {
		_, diags := langhcl.Parse("main.tf", []byte(src), langhcl.Options{Project: "p", Vars: []langhcl.VarArg{{Value: arg}}})
		if !strings.Contains(diags.Error(), errText) {
			t.Errorf("-var %s: %v, want %q", arg, diags, errText)
		}
	}
}
