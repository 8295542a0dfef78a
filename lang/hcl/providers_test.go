package hcl_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/eval"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

// anySchemas serves, for any package, a schema of a Terraform provider
// with the resource <pkg>_thing and the data source <pkg>_info, and the
// function shout for the package fn.
type anySchemas struct{}

func (anySchemas) Schema(_ context.Context, pkg, _ string) (*schema.Package, error) {
	tf := func(t schema.Terraform) map[string]any { return t.Language() }
	props := map[string]*schema.Property{"name": {TypeSpec: schema.TypeSpec{Type: "string"}}}
	p := &schema.Package{Name: pkg,
		Provider: &schema.Resource{InputProperties: props},
		Resources: map[string]*schema.Resource{pkg + ":index/thing:Thing": {InputProperties: props, Properties: props,
			Language: tf(schema.Terraform{Resource: pkg + "_thing"})}},
		Functions: map[string]*schema.Function{pkg + ":index/getInfo:getInfo": {Language: tf(schema.Terraform{DataSource: pkg + "_info"})}}}
	if pkg == "fn" {
		p.Functions["fn:functions:shout"] = &schema.Function{Language: tf(schema.Terraform{Function: "shout"})}
	}
	return p, nil
}

// loadTFDir writes files (by path) into a folder and loads it as a
// Terraform configuration; it returns the program, its errors and the
// packages it declared.
func loadTFDir(t *testing.T, files map[string]string) (*eval.Program, string, map[string]workspace.PackageSpec) {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, files)
	declared := map[string]workspace.PackageSpec{}
	prog, diags := langhcl.Load(dir, langhcl.Options{Schemas: anySchemas{}, Project: "p", TerraformProviders: "terraform-provider",
		DeclarePackage: func(name string, spec workspace.PackageSpec) { declared[name] = spec }})
	errs := ""
	if diags.HasErrors() {
		errs = diags.Error()
	}
	return prog, errs, declared
}

// req is a terraform block whose required_providers holds entries.
func req(entries string) string {
	return "terraform {\n  required_providers {\n    " + entries + "\n  }\n}\n"
}

