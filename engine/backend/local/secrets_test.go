package local_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/local"
	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
)

// marker is in every plaintext secret of the test, and nowhere else.
const marker = "SECRET"

// secretUp is an up whose config, inputs and outputs hold secrets.
func secretUp(p *effects) deploy.Options {
	props := func(name string) resource.Map {
		return resource.Map{"name": resource.String(name), "password": resource.MakeSecret(resource.String("pw-" + marker + "-" + name))}
	}
	return deploy.Options{
		Host:     p.host(),
		Config:   map[string]resource.Value{"effects:apiKey": resource.MakeSecret(resource.String("config-" + marker + "-key"))},
		Program:  wideProgram(20, props, resource.Map{"adminPassword": resource.MakeSecret(resource.String("stack-" + marker + "-output"))}),
		Parallel: 4,
	}
}

// filesHolding returns the files under dir whose bytes contain s.
func filesHolding(t *testing.T, dir, s string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if bytes.Contains(data, []byte(s)) {
			out = append(out, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// dirContents returns every file under dir with its bytes.
func dirContents(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(path)
			out[path] = string(data)
		}
		return err
	})
	return out
}

// secretStack is a new stack with a passphrase secrets manager.
func secretStack(t *testing.T) (*local.Backend, backend.StackRef, *secrets.PassphraseManager) {
	t.Helper()
	b, ref, _ := newStack(t)
	sm, err := secrets.GeneratePassphraseManager("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	return b, ref, sm
}

func TestNoPlaintextSecretsOnDisk(t *testing.T) {
	ctx := context.Background()
	b, ref, sm := secretStack(t)
	dir := stateDir(b)
	p := &effects{dir: t.TempDir(), secret: true}

	// Mid-operation: the journal holds every step, encrypted.
	lock, op := begin(t, b, ref, sm)
	res := engineUpdate(t, ref, op, secretUp(p))
	if got := filesHolding(t, dir, "ciphertext"); len(got) == 0 {
		t.Fatal("no file holds a ciphertext: the journal did not record the secrets")
	}
	if got := filesHolding(t, dir, marker); len(got) > 0 {
		t.Errorf("plaintext secrets in the journal: %v", got)
	}
	if err := op.Finish(ctx, res.Snapshot, backend.Summary{Changes: res.ResourceChanges()}); err != nil {
		t.Fatal(err)
	}
	lock.Release()

	// A second up writes a backup and more history.
	if _, err := run(ctx, b, ref, backend.KindUpdate, sm, secretUp(p), nil); err != nil {
		t.Fatal(err)
	}
	if got := filesHolding(t, dir, marker); len(got) > 0 {
		t.Errorf("plaintext secrets in state, backups or history: %v", got)
	}

	export, err := b.Export(ctx, ref, backend.ExportOptions{Secrets: sm})
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := json.Marshal(export); bytes.Contains(data, []byte(marker)) {
		t.Error("plaintext secrets in an export")
	}
	shown, err := b.Export(ctx, ref, backend.ExportOptions{Secrets: sm, ShowSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := json.Marshal(shown); !bytes.Contains(data, []byte(`"plaintext"`)) || !bytes.Contains(data, []byte("stack-"+marker+"-output")) {
		t.Error("an export with show-secrets does not show them as {sig, plaintext}")
	}

	outputs, err := b.Outputs(ctx, ref, sm)
	if err != nil {
		t.Fatal(err)
	}
	if got := outputs["adminPassword"]; !got.IsSecret() || got.SecretElement().StringValue() != "stack-"+marker+"-output" {
		t.Errorf("stack output adminPassword = %v, want the secret", got.Unsecret())
	}
	snap, err := b.Snapshot(ctx, ref, sm)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range snap.Resources {
		if r.Type == thingType && !r.Outputs["token"].IsSecret() {
			t.Errorf("%s: the secret output token came back as %v", r.URN, r.Outputs["token"])
		}
		if r.Type == "pulumi:providers:effects" && !r.Inputs["apiKey"].IsSecret() {
			t.Errorf("the secret config apiKey came back as %v", r.Inputs["apiKey"])
		}
	}
}

func TestWrongPassphrase(t *testing.T) {
	ctx := context.Background()
	b, ref, sm := secretStack(t)
	dir := stateDir(b)
	if _, err := run(ctx, b, ref, backend.KindUpdate, sm, secretUp(&effects{dir: t.TempDir(), secret: true}), nil); err != nil {
		t.Fatal(err)
	}

	// The stack's salt with a wrong passphrase: reading the state fails.
	lazy, err := secrets.NewPassphraseManager("battery staple", sm.Salt())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Snapshot(ctx, ref, lazy); !errors.Is(err, secrets.ErrIncorrectPassphrase) {
		t.Errorf("Snapshot with the stack's salt and a wrong passphrase = %v, want ErrIncorrectPassphrase", err)
	}

	// A manager of another salt and passphrase (a stack config that does
	// not match the state): reading fails clearly and writes nothing.
	wrong, err := secrets.GeneratePassphraseManager("battery staple")
	if err != nil {
		t.Fatal(err)
	}
	before := dirContents(t, dir)
	if _, err := b.Snapshot(ctx, ref, wrong); !errors.Is(err, secrets.ErrIncorrectPassphrase) {
		t.Errorf("Snapshot with the wrong passphrase = %v, want ErrIncorrectPassphrase", err)
	}
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lock.Begin(ctx, backend.OperationInfo{Kind: backend.KindUpdate, Secrets: wrong}); !errors.Is(err, secrets.ErrIncorrectPassphrase) {
		t.Errorf("Begin with the wrong passphrase = %v, want ErrIncorrectPassphrase", err)
	}
	lock.Release()
	if after := dirContents(t, dir); !maps.Equal(before, after) {
		t.Error("a failed read with the wrong passphrase changed the state directory")
	}
}
