package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/lsp"
	"github.com/cairn-iac/cairn/internal/lsp/lsptest"
)

// lspServer is `cairn lsp` run as an editor runs it, over pipes.
type lspServer struct {
	*lsptest.Client
	cmd    *exec.Cmd
	stderr strings.Builder
}

// startLSP starts `cairn lsp` in the editor's folder dir, with env added
// to its environment.
func startLSP(t *testing.T, dir string, env ...string) *lspServer {
	bin, err := exec.LookPath("cairn") // put on PATH by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	s := &lspServer{cmd: exec.Command(bin, "lsp")}
	s.cmd.Dir, s.cmd.Env, s.cmd.Stderr = dir, append(os.Environ(), env...), &s.stderr
	stdin, err := s.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.cmd.Process.Kill() })
	s.Client = lsptest.New(t, stdout, stdin)
	return s
}

// stop shuts the server down, and fails unless it exits cleanly.
func (s *lspServer) stop(t *testing.T) {
	s.Shutdown()
	if err := s.cmd.Wait(); err != nil {
		t.Fatalf("cairn lsp after shutdown and exit: %v\n%s", err, s.stderr.String())
	}
}

// writeFiles writes files (by path) and the folders holding them.
func writeFiles(t *testing.T, files map[string]string) {
	t.Helper()
	for path, text := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLSPBinary runs `cairn lsp` as an editor does, over pipes: a YAML and
// an HCL program get their errors, completion, hover and definitions, and
// the server exits cleanly after shutdown and exit, having written
// nothing to CAIRN_HOME and shown no message (a package the programs do
// not use has nothing to say).
func TestLSPBinary(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	yamlDir, hclDir := filepath.Join(dir, "y"), filepath.Join(dir, "h")
	program := "name: y\nruntime: yaml\nresources:\n  s:\n    type: random:RandomString\n    properties:\n      lenght: 8\n" +
		"  t:\n    type: random:index/randomStr\noutputs:\n  word: ${s.result}\n"
	main := "resource \"random_string\" \"s\" {\n  lenght = 8\n}\n\noutput \"word\" {\n  value = random_string.s.result\n}\n"
	writeFiles(t, map[string]string{
		filepath.Join(yamlDir, "Pulumi.yaml"): program,
		filepath.Join(hclDir, "Pulumi.yaml"):  "name: h\nruntime: hcl\n",
		filepath.Join(hclDir, "main.hcl"):     main,
	})

	c := startLSP(t, dir, "CAIRN_HOME="+home)
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

	c.stop(t)
	if entries, _ := os.ReadDir(home); len(entries) > 0 {
		t.Errorf("cairn lsp wrote to CAIRN_HOME: %v", entries)
	}
	if msgs := c.Messages(); len(msgs) > 0 {
		t.Errorf("cairn lsp showed messages: %q", msgs)
	}
}

// tree lists the files and folders under dir.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		out = append(out, path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// markerScript is a shell script that appends its name to the file
// marker when it runs.
func markerScript(marker string) string {
	return "#!/bin/sh\necho \"$0\" >> '" + marker + "'\nexit 1\n"
}

// TestLSPRunsNothing opens, through `cairn lsp`, a Terraform configuration
// whose provider is in a filesystem mirror and a Pulumi YAML program whose
// plugin is on PATH and in $CAIRN_HOME/plugins, none of whose schemas is
// in Cairn's schema cache: every one of those binaries would leave a
// marker if it ran. None runs, no folder or file appears in the projects,
// the editor's folder or CAIRN_HOME, and the diagnostics name the
// schemas missing and the command that keeps them.
func TestLSPRunsNothing(t *testing.T) {
	work := t.TempDir()
	home, editor, tfDir, yamlDir := filepath.Join(work, "home"), filepath.Join(work, "editor"), filepath.Join(work, "tf"), filepath.Join(work, "y")
	bin, mirror, marker := filepath.Join(work, "bin"), filepath.Join(work, "mirror"), filepath.Join(work, "marker")
	tf := "terraform {\n  required_providers {\n    marker = { source = \"cairn/marker\" }\n  }\n}\n\nresource \"marker_thing\" \"t\" {\n  size = 1\n}\n"
	program := "name: y\nruntime: yaml\nresources:\n  t:\n    type: marker:index:Thing\n    properties:\n      size: 1\n"
	script := markerScript(marker)
	writeFiles(t, map[string]string{
		filepath.Join(tfDir, "main.tf"):                                                    tf,
		filepath.Join(yamlDir, "Pulumi.yaml"):                                              program,
		filepath.Join(editor, "README"):                                                    "the editor's folder\n",
		filepath.Join(bin, "pulumi-resource-marker"):                                       script,
		filepath.Join(home, "plugins", "resource-marker-v1.0.0", "pulumi-resource-marker"): script,
		filepath.Join(mirror, "registry.opentofu.org", "cairn", "marker", "1.0.0", platform, "terraform-provider-marker"): script,
		filepath.Join(work, "tofurc"): "provider_installation {\n  filesystem_mirror {\n    path = \"" + mirror + "\"\n  }\n}\n",
	})
	before := tree(t, work)

	c := startLSP(t, editor, "CAIRN_HOME="+home, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"TF_CLI_CONFIG_FILE="+filepath.Join(work, "tofurc"), "CAIRN_LOG=debug")
	c.Initialize(work)
	tfPath, yamlPath := filepath.Join(tfDir, "main.tf"), filepath.Join(yamlDir, "Pulumi.yaml")
	c.Open(tfPath, tf)
	c.Open(yamlPath, program)
	says := func(severity, line int, texts ...string) func([]lsp.Diagnostic) bool {
		return func(ds []lsp.Diagnostic) bool {
			for _, d := range ds {
				if d.Severity == severity && d.Range.Start.Line == line && !slices.ContainsFunc(texts, func(s string) bool { return !strings.Contains(d.Message, s) }) {
					return true
				}
			}
			return false
		}
	}
	c.Diagnostics(tfPath, says(1, lsptest.Position(tf, "marker_thing", 0).Line, "cairn/marker", "never installs", "`cairn preview`"))
	c.Diagnostics(yamlPath, says(2, lsptest.Position(program, "marker:index:Thing", 0).Line,
		"No schema for package marker", "never starts a plugin", "`cairn preview`"))
	c.stop(t)

	if data, err := os.ReadFile(marker); err == nil {
		t.Errorf("cairn lsp ran plugins:\n%s", data)
	}
	if after := tree(t, work); !slices.Equal(before, after) {
		t.Errorf("cairn lsp wrote files: before %q, after %q", before, after)
	}
}

// TestLSPCachedSchemas checks that the schemas Cairn's schema cache keeps
// serve the language server: a Terraform provider's, kept by a `cairn
// preview` of its configuration, and a Pulumi plugin's. The binaries are
// replaced by scripts leaving a marker before the server starts, and none
// runs.
func TestLSPCachedSchemas(t *testing.T) {
	work := t.TempDir()
	home, editor, tfDir, yamlDir := filepath.Join(work, "home"), filepath.Join(work, "editor"), filepath.Join(work, "tf"), filepath.Join(work, "y")
	marker := filepath.Join(work, "marker")
	typ, exe, err := buildTestProvider("fwprovider", filepath.Join(work, "build"))
	if err != nil {
		t.Fatal(err)
	}
	provider, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	tf := "terraform {\n  required_providers {\n    " + typ + " = { source = \"cairn/" + typ + "\" }\n  }\n}\n\n" +
		"provider \"" + typ + "\" {\n  dir = \"store\"\n}\n\nresource \"" + typ + "_file\" \"a\" {\n  name    = \"a\"\n  content = \"hello\"\n}\n"
	program := "name: y\nruntime: yaml\nresources:\n  t:\n    type: marker:index:Thing\n    properties:\n      sise: 1\n"
	writeFiles(t, map[string]string{
		filepath.Join(tfDir, "main.tf"): tf,
		filepath.Join(tfDir, "terraform.d", "plugins", "registry.opentofu.org", "cairn", typ, "1.0.0", platform, "terraform-provider-"+typ): string(provider),
		filepath.Join(yamlDir, "Pulumi.yaml"):                                              program,
		filepath.Join(editor, "README"):                                                    "the editor's folder\n",
		filepath.Join(home, "plugins", "resource-marker-v1.0.0", "pulumi-resource-marker"): markerScript(marker),
		filepath.Join(home, "schemas", "marker-v1.0.0.json"): `{"name": "marker", "version": "1.0.0", "resources": {"marker:index:Thing": ` +
			`{"inputProperties": {"size": {"type": "number", "description": "How big the thing is."}}}}}`,
	})
	env := append(os.Environ(), "CAIRN_HOME="+home, "CAIRN_CONFIG_PASSPHRASE=correct horse")
	for _, args := range [][]string{{"stack", "init", "dev"}, {"preview"}} {
		cmd := exec.Command("cairn", args...)
		cmd.Dir, cmd.Env = tfDir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("cairn %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	// The provider, in the mirror and where the preview installed it, is a
	// script now.
	err = filepath.WalkDir(work, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "terraform-provider-"+typ {
			err = os.WriteFile(path, []byte(markerScript(marker)), 0o755)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	c := startLSP(t, editor, "CAIRN_HOME="+home)
	c.Initialize(work)
	tfPath, yamlPath := filepath.Join(tfDir, "main.tf"), filepath.Join(yamlDir, "Pulumi.yaml")
	misspelt := strings.Replace(tf, "content =", "contnet =", 1)
	c.Open(tfPath, misspelt)
	c.Open(yamlPath, program)
	for path, want := range map[string][2]string{tfPath: {"contnet", `Did you mean "content"?`}, yamlPath: {"sise", `Did you mean "size"?`}} {
		text := map[string]string{tfPath: misspelt, yamlPath: program}[path]
		line := lsptest.Position(text, want[0], 0).Line
		c.Diagnostics(path, func(ds []lsp.Diagnostic) bool {
			return slices.ContainsFunc(ds, func(d lsp.Diagnostic) bool { return d.Range.Start.Line == line && strings.Contains(d.Message, want[1]) })
		})
	}
	var list lsp.CompletionList
	c.MustCall("textDocument/completion", lsptest.At(yamlPath, lsptest.Position(program, "marker:index:Thing", len("marker:index:Th"))), &list)
	if !slices.ContainsFunc(list.Items, func(it lsp.CompletionItem) bool { return it.Label == "marker:index:Thing" }) {
		t.Errorf("marker:index:Th does not complete to marker:index:Thing: %+v", list.Items)
	}
	c.stop(t)
	if data, err := os.ReadFile(marker); err == nil {
		t.Errorf("cairn lsp ran plugins:\n%s", data)
	}
}
