package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/secrets"
)

// inProcess runs cairn in this process, in a fresh project folder holding
// program as Pulumi.yaml, so that the secrets package's counters can be
// read after each command.
type inProcess struct {
	t    testing.TB
	dir  string
	home string
}

func newInProcess(t testing.TB, program string) *inProcess {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, ".cairn-home")
	t.Chdir(dir)
	t.Setenv("CAIRN_HOME", home)
	t.Setenv("CAIRN_CONFIG_PASSPHRASE", "correct horse")
	t.Setenv("CAIRN_BACKEND_URL", "")
	t.Setenv("PULUMI_BACKEND_URL", "")
	t.Setenv("NO_COLOR", "1")
	return &inProcess{t: t, dir: dir, home: home}
}

// run runs one command, fails the test unless it succeeds, and returns
// its output and the keys it derived.
func (p *inProcess) run(args ...string) (out string, derived int64) {
	p.t.Helper()
	var stdout, stderr bytes.Buffer
	before := secrets.Derivations()
	code := run(append([]string{"cairn"}, args...), strings.NewReader(""), &stdout, &stderr)
	derived = secrets.Derivations() - before
	if code != 0 {
		p.t.Fatalf("cairn %s: exit %d\n%s%s", strings.Join(args, " "), code, &stdout, &stderr)
	}
	return stdout.String() + stderr.String(), derived
}

// stateFile returns the path of the stack's state file.
func (p *inProcess) stateFile() string {
	p.t.Helper()
	files, err := filepath.Glob(filepath.Join(p.home, "state", ".pulumi", "stacks", "*", "dev.json"))
	if err != nil || len(files) != 1 {
		p.t.Fatalf("the state file: %v %v", files, err)
	}
	return files[0]
}

// state returns the stack's state file's text.
func (p *inProcess) state() string {
	p.t.Helper()
	data, err := os.ReadFile(p.stateFile())
	if err != nil {
		p.t.Fatal(err)
	}
	return string(data)
}

// A no-change preview of a stack whose state holds a secret (the sealed
// seed key its random strings derive from) decrypts and encrypts nothing,
// so it derives no key from the passphrase.
func TestNoChangePreviewDerivesNoKey(t *testing.T) {
	p := newInProcess(t, `name: lazy
runtime: yaml
resources:
  a:
    type: random:RandomString
    properties:
      length: 8
  b:
    type: random:RandomString
    properties:
      length: 9
`)
	p.create()
	if !strings.Contains(p.state(), `"ciphertext"`) {
		t.Fatal("the state holds no secret; the test proves nothing")
	}
	p.noChangePreview()
}

// create makes the stack and creates its resources.
func (p *inProcess) create() {
	p.run("stack", "init", "dev", "--non-interactive")
	p.run("up", "--yes", "--non-interactive")
}

// noChangePreview previews the stack of three resources, which must all be
// unchanged, and fails the test if the preview derived a key; it returns
// the preview's output.
func (p *inProcess) noChangePreview(args ...string) string {
	p.t.Helper()
	out, derived := p.run(append([]string{"preview", "--non-interactive", "--expect-no-changes"}, args...)...)
	if !strings.Contains(out, "Resources: 3 unchanged.") {
		p.t.Fatalf("want a no-change preview:\n%s", out)
	}
	if derived != 0 {
		p.t.Fatalf("the no-change preview derived %d keys from the passphrase, want none", derived)
	}
	return out
}

// showsNone fails the test if text holds one of plains.
func showsNone(t *testing.T, what, text string, plains []string) {
	t.Helper()
	for _, plain := range plains {
		if strings.Contains(text, plain) {
			t.Fatalf("%s holds the plaintext %q", what, plain)
		}
	}
}

