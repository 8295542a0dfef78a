package hcl_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/eval"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

// tfSchemas serves the schema of a package as terraform-provider gives
// it for a Terraform provider: Terraform's names and nesting recorded
// under language.terraform.
type tfSchemas struct{}

func (tfSchemas) Schema(_ context.Context, pkg, _ string) (*schema.Package, error) {
	tf := func(t schema.Terraform) map[string]any { return t.Language() }
	str := schema.TypeSpec{Type: "string"}
	ruleRef := schema.TypeSpec{Ref: "#/types/tfx:index/ThingRule:ThingRule"}
	settingRef := schema.TypeSpec{Ref: "#/types/tfx:index/ThingSetting:ThingSetting"}
	metaRef := schema.TypeSpec{Ref: "#/types/tfx:index/ThingMeta:ThingMeta"}
	inputs := map[string]*schema.Property{
		"name":    {TypeSpec: str},
		"meta":    {TypeSpec: metaRef},
		"tags":    {TypeSpec: schema.TypeSpec{Type: "object", AdditionalProperties: &str}},
		"rule":    {TypeSpec: schema.TypeSpec{Type: "array", Items: &ruleRef}, Language: tf(schema.Terraform{Nesting: "list", MinItems: 1, MaxItems: 2})},
		"setting": {TypeSpec: schema.TypeSpec{Type: "object", AdditionalProperties: &settingRef}, Language: tf(schema.Terraform{Nesting: "map"})},
	}
	obj := func(props ...string) *schema.ObjectTyp {
		o := &schema.ObjectTyp{Type: "object", Properties: map[string]*schema.Property{}}
		for _, p := range props {
			o.Properties[p] = &schema.Property{TypeSpec: str}
		}
		return o
	}
	return &schema.Package{Name: pkg, Language: tf(schema.Terraform{Source: "acme/tfx"}),
		Resources: map[string]*schema.Resource{"tfx:index/thing:Thing": {InputProperties: inputs, Properties: inputs, RequiredInputs: []string{"name", "rule"},
			Language: tf(schema.Terraform{Resource: "tfx_thing"})}},
		Functions: map[string]*schema.Function{"tfx:functions:shout": {Language: tf(schema.Terraform{Function: "shout"})}},
		Types: map[string]*schema.ObjectTyp{"tfx:index/ThingRule:ThingRule": obj("port"), "tfx:index/ThingSetting:ThingSetting": obj("value"),
			"tfx:index/ThingMeta:ThingMeta": obj("owner")},
	}, nil
}

func loadTF(t *testing.T, src string) (*eval.Program, string, map[string]workspace.PackageSpec) {
	t.Helper()
	declared := map[string]workspace.PackageSpec{}
	prog, diags := langhcl.Parse("main.hcl", []byte(src), langhcl.Options{Schemas: tfSchemas{}, Project: "p", TerraformProviders: "terraform-provider",
		DeclarePackage: func(name string, spec workspace.PackageSpec) { declared[name] = spec }})
	if !diags.HasErrors() {
		return prog, "", declared
	}
	return prog, diags.Error(), declared
}

const tfRequirement = `
terraform {
  required_providers {
    tfx = { source = "acme/tfx", version = "~> 1.0" }
  }
}
`

