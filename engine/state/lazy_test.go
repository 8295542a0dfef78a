package state_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// nonceManager encrypts as b64Manager does behind a fresh counter, so that
// equal plaintexts encrypt differently, as the passphrase manager's do,
// and counts its decryptions.
type nonceManager struct {
	b64Manager
	n         atomic.Int64
	decrypted atomic.Int64
	fail      error
}

func (m *nonceManager) State() json.RawMessage { return json.RawMessage(`{"k": 1}`) }
func (m *nonceManager) DecrypterFor(string, json.RawMessage) (secrets.Decrypter, error) {
	return m, nil
}
func (m *nonceManager) Encrypt(p string) (string, error) {
	c, _ := m.b64Manager.Encrypt(p)
	return fmt.Sprintf("%d:%s", m.n.Add(1), c), nil
}
func (m *nonceManager) Decrypt(c string) (string, error) {
	m.decrypted.Add(1)
	if m.fail != nil {
		return "", m.fail
	}
	_, c, _ = strings.Cut(c, ":")
	return m.b64Manager.Decrypt(c)
}

func lazySnapshot(t *testing.T, m *nonceManager) []byte {
	t.Helper()
	snap := &snapshot.Snapshot{Resources: []*resource.State{{URN: fullURN, Type: "aws:s3/bucket:Bucket", Custom: true, ID: "x",
		Outputs: resource.Map{"password": resource.MakeSecret(resource.String("hunter2")),
			"nested": resource.Object(resource.Map{"token": resource.MakeSecret(resource.Array(resource.String("t0ken")))})}}}}
	data, err := state.NewEncoder(state.EncodeOptions{Secrets: m, Time: fixedTime}).Checkpoint("dev", snap)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A state read with secrets.Lazy decrypts nothing until a secret's element
// is read, then that secret once however many goroutines read it, telling
// Learn its strings; written again under the same key, every secret keeps
// its ciphertext, read or not.
func TestLazySecretsOpenOnFirstRead(t *testing.T) {
	m := &nonceManager{}
	data := lazySnapshot(t, m)
	var learned []string
	var mu sync.Mutex
	lazy := &secrets.Lazy{Manager: m, Learn: func(s string) { mu.Lock(); learned = append(learned, s); mu.Unlock() }}
	snap, err := state.NewDecoder(lazy).Checkpoint(data)
	if err != nil {
		t.Fatal(err)
	}
	outputs := snap.Resources[0].Outputs
	if n := m.decrypted.Load(); n != 0 {
		t.Fatalf("reading the state decrypted %d secrets, want none", n)
	}
	var masked []string
	outputs.SecretStrings(func(s string) { masked = append(masked, s) })
	if len(masked) != 0 || m.decrypted.Load() != 0 {
		t.Fatalf("SecretStrings of sealed secrets opened them or reported %q", masked)
	}
	password := outputs["password"]
	if _, _, ok := password.Ciphertext(); !ok {
		t.Fatal("a secret read from the state has no ciphertext")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := password.SecretElement(); !got.Equal(resource.String("hunter2")) {
				t.Errorf("the password reads as %v", got)
			}
		})
	}
	wg.Wait()
	if n := m.decrypted.Load(); n != 1 {
		t.Fatalf("reading one secret from 8 goroutines decrypted %d times, want 1", n)
	}
	if !slices.Equal(learned, []string{"hunter2"}) {
		t.Fatalf("Learn was told %q, want the password only", learned)
	}
	again, err := state.NewEncoder(state.EncodeOptions{Secrets: m, Time: fixedTime}).Checkpoint("dev", snap)
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(data) {
		t.Fatalf("written again, the state changed:\n%s\nwas\n%s", again, data)
	}
	if n := m.decrypted.Load(); n != 1 {
		t.Fatalf("writing the state again decrypted %d secrets, want none more", n-1)
	}
	// Under another key, a secret is encrypted again.
	other := &otherKeyManager{nonceManager: m}
	moved, err := state.NewEncoder(state.EncodeOptions{Secrets: other, Time: fixedTime}).Checkpoint("dev", snap)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(moved), `"1:`) || m.decrypted.Load() != 2 {
		t.Fatalf("written under another key, a ciphertext was kept (%d decryptions):\n%s", m.decrypted.Load(), moved)
	}
}

type otherKeyManager struct{ *nonceManager }

func (otherKeyManager) State() json.RawMessage { return json.RawMessage(`{"k": 2}`) }

// A secret that cannot be decrypted when first read reads as unknown, and
// the first error is reported once, through Fail and Err.
func TestLazySecretsReportTheFirstFailure(t *testing.T) {
	m := &nonceManager{}
	data := lazySnapshot(t, m)
	m.fail = errors.New("incorrect passphrase")
	var failures atomic.Int64
	lazy := &secrets.Lazy{Manager: m, Fail: func(error) { failures.Add(1) }}
	snap, err := state.NewDecoder(lazy).Checkpoint(data)
	if err != nil {
		t.Fatalf("reading the state needed no key, but: %v", err)
	}
	for _, v := range snap.Resources[0].Outputs {
		if v.IsSecret() && !v.SecretElement().IsUnknown() {
			t.Fatalf("an undecryptable secret reads as %v, want unknown", v.SecretElement())
		}
	}
	if failures.Load() != 1 || lazy.Err() == nil || lazy.Err().Error() != "incorrect passphrase" {
		t.Fatalf("Fail called %d times, Err %v; want once, the decryption's error", failures.Load(), lazy.Err())
	}
	// Read eagerly, the same state fails at once.
	if _, err := state.NewDecoder(m).Checkpoint(data); err == nil || !strings.Contains(err.Error(), "incorrect passphrase") {
		t.Fatalf("an eager read: %v, want the decryption's error", err)
	}
}