// TestImpliedProviders checks which provider serves each block of a
// Terraform configuration: the required_providers entry of its local
// name, else hashicorp/<local name> as Terraform implies it, in the root
// and in modules, and the built-in provider for terraform.
func TestImpliedProviders(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  map[string][]string // package → parameters of terraform-provider
		err   string
	}{{
		name:  "resource type prefix",
		files: map[string]string{"main.tf": `resource "null_thing" "a" {}`},
		want:  map[string][]string{"null": {"hashicorp/null"}},
	}, {
		name:  "data sources",
		files: map[string]string{"main.tf": "data \"http_info\" \"a\" {}\ndata \"vault_info\" \"b\" {}\n"},
		want:  map[string][]string{"http": {"hashicorp/http"}, "vault": {"hashicorp/vault"}},
	}, {
		name:  "provider block alone",
		files: map[string]string{"main.tf": `provider "aws" { name = "x" }`},
		want:  map[string][]string{"aws": {"hashicorp/aws"}},
	}, {
		name:  "declared with a version only",
		files: map[string]string{"main.tf": req(`null = "~> 3.2"`) + `resource "null_thing" "a" {}`},
		want:  map[string][]string{"null": {"hashicorp/null", "~> 3.2"}},
	}, {
		name:  "declared source wins over the implied one",
		files: map[string]string{"main.tf": req(`widget = { source = "acme/widget" }`) + `resource "widget_thing" "a" {}`},
		want:  map[string][]string{"widget": {"acme/widget"}},
	}, {
		name: "local name differs from the type",
		files: map[string]string{"main.tf": req(`foo = { source = "cairn/cairnfw" }`) + `provider "foo" { name = "x" }
resource "cairnfw_thing" "a" { provider = foo }
data "cairnfw_info" "b" { provider = foo }`},
		want: map[string][]string{"cairnfw": {"cairn/cairnfw"}},
	}, {
		name: "local name of a provider instance",
		files: map[string]string{"main.tf": req(`foo = { source = "cairn/cairnfw" }`) + `provider "foo" {
  alias    = "by_key"
  for_each = toset(["a"])
  name     = each.key
}
resource "cairnfw_thing" "a" {
  for_each = toset(["a"])
  provider = foo.by_key[each.key]
}`},
		want: map[string][]string{"cairnfw": {"cairn/cairnfw"}},
	}, {
		name: "prefix of a renamed provider's type is implied apart",
		files: map[string]string{"main.tf": req(`foo = { source = "cairn/cairnfw" }`) + `resource "cairnfw_thing" "a" { provider = foo }
resource "cairnfw_thing" "b" {}`},
		err: "Two providers of one type",
	}, {
		name:  "terraform is built in",
		files: map[string]string{"main.tf": "resource \"terraform_thing\" \"a\" {}\n"},
		want:  map[string][]string{},
	}, {
		name:  "terraform.io/builtin/terraform as a source",
		files: map[string]string{"main.tf": req(`terraform = { source = "terraform.io/builtin/terraform" }`) + `resource "terraform_thing" "a" {}`},
		want:  map[string][]string{},
	}, {
		name:  "another built-in",
		files: map[string]string{"main.tf": req(`foo = { source = "terraform.io/builtin/foo" }`)},
		err:   "Unknown built-in provider",
	}, {
		name: "module inherits the implied provider",
		files: map[string]string{
			"main.tf":   "provider \"null\" { name = \"x\" }\nmodule \"m\" { source = \"./m\" }\n",
			"m/main.tf": `resource "null_thing" "a" {}`,
		},
		want: map[string][]string{"null": {"hashicorp/null"}},
	}, {
		name: "constraints of every module",
		files: map[string]string{
			"main.tf":   req(`null = { source = "hashicorp/null", version = "~> 3.0" }`) + "module \"m\" { source = \"./m\" }\n",
			"m/main.tf": req(`null = { version = ">= 3.1" }`) + "resource \"null_thing\" \"a\" {}\n",
		},
		want: map[string][]string{"null": {"hashicorp/null", "~> 3.0, >= 3.1"}},
	}, {
		name: "module requires another provider of the type",
		files: map[string]string{
			"main.tf":   "resource \"null_thing\" \"a\" {}\nmodule \"m\" { source = \"./m\" }\n",
			"m/main.tf": req(`null = { source = "acme/null" }`),
		},
		err: "registry.opentofu.org/acme/null, null in module.m",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs, declared := loadTFDir(t, tt.files)
			if tt.err != "" {
				if !strings.Contains(errs, tt.err) {
					t.Fatalf("errors: %s\nwant one with %q", errs, tt.err)
				}
				return
			}
			if errs != "" {
				t.Fatal(errs)
			}
			got := map[string][]string{}
			for name, spec := range declared {
				if spec.Source != "terraform-provider" {
					t.Errorf("package %s is served by %s", name, spec.Source)
				}
				got[name] = spec.Parameters
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("declared %v, want %v", got, tt.want)
			}
		})
	}
}

// TestProviderAddress checks the fully qualified addresses of sources.
func TestProviderAddress(t *testing.T) {
	tests := map[string]string{
		"hashicorp/null":                       "registry.opentofu.org/hashicorp/null",
		"HashiCorp/Null":                       "registry.opentofu.org/hashicorp/null",
		"registry.terraform.io/hashicorp/null": "registry.terraform.io/hashicorp/null",
		"terraform.io/builtin/terraform":       langhcl.BuiltinTerraform,
		"null":                                 "registry.opentofu.org/hashicorp/null", // as OpenTofu reads a lone type
		"acme/tf_x":                            "",
		"a/b/c/d":                              "",
		"a//b":                                 "",
	}
	for src, want := range tests {
		if got := langhcl.ProviderAddress(src); got != want {
			t.Errorf("ProviderAddress(%q) = %q, want %q", src, got, want)
		}
	}
	for local, want := range map[string]string{"null": "hashicorp/null", "aws": "hashicorp/aws", "terraform": langhcl.BuiltinTerraform} {
		if got := langhcl.ImpliedProvider(local); got != want {
			t.Errorf("ImpliedProvider(%q) = %q, want %q", local, got, want)
		}
	}
}