// A no-change preview of a stack whose resources keep secrets in their
// outputs (as every RandomString of Pulumi's random provider does) decrypts
// none of them: the state's secrets stay sealed, and the fast path's
// digests cover their ciphertexts. Nothing shows their plaintexts; with a
// wrong passphrase the first preview that needs one fails, naming what to
// do.
func TestNoChangePreviewOfSecretOutputsDerivesNoKey(t *testing.T) {
	p := newInProcess(t, `name: lazy
runtime: yaml
resources:
  a: {type: "random:RandomString", options: {additionalSecretOutputs: [result]}, properties: {length: 12}}
  b: {type: "random:RandomPassword", properties: {length: 14}}
`)
	p.create()
	st := p.state()
	if strings.Count(st, `"ciphertext"`) < 3 {
		t.Fatalf("want the results and the seed key encrypted in the state:\n%s", st)
	}
	results := secretResults(t, p)
	showsNone(t, "the state", st, results)
	showsNone(t, "the no-change preview", p.noChangePreview("--diff"), results)
	// A no-change update keeps the ciphertexts (and so the digests) as they
	// were, so the preview after it still derives nothing.
	p.run("up", "--yes", "--non-interactive")
	p.noChangePreview()
	// A change that needs the old secrets (a replacement of a) decrypts
	// them, and shows none of them.
	if err := os.WriteFile("Pulumi.yaml", []byte(strings.Replace(readFile(t, "Pulumi.yaml"), "length: 12", "length: 13", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, derived := p.run("preview", "--non-interactive", "--diff")
	if derived != 1 || !strings.Contains(out, "1 to replace") {
		t.Fatalf("want a replacement previewed with one key derived, got %d:\n%s", derived, out)
	}
	showsNone(t, "the preview of a replacement", out, results)
	// A wrong passphrase fails at the first need, saying what to do: the
	// seed key a check needs, or the state's secrets a refresh sends.
	before := p.state()
	t.Setenv("CAIRN_CONFIG_PASSPHRASE", "wrong horse")
	for _, args := range [][]string{{"preview"}, {"preview", "--refresh"}, {"up", "--yes"}} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"cairn", "--non-interactive"}, args...), strings.NewReader(""), &stdout, &stderr)
		out := stdout.String() + stderr.String()
		if code == 0 || !strings.Contains(out, "incorrect passphrase") || !strings.Contains(out, "set CAIRN_CONFIG_PASSPHRASE") {
			t.Fatalf("want cairn %s with a wrong passphrase to fail naming the passphrase; exit %d:\n%s", args, code, out)
		}
		if strings.Contains(out, "unknown") {
			t.Fatalf("cairn %s shows a secret it could not decrypt as unknown:\n%s", args, out)
		}
		if p.state() != before {
			t.Fatalf("cairn %s with a wrong passphrase changed the state", args)
		}
	}
}

