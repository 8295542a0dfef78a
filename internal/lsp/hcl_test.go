package lsp_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/lsp"
	"github.com/cairn-iac/cairn/internal/lsp/lsptest"
)

const hclMain = `variable "prefix" {
  type    = string
  default = "demo"
}

resource "random_string" "s" {
  length  = 8
  special = false
}

module "web" {
  source = "./modules/web"
  name   = random_string.s.result
}

output "word" {
  value = random_string.s.result
}

output "site" {
  value = module.web.url
}
`

const hclModule = `variable "name" {
  type = string
}

resource "random_pet" "p" {
  prefix = var.name
}

output "url" {
  value = "https://${random_pet.p.id}"
}
`

func hclProject(t *testing.T) (dir, main, module string) {
	dir = project(t, map[string]string{
		"Pulumi.yaml":           "name: site\nruntime: hcl\n",
		"main.hcl":              hclMain,
		"modules/web/main.hcl":  hclModule,
		"modules/web/README.md": "A module.\n",
	})
	return dir, filepath.Join(dir, "main.hcl"), filepath.Join(dir, "modules", "web", "main.hcl")
}

func TestHCLDiagnosticsAndFix(t *testing.T) {
	dir, path, modPath := hclProject(t)
	c := lsptest.Start(t, options())
	c.Initialize(dir)
	c.Open(path, hclMain)
	c.Diagnostics(path, none)

	misspelt := strings.Replace(hclMain, "length  = 8", "lenght  = 8", 1)
	c.Change(path, 2, misspelt)
	diags := c.Diagnostics(path, errorOn(lsptest.Position(misspelt, "lenght", 0).Line, `Did you mean "length"?`))
	var actions []lsp.CodeAction
	c.MustCall("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": lsptest.URI(path)},
		"range":        diags[0].Range,
		"context":      map[string]any{"diagnostics": diags},
	}, &actions)
	if len(actions) == 0 || actions[0].Edit.Changes[lsptest.URI(path)][0].NewText != "length" {
		t.Fatalf("code actions for %+v: %+v", diags, actions)
	}
	edit := actions[0].Edit.Changes[lsptest.URI(path)][0]
	c.Edit(path, 3, edit.Range, edit.NewText)
	c.Diagnostics(path, none)

	// A module's file is checked as part of the program that calls it:
	// its variable has the value the call gives.
	brokenModule := strings.Replace(hclModule, "var.name", "var.nam", 1)
	c.Open(modPath, brokenModule)
	c.Diagnostics(modPath, errorOn(lsptest.Position(brokenModule, "var.nam", 0).Line, `Did you mean "name"?`))
	c.Change(modPath, 2, hclModule)
	c.Diagnostics(modPath, none)
	c.Shutdown()
}

func TestHCLCompletionHoverDefinition(t *testing.T) {
	dir, path, modPath := hclProject(t)
	text := hclMain + "\nresource \"random_str\" \"t\" {}\n\nresource \"random_string\" \"u\" {\n  \n}\n"
	c := lsptest.Start(t, options())
	c.Initialize(dir)
	c.Open(path, text)

	var list lsp.CompletionList
	c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, `"random_str"`, len(`"random_str`))), &list)
	if it := item(list, "random_string"); it == nil || it.Detail != "random:index/randomString:RandomString" {
		t.Errorf("completing the type random_str: %v", labels(list))
	}
	c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, "\"u\" {\n  ", len("\"u\" {\n  "))), &list)
	for _, want := range []string{"length", "override_special", "min_upper", "count", "lifecycle"} {
		if item(list, want) == nil {
			t.Errorf("completing an argument: no %s in %v", want, labels(list))
		}
	}
	c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, "random_string.s.result", len("random_string.s."))), &list)
	for _, want := range []string{"result", "override_special", "id"} {
		if item(list, want) == nil {
			t.Errorf("completing random_string.s.: no %s in %v", want, labels(list))
		}
	}
	c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, "module.web.url", len("module.web."))), &list)
	if item(list, "url") == nil {
		t.Errorf("completing module.web.: %v", labels(list))
	}
	c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, "value = random_string", len("value = "))), &list)
	for _, want := range []string{"var", "random_string", "module", "upper"} {
		if item(list, want) == nil {
			t.Errorf("completing a value: no %s in %v", want, labels(list))
		}
	}

	var hover lsp.Hover
	c.MustCall("textDocument/hover", lsptest.At(path, lsptest.Position(text, "length", 1)), &hover)
	if !strings.Contains(hover.Contents.Value, "How many characters the result has") {
		t.Errorf("hover on length: %q", hover.Contents.Value)
	}
	c.MustCall("textDocument/hover", lsptest.At(path, lsptest.Position(text, `"random_string"`, 3)), &hover)
	if !strings.Contains(hover.Contents.Value, "random:index/randomString:RandomString") {
		t.Errorf("hover on the type: %q", hover.Contents.Value)
	}

	var loc lsp.Location
	c.MustCall("textDocument/definition", lsptest.At(path, lsptest.Position(text, "value = random_string.s.result", len("value = random_string.s.re"))), &loc)
	if want := lsptest.Position(text, `"s"`, 0); loc.URI != lsptest.URI(path) || loc.Range.Start != want {
		t.Errorf("definition of random_string.s.result: %+v, want %+v", loc, want)
	}
	c.MustCall("textDocument/definition", lsptest.At(path, lsptest.Position(text, "module.web.url", len("module.web.u"))), &loc)
	if want := lsptest.Position(hclModule, `"url"`, 0); loc.URI != lsptest.URI(modPath) || loc.Range.Start != want {
		t.Errorf("definition of module.web.url: %+v, want %s at %+v", loc, modPath, want)
	}
	c.MustCall("textDocument/definition", lsptest.At(path, lsptest.Position(text, "./modules/web", 3)), &loc)
	if loc.URI != lsptest.URI(modPath) {
		t.Errorf("definition of the module's source: %+v", loc)
	}

	var symbols []lsp.DocumentSymbol
	c.MustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": lsptest.URI(path)}}, &symbols)
	var names []string
	for _, s := range symbols {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, ", "); !strings.Contains(got, "var.prefix, random_string.s, module.web, word, site") {
		t.Errorf("symbols: %s", got)
	}
	c.Shutdown()
}