// TestConfigurationAliases passes a configuration under an alias to a
// module, which declares it in configuration_aliases; the root module
// cannot declare one.
func TestConfigurationAliases(t *testing.T) {
	prog, errs, _ := loadTFDir(t, map[string]string{
		"main.tf": "provider \"aws\" {\n  alias = \"west\"\n  name = \"w\"\n}\nmodule \"m\" {\n  source    = \"./m\"\n  providers = { aws.east = aws.west }\n}\n",
		"m/main.tf": req(`aws = { source = "hashicorp/aws", configuration_aliases = [aws.east] }`) +
			"resource \"aws_thing\" \"a\" {\n  provider = aws.east\n}\n",
	})
	if errs != "" {
		t.Fatal(errs)
	}
	var call *eval.Module
	for _, n := range prog.Root.Nodes {
		if m, ok := n.(*eval.Module); ok {
			call = m
		}
	}
	if call.Options.Providers != nil {
		t.Errorf("the module's default providers: %v", call.Options.Providers.Variables())
	}
	var vars []string
	for _, v := range call.Inputs.Variables() {
		vars = append(vars, v.RootName())
	}
	for _, n := range prog.Root.Nodes {
		if l, ok := n.(*eval.Local); ok && l.Name == "provider aws.east of module.m" {
			for _, v := range l.Value.Variables() {
				vars = append(vars, v.RootName()+"."+v[1].(hcl.TraverseAttr).Name)
			}
		}
	}
	if !reflect.DeepEqual(vars, []string{"local", "aws.west"}) {
		t.Errorf("the module's inputs refer to %v, want a local value of aws.west", vars)
	}
	_, errs, _ = loadTFDir(t, map[string]string{"main.tf": req(`aws = { source = "hashicorp/aws", configuration_aliases = [aws.east] }`)})
	if !strings.Contains(errs, "main.tf:3,64-72: Configuration alias in the root module") {
		t.Errorf("errors: %s", errs)
	}
}

// TestUnusedProviders leaves out the provider blocks whose provider no
// block uses, as Terraform does, in the root and in what module calls
// pass: their configurations are neither configured nor validated, by
// the provider or against its schema.
func TestUnusedProviders(t *testing.T) {
	prog, errs, _ := loadTFDir(t, map[string]string{
		"main.tf":   "provider \"aws\" { bogus = \"x\" }\nprovider \"null\" { name = \"y\" }\nprovider \"fn\" { name = \"z\" }\nmodule \"m\" { source = \"./m\" }\n",
		"m/main.tf": `resource "null_thing" "a" {}`,
	})
	if errs != "" {
		t.Fatal(errs)
	}
	var providers []string
	var passed []string
	for _, n := range prog.Root.Nodes {
		switch n := n.(type) {
		case *eval.Resource:
			providers = append(providers, n.Type)
		case *eval.Module:
			for _, v := range n.Options.Providers.Variables() {
				passed = append(passed, v.RootName())
			}
		}
	}
	if !reflect.DeepEqual(providers, []string{"pulumi:providers:null", "pulumi:providers:fn"}) || !reflect.DeepEqual(passed, []string{"fn", "null"}) {
		t.Errorf("providers %v, passed to the module %v; want null's and fn's (which has functions)", providers, passed)
	}
	_, errs, _ = loadTFDir(t, map[string]string{"main.tf": "provider \"null\" { bogus = \"x\" }\nresource \"null_thing\" \"a\" {}\n"})
	if !strings.Contains(errs, `main.tf:1,19-24: Unsupported argument`) {
		t.Errorf("errors of a used provider: %s", errs)
	}
}
