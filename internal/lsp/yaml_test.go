package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/internal/lsp"
	"github.com/cairn-iac/cairn/internal/lsp/lsptest"
	"github.com/cairn-iac/cairn/plugins/builtin"
	"github.com/cairn-iac/cairn/plugins/command"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/random"
)

// options are those of a server with Cairn's built-in providers and no
// plugins.
func options() lsp.Options {
	return lsp.Options{Schemas: host.NewCachedSchemas(host.CachedSchemasOptions{
		Builtins: provider.Factories{builtin.Factory(builtin.Options{}), random.Factory(), command.Factory()}})}
}

// project writes the files of a project into a new folder and returns it.
func project(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const yamlProgram = `name: site
runtime: yaml
config:
  prefix:
    type: string
    default: demo
resources:
  s:
    type: random:RandomString
    properties:
      length: 8
      special: false
  pet:
    type: random:RandomPet
    properties:
      prefix: ${prefix}
outputs:
  word: ${s.result}
`

func none(ds []lsp.Diagnostic) bool { return len(ds) == 0 }

// errorOn returns a test of diagnostics: an error on line whose message
// holds text.
func errorOn(line int, text string) func([]lsp.Diagnostic) bool {
	return diagnosticOn(1, line, text)
}

// warningOn returns a test of diagnostics: a warning on line whose
// message holds every text.
func warningOn(line int, texts ...string) func([]lsp.Diagnostic) bool {
	return diagnosticOn(2, line, texts...)
}

func diagnosticOn(severity, line int, texts ...string) func([]lsp.Diagnostic) bool {
	return func(ds []lsp.Diagnostic) bool {
		for _, d := range ds {
			ok := d.Severity == severity && d.Range.Start.Line == line
			for _, text := range texts {
				ok = ok && strings.Contains(d.Message, text)
			}
			if ok {
				return true
			}
		}
		return false
	}
}

func TestYAMLDiagnosticsAndFix(t *testing.T) {
	dir := project(t, map[string]string{"Pulumi.yaml": yamlProgram})
	path := filepath.Join(dir, "Pulumi.yaml")
	c := lsptest.Start(t, options())
	c.Initialize(dir)
	c.Open(path, yamlProgram)
	c.Diagnostics(path, none)

	misspelt := strings.Replace(yamlProgram, "length: 8", "lenght: 8", 1)
	c.Change(path, 2, misspelt)
	line := lsptest.Position(misspelt, "lenght", 0).Line
	diags := c.Diagnostics(path, errorOn(line, `Did you mean "length"?`))

	var actions []lsp.CodeAction
	c.MustCall("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": lsptest.URI(path)},
		"range":        diags[0].Range,
		"context":      map[string]any{"diagnostics": diags},
	}, &actions)
	if len(actions) == 0 {
		t.Fatalf("no code action for %+v", diags)
	}
	edits := actions[0].Edit.Changes[lsptest.URI(path)]
	if actions[0].Title != "Change to length" || len(edits) != 1 || edits[0].NewText != "length" ||
		edits[0].Range.Start != lsptest.Position(misspelt, "lenght", 0) || edits[0].Range.End != lsptest.Position(misspelt, "lenght", 6) {
		t.Fatalf("the fix is %+v", actions[0])
	}
	c.Edit(path, 3, edits[0].Range, edits[0].NewText)
	c.Diagnostics(path, none)

	broken := strings.Replace(yamlProgram, "word: ${s.result}", "word: ${s.reslt}", 1)
	c.Change(path, 4, broken)
	c.Diagnostics(path, errorOn(lsptest.Position(broken, "reslt", 0).Line, `Did you mean "result"?`))
	c.Shutdown()
	if err := <-c.Exited; err != nil {
		t.Fatalf("Serve after shutdown and exit: %v", err)
	}
}

func TestYAMLCompletionHoverDefinition(t *testing.T) {
	text := strings.Replace(yamlProgram, "type: random:RandomPet", "type: random:index/randomStr", 1)
	dir := project(t, map[string]string{"Pulumi.yaml": yamlProgram})
	path := filepath.Join(dir, "Pulumi.yaml")
	c := lsptest.Start(t, options())
	c.Initialize(dir)
	c.Open(path, text)

	var list lsp.CompletionList
	c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, "randomStr", len("randomStr"))), &list)
	want := "random:index/randomString:RandomString"
	if it := item(list, want); it == nil || it.TextEdit == nil || it.TextEdit.NewText != want ||
		it.TextEdit.Range.Start != lsptest.Position(text, "random:index/randomStr", 0) {
		t.Fatalf("completing random:index/randomStr: %s is missing or wrong in %+v", want, labels(list))
	}

	c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, "length", 0)), &list)
	for _, want := range []string{"length", "overrideSpecial", "minUpper"} {
		if item(list, want) == nil {
			t.Errorf("completing a property of s: no %s in %v", want, labels(list))
		}
	}
	c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, "special: false", len("special: "))), &list)
	if item(list, "true") == nil {
		t.Errorf("completing the value of special: %v", labels(list))
	}
	c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, "${s.result}", len("${s."))), &list)
	for _, want := range []string{"result", "id", "urn", "length"} {
		if item(list, want) == nil {
			t.Errorf("completing ${s.: no %s in %v", want, labels(list))
		}
	}
	c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, "${prefix}", len("${"))), &list)
	for _, want := range []string{"prefix", "s", "pet", "pulumi", "upper"} {
		if item(list, want) == nil {
			t.Errorf("completing ${: no %s in %v", want, labels(list))
		}
	}

	var hover lsp.Hover
	c.MustCall("textDocument/hover", lsptest.At(path, lsptest.Position(text, "length", 2)), &hover)
	if !strings.Contains(hover.Contents.Value, "How many characters the result has") || !strings.Contains(hover.Contents.Value, "integer") {
		t.Errorf("hover on length: %q", hover.Contents.Value)
	}
	c.MustCall("textDocument/hover", lsptest.At(path, lsptest.Position(text, "${s.result}", len("${s.r"))), &hover)
	if !strings.Contains(hover.Contents.Value, "**result** `string`") {
		t.Errorf("hover on ${s.result}: %q", hover.Contents.Value)
	}

	var loc lsp.Location
	for _, at := range []int{len("${"), len("${s.re")} {
		c.MustCall("textDocument/definition", lsptest.At(path, lsptest.Position(text, "${s.result}", at)), &loc)
		key := lsptest.Position(text, "  s:", 2)
		if loc.URI != lsptest.URI(path) || loc.Range.Start != key || loc.Range.End.Character != key.Character+1 {
			t.Errorf("definition of ${s.result} at %d: %+v, want the key s: at %+v", at, loc, key)
		}
	}

	var symbols []lsp.DocumentSymbol
	c.MustCall("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": lsptest.URI(path)}}, &symbols)
	var names []string
	for _, s := range symbols {
		names = append(names, s.Name+" "+s.Detail)
	}
	if got := strings.Join(names, ", "); got != "prefix config, s random:RandomString, pet random:index/randomStr, word output" {
		t.Errorf("symbols: %s", got)
	}
	c.Shutdown()
}

