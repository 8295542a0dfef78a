package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/internal/lsp"
	"github.com/cairn-iac/cairn/internal/lsp/lsptest"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/random"
	"github.com/cairn-iac/cairn/plugins/tfinstall"
	"github.com/cairn-iac/cairn/plugins/tfplugin"
)

// TestMissingPlugin checks that a package whose schema is not at hand is
// said where the program first uses it, with the command that keeps its
// schema, and the rest of the program is still checked.
func TestMissingPlugin(t *testing.T) {
	text := strings.Replace(yamlProgram, "resources:\n", "resources:\n  b:\n    type: aws:s3:Bucket\n    properties:\n      anything: 1\n", 1) +
		"  bucket: ${b.id}\n"
	dir := project(t, map[string]string{"Pulumi.yaml": text})
	path := filepath.Join(dir, "Pulumi.yaml")
	c := lsptest.Start(t, options())
	c.Initialize(dir)
	c.Open(path, text)
	missing := warningOn(lsptest.Position(text, "aws:s3:Bucket", 0).Line, "No schema for package aws", "`cairn preview`", "cairn plugin install resource aws")
	c.Diagnostics(path, missing)
	misspelt := strings.Replace(text, "length: 8", "lenght: 8", 1)
	c.Change(path, 2, misspelt)
	ds := c.Diagnostics(path, errorOn(lsptest.Position(misspelt, "lenght", 0).Line, `Did you mean "length"?`))
	if !missing(ds) || len(ds) != 3 { // and the missing length
		t.Errorf("diagnostics of a program using a package without schema: %+v", ds)
	}
	var list lsp.CompletionList
	c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, "aws:s3:Bucket", len("aws:"))), &list)
	if list.IsIncomplete || len(list.Items) != 0 {
		t.Errorf("completing a type of a package without schema: %+v", list)
	}
	c.Shutdown()
	if msgs := c.Messages(); len(msgs) > 0 {
		t.Errorf("the server showed messages: %q", msgs)
	}
}

// TestYAMLAcrossFiles checks a program in Main.yaml and a *.cairn.yaml
// file: a reference in one is defined in the other, and each file gets its
// own diagnostics.
func TestYAMLAcrossFiles(t *testing.T) {
	main := "resources:\n  s:\n    type: random:RandomString\n    properties:\n      length: 8\n"
	extra := "outputs:\n  word: ${s.result}\n  other: ${t.result}\n"
	dir := project(t, map[string]string{"Pulumi.yaml": "name: x\nruntime: yaml\n", "Main.yaml": main, "more.cairn.yaml": extra})
	mainPath, extraPath := filepath.Join(dir, "Main.yaml"), filepath.Join(dir, "more.cairn.yaml")
	c := lsptest.Start(t, options())
	c.Initialize(dir)
	c.Open(extraPath, extra)
	c.Diagnostics(extraPath, errorOn(lsptest.Position(extra, "t.result", 0).Line, `Unknown name "t"`))

	var loc lsp.Location
	c.MustCall("textDocument/definition", lsptest.At(extraPath, lsptest.Position(extra, "s.result", 0)), &loc)
	if want := lsptest.Position(main, "  s:", 2); loc.URI != lsptest.URI(mainPath) || loc.Range.Start != want {
		t.Errorf("definition of s in more.cairn.yaml: %+v, want Main.yaml at %+v", loc, want)
	}
	// Declaring t in Main.yaml, unsaved, fixes more.cairn.yaml.
	c.Open(mainPath, main)
	c.Change(mainPath, 2, main+"  t:\n    type: random:RandomString\n    properties:\n      length: 4\n")
	c.Diagnostics(extraPath, none)
	c.Shutdown()
}