// secretResults returns the plaintexts of the stack's passwords, read
// with --show-secrets from the exported state.
func secretResults(t *testing.T, p *inProcess) []string {
	t.Helper()
	out, _ := p.run("stack", "export", "--show-secrets")
	var dep struct {
		Deployment struct {
			Resources []struct {
				Type    string         `json:"type"`
				Outputs map[string]any `json:"outputs"`
			} `json:"resources"`
		} `json:"deployment"`
	}
	if err := json.Unmarshal([]byte(out), &dep); err != nil {
		t.Fatalf("the export: %v\n%s", err, out)
	}
	var plains []string
	for _, r := range dep.Deployment.Resources {
		// (A RandomString's result is also its ID, which is not secret.)
		if secret, ok := r.Outputs["result"].(map[string]any); ok && strings.Contains(r.Type, "RandomPassword") {
			if text, ok := secret["plaintext"].(string); ok {
				var plain string
				if err := json.Unmarshal([]byte(text), &plain); err != nil {
					t.Fatal(err)
				}
				plains = append(plains, plain)
			}
		}
	}
	if len(plains) != 1 {
		t.Fatalf("want one password in the export:\n%s", out)
	}
	return plains
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// A changed secret input still previews and updates (deriving the key to
// decrypt and encrypt it), and neither its old nor its new plaintext
// reaches the state.
func TestChangedSecretInputUpdates(t *testing.T) {
	p := newInProcess(t, `name: lazy
runtime: yaml
config:
  token:
    type: string
    secret: true
resources:
  a:
    type: random:RandomString
    properties:
      length: 8
      keepers:
        token: ${token}
`)
	p.run("stack", "init", "dev", "--non-interactive")
	p.run("config", "set", "--secret", "token", "first-plaintext-1")
	p.run("up", "--yes", "--non-interactive")
	p.run("config", "set", "--secret", "token", "second-plaintext-2")
	out, derived := p.run("preview", "--non-interactive")
	if !strings.Contains(out, "1 to replace") && !strings.Contains(out, "1 to update") {
		t.Fatalf("want the changed secret input previewed as a change:\n%s", out)
	}
	if derived != 1 {
		t.Fatalf("the preview derived %d keys, want 1: it must decrypt the secret input", derived)
	}
	if strings.Contains(out, "plaintext") {
		t.Fatalf("the preview shows a secret's plaintext:\n%s", out)
	}
	out, _ = p.run("up", "--yes", "--non-interactive")
	if strings.Contains(out, "plaintext") {
		t.Fatalf("the update shows a secret's plaintext:\n%s", out)
	}
	st := p.state()
	for _, plain := range []string{"first-plaintext-1", "second-plaintext-2"} {
		if strings.Contains(st, plain) {
			t.Fatalf("the state holds the plaintext %q", plain)
		}
	}
	if !strings.Contains(st, `"ciphertext"`) {
		t.Fatal("the state holds no encrypted secret")
	}
	if _, derived := p.run("preview", "--non-interactive", "--expect-no-changes"); derived != 1 {
		t.Fatalf("the preview after the update derived %d keys, want 1 (the config's secret is decrypted)", derived)
	}
}

// BenchmarkNoChangePreview1000 previews 1,000 unchanged random strings, on
// the fast path, with the state holding a secret (the sealed seed key, as
// every state of Cairn's random provider does), with that key removed from
// the state, so that it holds no secret, and with every result a secret
// (additionalSecretOutputs), as Pulumi's random provider keeps secrets in
// its outputs. Before the key was derived lazily, each paid for a PBKDF2
// derivation (derivations/op 1); the last still does, its state's secrets
// being decrypted when it is read.
func BenchmarkNoChangePreview1000(b *testing.B) {
	var program strings.Builder
	program.WriteString("name: lazy\nruntime: yaml\nresources:\n")
	for i := range 1000 {
		fmt.Fprintf(&program, "  r%d:\n    type: random:RandomString\n    properties:\n      length: %d\n", i, 8+i%8)
	}
	secretOutputs := strings.ReplaceAll(program.String(), "\n    properties:", "\n    options:\n      additionalSecretOutputs: [result]\n    properties:")
	for _, name := range []string{"secrets", "no secrets", "secret outputs"} {
		b.Run(name, func(b *testing.B) {
			text := program.String()
			if name == "secret outputs" {
				text = secretOutputs
			}
			p := newInProcess(b, text)
			p.run("stack", "init", "dev", "--non-interactive")
			p.run("up", "--yes", "--non-interactive")
			if name == "no secrets" {
				p.dropSeedKey()
			}
			var derived int64
			for b.Loop() {
				_, n := p.run("preview", "--non-interactive", "--expect-no-changes")
				derived += n
			}
			b.ReportMetric(float64(derived)/float64(b.N), "derivations/op")
		})
	}
}

// dropSeedKey removes the sealed seed key from the state, which then holds
// no secret (a preview of unchanged resources needs no seed).
func (p *inProcess) dropSeedKey() {
	p.t.Helper()
	var chk map[string]any
	if err := json.Unmarshal([]byte(p.state()), &chk); err != nil {
		p.t.Fatal(err)
	}
	meta := chk["checkpoint"].(map[string]any)["latest"].(map[string]any)["metadata"].(map[string]any)
	delete(meta["cairn_seeds"].(map[string]any), "key")
	data, err := json.Marshal(chk)
	if err != nil {
		p.t.Fatal(err)
	}
	if strings.Contains(string(data), `"ciphertext"`) {
		p.t.Fatal("the state still holds a secret")
	}
	if err := os.WriteFile(p.stateFile(), data, 0o644); err != nil {
		p.t.Fatal(err)
	}
}
