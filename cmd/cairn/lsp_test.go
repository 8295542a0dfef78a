package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/lsp"
	"github.com/cairn-iac/cairn/internal/lsp/lsptest"
)

// TestLSPBinary runs `cairn lsp` as an editor does, over pipes: a YAML and
// an HCL program get their errors, completion, hover and definitions, and
// the server exits cleanly after shutdown and exit, having written
// nothing to CAIRN_HOME.
func TestLSPBinary(t *testing.T) {
	bin, err := exec.LookPath("cairn") // put on PATH by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	dir, home := t.TempDir(), t.TempDir()
	yamlDir, hclDir := filepath.Join(dir, "y"), filepath.Join(dir, "h")
	program := "name: y\nruntime: yaml\nresources:\n  s:\n    type: random:RandomString\n    properties:\n      lenght: 8\n" +
		"  t:\n    type: random:index/randomStr\noutputs:\n  word: ${s.result}\n"
	main := "resource \"random_string\" \"s\" {\n  lenght = 8\n}\n\noutput \"word\" {\n  value = random_string.s.result\n}\n"
	for path, text := range map[string]string{
		filepath.Join(yamlDir, "Pulumi.yaml"): program,
		filepath.Join(hclDir, "Pulumi.yaml"):  "name: h\nruntime: hcl\n",
		filepath.Join(hclDir, "main.hcl"):     main,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	cmd := exec.Command(bin, "lsp")
	cmd.Env = append(os.Environ(), "CAIRN_HOME="+home)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	c := lsptest.New(t, stdout, stdin)
	c.Initialize(dir)

	yamlPath, hclPath := filepath.Join(yamlDir, "Pulumi.yaml"), filepath.Join(hclDir, "main.hcl")
	c.Open(yamlPath, program)
	c.Open(hclPath, main)
	for path, text := range map[string]string{yamlPath: program, hclPath: main} {
		line := lsptest.Position(text, "lenght", 0).Line
		c.Diagnostics(path, func(ds []lsp.Diagnostic) bool {
			for _, d := range ds {
				if d.Range.Start.Line == line && strings.Contains(d.Message, `Did you mean "length"?`) {
					return true
				}
			}
			return false
		})
	}

	var list lsp.CompletionList
	c.MustCall("textDocument/completion", lsptest.At(yamlPath, lsptest.Position(program, "randomStr", len("randomStr"))), &list)
	found := false
	for _, it := range list.Items {
		found = found || it.TextEdit != nil && it.TextEdit.NewText == "random:index/randomString:RandomString"
	}
	if !found {
		t.Errorf("random:index/randomStr does not complete to random:index/randomString:RandomString")
	}
	var hover lsp.Hover
	c.MustCall("textDocument/hover", lsptest.At(hclPath, lsptest.Position(main, "random_string.s.result", len("random_string.s.r"))), &hover)
	if !strings.Contains(hover.Contents.Value, "result") {
		t.Errorf("hover on random_string.s.result: %q", hover.Contents.Value)
	}
	var loc lsp.Location
	c.MustCall("textDocument/definition", lsptest.At(yamlPath, lsptest.Position(program, "${s.result}", len("${s.re"))), &loc)
	if want := lsptest.Position(program, "  s:", 2); loc.URI != lsptest.URI(yamlPath) || loc.Range.Start != want {
		t.Errorf("definition of ${s.result}: %+v, want %+v", loc, want)
	}

	c.Shutdown()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("cairn lsp after shutdown and exit: %v\n%s", err, stderr.String())
	}
	if entries, _ := os.ReadDir(home); len(entries) > 0 {
		t.Errorf("cairn lsp wrote to CAIRN_HOME: %v", entries)
	}
}