// TestHCLOnTheirOwn checks HCL files no program reads: a module folder no
// one calls is checked as a module of its own, and a *.tf file alone.
func TestHCLOnTheirOwn(t *testing.T) {
	module := "variable \"n\" {\n  type = number\n}\n\nresource \"random_string\" \"s\" {\n  lenght = var.n\n}\n"
	tf := "output \"o\" {\n  value = var.missing\n}\n"
	dir := project(t, map[string]string{
		"Pulumi.yaml": "name: x\nruntime: hcl\n", "main.hcl": "locals {\n  a = 1\n}\n",
		"modules/unused/main.hcl": module, "legacy/main.tf": tf,
	})
	modPath, tfPath := filepath.Join(dir, "modules", "unused", "main.hcl"), filepath.Join(dir, "legacy", "main.tf")
	c := lsptest.Start(t, options())
	c.Initialize(dir)
	c.Open(modPath, module)
	c.Open(tfPath, tf)
	c.Diagnostics(modPath, errorOn(lsptest.Position(module, "lenght", 0).Line, `Did you mean "length"?`))
	c.Diagnostics(tfPath, errorOn(lsptest.Position(tf, "var.missing", 0).Line, `"missing" has not been declared`))
	var edits []lsp.TextEdit
	c.MustCall("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": lsptest.URI(tfPath)},
		"options": map[string]any{"tabSize": 2, "insertSpaces": true}}, &edits)
	if len(edits) != 0 {
		t.Errorf("formatting a formatted *.tf file: %+v", edits)
	}
	c.Shutdown()
}

// TestOtherYAMLLeftAlone checks that YAML files that are no program (a
// stack's configuration, a CI workflow), which an editor may send too,
// get no diagnostics and no completion.
func TestOtherYAMLLeftAlone(t *testing.T) {
	dir := project(t, map[string]string{"Pulumi.yaml": yamlProgram})
	c := lsptest.Start(t, options())
	c.Initialize(dir)
	for _, name := range []string{"Pulumi.dev.yaml", ".github/workflows/ci.yaml"} {
		path := filepath.Join(dir, name)
		text := "on:\n  push:\nresources: 3\n"
		c.Open(path, text)
		var list lsp.CompletionList
		c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, "resources", 2)), &list)
		if len(list.Items) > 0 {
			t.Errorf("%s: completion offers %v", name, labels(list))
		}
	}
	path := filepath.Join(dir, "Pulumi.yaml")
	c.Open(path, yamlProgram)
	c.Diagnostics(path, none)
	if got := c.Published(); len(got) != 1 {
		t.Errorf("diagnostics were published for %v", got)
	}
	c.Shutdown()
}

// TestUnsavedProjectFile checks that a new Pulumi.yaml the editor has not
// saved yet is checked as the project file it is, not as no file, nor as
// part of the project on disk above it; one that cannot be read yet says
// why.
func TestUnsavedProjectFile(t *testing.T) {
	parent := project(t, map[string]string{"Pulumi.yaml": "name: parent\nruntime: hcl\n"})
	path := filepath.Join(parent, "new", "Pulumi.yaml")
	c := lsptest.Start(t, options())
	c.Initialize(parent)
	c.Open(path, "")
	c.Diagnostics(path, errorOn(0, "the project has no name"))
	text := "name: x\nruntime: yaml\nresources:\n  s:\n    type: random:RandomString\n    properties:\n      lenght: 8\n"
	// A syntax error in the program makes the file unreadable; once
	// fixed, it is checked.
	c.Change(path, 2, strings.Replace(text, "lenght: 8", "lenght: [8", 1))
	c.Diagnostics(path, func(ds []lsp.Diagnostic) bool { return len(ds) > 0 && ds[0].Severity == 1 })
	c.Change(path, 3, text)
	c.Diagnostics(path, errorOn(lsptest.Position(text, "lenght", 0).Line, `Did you mean "length"?`))
	c.Shutdown()
	if _, err := os.Stat(path); err == nil {
		t.Errorf("%s was written", path)
	}
}

// TestNoUnusedPackageWarning checks that a package the program does not
// use is never said to lack a schema: the built-in terraform-provider,
// which has none until a program declares a Terraform provider, was told
// of on a YAML program of random resources.
func TestNoUnusedPackageWarning(t *testing.T) {
	dir := project(t, map[string]string{"Pulumi.yaml": yamlProgram})
	path := filepath.Join(dir, "Pulumi.yaml")
	opts := options()
	opts.Schemas = host.NewCachedSchemas(host.CachedSchemasOptions{
		Builtins: provider.Factories{random.Factory(), tfplugin.Factory(tfplugin.Options{Install: tfinstall.Options{Offline: true}})}})
	c := lsptest.Start(t, opts)
	c.Initialize(dir)
	c.Open(path, yamlProgram)
	c.Diagnostics(path, none)
	c.Shutdown()
	if msgs := c.Messages(); len(msgs) > 0 {
		t.Errorf("the server showed messages on a program of random resources: %q", msgs)
	}
}