func item(list lsp.CompletionList, label string) *lsp.CompletionItem {
	for i := range list.Items {
		if list.Items[i].Label == label {
			return &list.Items[i]
		}
	}
	return nil
}

func labels(list lsp.CompletionList) []string {
	var out []string
	for _, it := range list.Items {
		out = append(out, it.Label)
	}
	return out
}

// TestYAMLStructure checks the completion and hover of what the schema of
// Pulumi.yaml describes: sections, resource fields and options, builtins.
func TestYAMLStructure(t *testing.T) {
	text := yamlProgram + "  other: ${pet.id}\nvariables:\n  v:\n    fn::\n"
	text = strings.Replace(text, "      prefix: ${prefix}\n", "      prefix: ${prefix}\n    options:\n      prot\n", 1)
	text = strings.Replace(text, "      special: false\n", "      special: false\n    options:\n      protect: false\n", 1)
	dir := project(t, map[string]string{"Pulumi.yaml": yamlProgram})
	path := filepath.Join(dir, "Pulumi.yaml")
	c := lsptest.Start(t, options())
	c.Initialize(dir)
	c.Open(path, text)
	for _, tc := range []struct {
		mark  string
		at    int
		wants []string
	}{
		{"prot\n", len("prot"), []string{"protect", "dependsOn", "ignoreChanges", "forEach"}},
		{"    properties:\n      length", len("    prop"), []string{"properties", "options", "get", "type"}},
		{"outputs:", len("out"), []string{"outputs", "resources", "variables", "config", "name", "runtime"}},
		{"fn::\n", len("fn::"), []string{"fn::join", "fn::invoke", "fn::toJSON"}},
		{"runtime: yaml", len("runtime: "), []string{"yaml", "hcl"}},
	} {
		var list lsp.CompletionList
		c.MustCall("textDocument/completion", lsptest.At(path, lsptest.Position(text, tc.mark, tc.at)), &list)
		for _, want := range tc.wants {
			if item(list, want) == nil {
				t.Errorf("completing at %q: no %s in %v", tc.mark, want, labels(list))
			}
		}
	}
	for _, tc := range []struct{ mark, want string }{
		{"random:RandomString", "`random:index/randomString:RandomString`\n\nA random string"},
		{"protect:", "**protect**\n\nRefuse to delete the resource."},
		{"resources:", "The program's resources, by name"},
		{"  pet:", "resource \"pet\": `random:index/randomPet:RandomPet`"},
	} {
		var hover lsp.Hover
		c.MustCall("textDocument/hover", lsptest.At(path, lsptest.Position(text, tc.mark, 3)), &hover)
		if !strings.Contains(hover.Contents.Value, tc.want) {
			t.Errorf("hover on %q: %q, want %q in it", tc.mark, hover.Contents.Value, tc.want)
		}
	}
	c.Shutdown()
}

// TestYAMLInvoke checks the completion of fn::invoke: its fields, the
// tokens of functions and their arguments.
func TestYAMLInvoke(t *testing.T) {
	text := yamlProgram + "variables:\n  outs:\n    fn::invoke:\n      function: pulumi:pulumi:readStackOutputs\n      arguments:\n        na\n      \n"
	dir := project(t, map[string]string{"Pulumi.yaml": yamlProgram})
	path := filepath.Join(dir, "Pulumi.yaml")
	c := lsptest.Start(t, options())
	c.Initialize(dir)
	c.Open(path, text)
	for _, tc := range []struct {
		mark  string
		at    int
		wants []string
	}{
		{"function: pulumi:pulumi:read", len("function: pulumi:pulumi:read"), []string{"pulumi:pulumi:readStackOutputs"}},
		{"        na\n", len("        na"), []string{"name"}},
		{"        na\n      \n", len("        na\n      "), []string{"function", "arguments", "return"}},
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