// TestTerraformBlocks decodes a resource of a Terraform provider with its
// own schema: nested blocks where it declares them (a map nesting by key
// label), attributes of object type as arguments only.
func TestTerraformBlocks(t *testing.T) {
	prog, errs, declared := loadTF(t, tfRequirement+`
resource "tfx_thing" "a" {
  name = "a"
  meta = { owner = "me" }
  rule { port = "80" }
  rule { port = "443" }
  setting "x" { value = "1" }
  setting "y" { value = "2" }
}
`)
	if errs != "" {
		t.Fatal(errs)
	}
	if spec := declared["tfx"]; spec.Source != "terraform-provider" || strings.Join(spec.Parameters, " ") != "acme/tfx ~> 1.0" {
		t.Fatalf("declared %+v", declared)
	}
	if got := prog.ProviderFunctions["provider::tfx::shout"]; got != "tfx:functions:shout" {
		t.Errorf("provider functions = %v", prog.ProviderFunctions)
	}
	var r *eval.Resource
	for _, n := range prog.Root.Nodes {
		if res, ok := n.(*eval.Resource); ok && res.Name == "a" {
			r = res
		}
	}
	if r == nil || r.Type != "tfx:index/thing:Thing" {
		t.Fatalf("resource = %+v", r)
	}
	v, diags := r.Properties.Value(&hcl.EvalContext{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	settings := v.GetAttr("setting")
	if !settings.Type().IsObjectType() || settings.GetAttr("y").GetAttr("value") != cty.StringVal("2") {
		t.Errorf("setting = %#v", settings)
	}
	if n := v.GetAttr("rule").LengthInt(); n != 2 {
		t.Errorf("%d rules", n)
	}
}

// TestTerraformIgnoreKeys reads ignore_changes paths ending in a key as
// OpenTofu reads them: the key of a map, the whole of an object.
func TestTerraformIgnoreKeys(t *testing.T) {
	prog, errs, _ := loadTF(t, tfRequirement+`
resource "tfx_thing" "a" {
  name = "a"
  meta = { owner = "me" }
  tags = { team = "web" }
  rule { port = "80" }

  lifecycle {
    ignore_changes = [tags["team"], meta["owner"], name]
  }
}
`)
	if errs != "" {
		t.Fatal(errs)
	}
	r := prog.Root.Nodes[len(prog.Root.Nodes)-1].(*eval.Resource)
	v, diags := r.Options.IgnoreChanges.Value(&hcl.EvalContext{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var got []string
	for _, el := range v.AsValueSlice() {
		got = append(got, el.AsString())
	}
	if len(got) != 3 || !strings.HasPrefix(got[0], "tags") || got[0] == "tags" || got[1] != "meta" || got[2] != "name" {
		t.Errorf("ignore_changes = %q, want the key of tags, all of meta, and name", got)
	}
}

// TestTerraformBlockErrors reports, before anything runs, what the
// provider's schema does not allow.
func TestTerraformBlockErrors(t *testing.T) {
	for name, tc := range map[string]struct{ body, want string }{
		"too many":        {`rule { port = "1" }` + "\n" + `rule { port = "2" }` + "\n" + `rule { port = "3" }`, `No more than 2 "rule" block is allowed`},
		"too few":         {``, `At least 1 "rule" blocks are required`},
		"block argument":  {`rule = [{ port = "1" }]`, `Unsupported argument`},
		"attribute block": {`rule { port = "1" }` + "\n" + `meta { owner = "me" }`, `Unsupported block type`},
		"map needs a key": {`rule { port = "1" }` + "\n" + `setting { value = "1" }`, `Missing key for setting`},
	} {
		t.Run(name, func(t *testing.T) {
			_, errs, _ := loadTF(t, tfRequirement+"resource \"tfx_thing\" \"a\" {\n  name = \"a\"\n"+tc.body+"\n}\n")
			if !strings.Contains(errs, tc.want) {
				t.Errorf("errors %q do not say %q", errs, tc.want)
			}
		})
	}
}

// TestTerraformRequirementErrors reads required_providers sources and
// version constraints as OpenTofu does, with errors at the requirement.
func TestTerraformRequirementErrors(t *testing.T) {
	for _, tc := range []struct{ req, want string }{
		{`{ source = "acme/tf_x" }`, `main.hcl:3,11-35: Invalid provider requirement; provider source "acme/tf_x": Invalid provider type`},
		{`{ source = "acme/terraform-provider-tfx" }`, `Did you mean "acme/tfx"?`},
		{`{ source = "xn--caf-dma.fr/acme/tfx" }`, `specified in punycode format`},
		{`{ source = "acme/tfx", version = "~> v1.0" }`, `main.hcl:3,11-55: Invalid provider requirement; version constraints "~> v1.0": invalid specification "~> v1.0": a "v" prefix should not be used`},
		{`{ source = "acme/tfx", version = ">= 1.0 < 2.0" }`, `missing comma after ">= 1.0"`},
	} {
		_, errs, _ := loadTF(t, "terraform {\n  required_providers {\n    tfx = "+tc.req+"\n  }\n}\n")
		if !strings.Contains(errs, tc.want) {
			t.Errorf("%s: errors %q do not say %q", tc.req, errs, tc.want)
		}
	}
}

// TestLockFileIsNotProgram loads a project beside its .terraform.lock.hcl,
// whose provider blocks are not the program's: hidden files are left out.
func TestLockFileIsNotProgram(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("main.hcl", tfRequirement)
	write(".terraform.lock.hcl", "provider \"registry.opentofu.org/acme/tfx\" {\n  version = \"1.0.0\"\n}\n")
	prog, diags := langhcl.Load(dir, langhcl.Options{Schemas: tfSchemas{}, Project: "p", TerraformProviders: "terraform-provider",
		DeclarePackage: func(string, workspace.PackageSpec) {}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for name := range prog.Files {
		if name != "main.hcl" {
			t.Errorf("loaded %s", name)
		}
	}
}

// failingSchemas serves no schema: the provider could not be installed.
type failingSchemas struct{}

func (failingSchemas) Schema(context.Context, string, string) (*schema.Package, error) {
	return nil, errors.New("no package of acme/tfx was found; looked in: registry.opentofu.org")
}

// TestTerraformProviderUnavailable reports why a Terraform provider's
// schema is missing once, on the first resource of its package, without
// suggesting full type tokens.
func TestTerraformProviderUnavailable(t *testing.T) {
	_, diags := langhcl.Parse("main.hcl", []byte(tfRequirement+`
resource "tfx_thing" "a" {
  name = "a"
}

resource "tfx_thing" "b" {
  name = "b"
}
`), langhcl.Options{Schemas: failingSchemas{}, Project: "p", TerraformProviders: "terraform-provider", DeclarePackage: func(string, workspace.PackageSpec) {}})
	if len(diags) != 2 {
		t.Fatalf("got %d diagnostics: %v", len(diags), diags)
	}
	if d := diags[0].Detail; !strings.Contains(d, "The Terraform provider registry.opentofu.org/acme/tfx, of tfx_thing, is not available: no package of acme/tfx was found; looked in: registry.opentofu.org.") || strings.Contains(d, "full type token") {
		t.Errorf("first: %s", d)
	}
	if d := diags[1].Detail; d != "The schema of package tfx is not available: see the first error about it." {
		t.Errorf("second: %s", d)
	}
}
