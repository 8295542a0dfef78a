package hcl_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/eval"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

// writeTree writes files (path -> content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestModuleCalls checks that Options.Modules is asked for the folder of
// every call, local or not, with Terraform's keys, and that the modules
// it returns are read, their local calls resolved within them.
func TestModuleCalls(t *testing.T) {
	dir, pkg := t.TempDir(), t.TempDir()
	writeTree(t, dir, map[string]string{
		"main.tf":     "module \"a\" {\n  source = \"./a\"\n}\nmodule \"x\" {\n  source  = \"corp/x/aws\"\n  version = \"~> 1.0\"\n}\noutput \"o\" {\n  value = module.x.o\n}\n",
		"a/main.tf":   "module \"b\" {\n  source = \"./b\"\n}\n",
		"a/b/main.tf": "output \"b\" {\n  value = 1\n}\n",
	})
	writeTree(t, pkg, map[string]string{
		"main.tf":       "module \"inner\" {\n  source = \"./inner\"\n}\noutput \"o\" {\n  value = module.inner.o\n}\n",
		"inner/main.tf": "output \"o\" {\n  value = \"inner\"\n}\n",
	})
	var calls []langhcl.ModuleCall
	prog, diags := langhcl.Load(dir, langhcl.Options{Project: "p", Modules: func(c langhcl.ModuleCall) (string, error) {
		calls = append(calls, c)
		if c.Source == "corp/x/aws" {
			return pkg, nil
		}
		return c.Dir, nil
	}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := []langhcl.ModuleCall{
		{Key: "a", Source: "./a", Dir: filepath.Join(dir, "a")},
		{Key: "a.b", Source: "./b", Dir: filepath.Join(dir, "a", "b")},
		{Key: "x", Source: "corp/x/aws", Version: "~> 1.0"},
		{Key: "x.inner", Source: "./inner", Dir: filepath.Join(pkg, "inner")},
	}
	if !slices.Equal(calls, want) {
		t.Fatalf("calls:\n%+v\nwant\n%+v", calls, want)
	}
	if len(prog.Files) != 5 {
		t.Fatalf("read %d files, want 5", len(prog.Files))
	}
}

func TestModuleCallErrors(t *testing.T) {
	install := func(c langhcl.ModuleCall) (string, error) {
		if c.Dir != "" {
			return c.Dir, nil
		}
		return "", errors.New("no such module")
	}
	for _, c := range []struct {
		name, src string
		modules   func(langhcl.ModuleCall) (string, error)
		want      string
	}{
		{"remote without Options.Modules", "source = \"corp/x/aws\"", nil,
			"main.tf:2,12-24: Module not installed; corp/x/aws is not a local path (./ or ../), and remote modules are installed only when Cairn previews or updates a stack."},
		{"installation fails", "source = \"corp/x/aws\"", install, "main.tf:2,12-24: Module not installed; module.m: no such module"},
		{"local with a version", "source = \"./m\"\n  version = \"1.0.0\"", install,
			"main.tf:3,3-20: Invalid module version; A local module has no version: remove version, or call the module from a registry."},
		{"source not constant", "source = var.x", install, "main.tf:2,12-15: Variables not allowed"},
		{"bad version constraints", "source = \"corp/x/aws\"\n  version = \"~> 1.x\"", install,
			`main.tf:3,13-21: Invalid module version; version constraints "~> 1.x": malformed constraint: ~> 1.x`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"main.tf": "module \"m\" {\n  " + c.src + "\n}\n", "m/main.tf": ""})
			_, diags := langhcl.Load(dir, langhcl.Options{Project: "p", Modules: c.modules})
			if !diags.HasErrors() || !strings.Contains(diags.Error(), c.want) {
				t.Fatalf("got %v, want %q", diags, c.want)
			}
		})
	}
}

// TestModuleTypes checks that a module's component is typed after the
// module, wherever it comes from.
func TestModuleTypes(t *testing.T) {
	dir := t.TempDir()
	calls := map[string]string{
		"local":    "./modules/vpc",
		"registry": "terraform-aws-modules/vpc/aws",
		"hosted":   "registry.example.com:8443/corp/vpc/aws",
		"subdir":   "hashicorp/consul/aws//modules/vpc",
		"git":      "git::https://example.com/vpc.git?ref=v1.2.0",
		"gitsub":   "git::https://example.com/network.git//vpc?ref=v1",
		"github":   "github.com/corp/vpc",
		"scp":      "git@github.com:corp/vpc.git",
		"archive":  "https://example.com/releases/vpc.tar.gz",
	}
	main := ""
	for name, src := range calls {
		main += "module \"" + name + "\" {\n  source = \"" + src + "\"\n}\n"
	}
	writeTree(t, dir, map[string]string{"main.tf": main, "modules/vpc/main.tf": ""})
	prog, diags := langhcl.Load(dir, langhcl.Options{Project: "p", Modules: func(c langhcl.ModuleCall) (string, error) {
		return filepath.Join(dir, "modules", "vpc"), nil
	}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, n := range prog.Root.Nodes {
		if m, ok := n.(*eval.Module); ok && m.Type != "hcl:module:vpc" {
			t.Errorf("module %s (%s) is of type %s", m.Name, calls[m.Name], m.Type)
		}
	}
}