// TestHCLKeywords completes the blocks lang/hcl decodes: the terraform
// block and its settings, and the arguments of a precondition in a
// lifecycle block.
func TestHCLKeywords(t *testing.T) {
	dir, path, _ := hclProject(t)
	text := hclMain + "\nterraform {\n  \n}\n\nresource \"random_string\" \"c\" {\n  lifecycle {\n    precondition {\n      \n    }\n  }\n}\n"
	c := lsptest.Start(t, options())
	c.Initialize(dir)
	c.Open(path, text)
	var list lsp.CompletionList
	c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, "", len(text))), &list)
	if item(list, "terraform") == nil || item(list, "check") == nil {
		t.Errorf("completing a block: %v", labels(list))
	}
	c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, "terraform {\n  ", len("terraform {\n  "))), &list)
	for _, want := range []string{"required_version", "required_providers", "backend"} {
		if item(list, want) == nil {
			t.Errorf("completing in terraform: no %s in %v", want, labels(list))
		}
	}
	c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, "precondition {\n      ", len("precondition {\n      "))), &list)
	for _, want := range []string{"condition", "error_message"} {
		if item(list, want) == nil {
			t.Errorf("completing in precondition: no %s in %v", want, labels(list))
		}
	}
}

func TestHCLFormatting(t *testing.T) {
	dir, path, _ := hclProject(t)
	messy := strings.Replace(hclMain, "  length  = 8\n  special = false", "  length = 8\n      special    = false", 1)
	c := lsptest.Start(t, options())
	c.Initialize(dir)
	c.Open(path, messy)
	var edits []lsp.TextEdit
	c.MustCall("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": lsptest.URI(path)},
		"options": map[string]any{"tabSize": 2, "insertSpaces": true}}, &edits)
	if len(edits) != 1 || edits[0].NewText != hclMain {
		t.Fatalf("formatting gave %+v, want the whole text as\n%s", edits, hclMain)
	}
	c.Change(path, 2, hclMain)
	c.MustCall("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": lsptest.URI(path)},
		"options": map[string]any{"tabSize": 2, "insertSpaces": true}}, &edits)
	if len(edits) != 0 {
		t.Fatalf("formatting a formatted file gave %+v", edits)
	}
	c.Shutdown()
}

// TestHCLNames checks the completion of the names an HCL expression may
// use: variables, locals, modules, data sources, path, and values.
func TestHCLNames(t *testing.T) {
	dir, path, _ := hclProject(t)
	text := strings.Replace(hclMain, "  special = false\n", "  special = false\n  upper   = var.p\n  lower   = \n", 1)
	c := lsptest.Start(t, options())
	c.Initialize(dir)
	c.Open(path, text)
	for _, tc := range []struct {
		mark  string
		at    int
		wants []string
	}{
		{"var.p", len("var.p"), []string{"prefix"}},
		{"lower   = \n", len("lower   = "), []string{"true", "false", "var", "path", "module", "random_string", "tolist"}},
		{"resource \"random_string\"", 0, []string{"resource", "data", "variable", "module", "output"}},
	} {
		var list lsp.CompletionList
		c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, tc.mark, tc.at)), &list)
		for _, want := range tc.wants {
			if item(list, want) == nil {
				t.Errorf("completing at %q: no %s in %v", tc.mark, want, labels(list))
			}
		}
	}
	c.Shutdown()
}
