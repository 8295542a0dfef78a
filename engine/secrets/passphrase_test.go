package secrets

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
)

const passphrase = "correct horse battery staple"

// stackFixture is a stack config as Pulumi writes it, made with the Pulumi
// SDK's passphrase crypter: its encryptionsalt ("v1:<base64 salt>:" and the
// word "pulumi" encrypted) and one `secure:` value.
type stackFixture struct {
	crypter config.Crypter
	salt    string
	secure  string
	// manager is NewPassphraseManager(passphrase, salt).
	manager *PassphraseManager
	err     error
}

var (
	fixtureOnce sync.Once
	fixture     stackFixture
)

// pulumiStack returns the fixture, derived once for all tests (the key
// derivation is deliberately slow).
func pulumiStack() stackFixture {
	fixtureOnce.Do(func() {
		salt := []byte("saltsalt")
		c := config.NewSymmetricCrypterFromPassphrase(passphrase, salt)
		check, err := c.EncryptValue(context.Background(), "pulumi")
		if err != nil {
			fixture.err = err
			return
		}
		fixture = stackFixture{crypter: c, salt: "v1:" + base64.StdEncoding.EncodeToString(salt) + ":" + check}
		if fixture.secure, fixture.err = c.EncryptValue(context.Background(), "hunter2"); fixture.err != nil {
			return
		}
		fixture.manager, fixture.err = NewPassphraseManager(passphrase, fixture.salt)
	})
	return fixture
}

func TestPassphraseReadsPulumiConfig(t *testing.T) {
	fx := pulumiStack()
	// Pulumi.dev.yaml:
	//   encryptionsalt: <fx.salt>
	//   config:
	//     proj:password:
	//       secure: <fx.secure>
	m, err := fx.manager, fx.err
	if err != nil {
		t.Fatalf("NewPassphraseManager: %v", err)
	}
	got, err := m.Decrypt(fx.secure)
	if err != nil || got != "hunter2" {
		t.Fatalf("Decrypt(Pulumi value) = %q, %v; want \"hunter2\"", got, err)
	}

	// The reverse: what Cairn writes, Pulumi's crypter reads.
	ciphertext, err := m.Encrypt("new secret")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := fx.crypter.DecryptValue(context.Background(), ciphertext); err != nil || got != "new secret" {
		t.Fatalf("Pulumi's DecryptValue(Cairn value) = %q, %v; want \"new secret\"", got, err)
	}

	if got, want := m.Salt(), fx.salt; got != want {
		t.Errorf("Salt() = %q, want %q", got, want)
	}
	var st struct{ Salt string }
	if err := json.Unmarshal(m.State(), &st); err != nil || st.Salt != fx.salt {
		t.Errorf("State() = %s, want {\"salt\": %q}", m.State(), fx.salt)
	}
	if m.Type() != "passphrase" {
		t.Errorf("Type() = %q, want passphrase", m.Type())
	}
}

func TestPassphraseWrong(t *testing.T) {
	fx := pulumiStack()
	m, err := NewPassphraseManager("not the passphrase", fx.salt)
	if err != nil {
		t.Fatalf("NewPassphraseManager(wrong) = %v; the passphrase is checked on first use", err)
	}
	for name, err := range map[string]error{"Check": m.Check(), "Decrypt": second(m.Decrypt(fx.secure)), "Encrypt": second(m.Encrypt("x"))} {
		if !errors.Is(err, ErrIncorrectPassphrase) {
			t.Fatalf("%s with the wrong passphrase = %v, want ErrIncorrectPassphrase", name, err)
		}
	}
	if err := m.Check(); !strings.Contains(err.Error(), "CAIRN_CONFIG_PASSPHRASE") {
		t.Errorf("the error does not say what to do: %v", err)
	}
}

func TestPassphraseMalformedSalt(t *testing.T) {
	tests := []struct {
		salt string
		want string
	}{
		{"", "malformed encryptionsalt"},
		{"v2:c2FsdHNhbHQ=:v1:x:y", "malformed encryptionsalt"},
		{"v1:not base64!:v1:x:y", "not base64"},
	}
	for _, tt := range tests {
		_, err := NewPassphraseManager(passphrase, tt.salt)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewPassphraseManager(%q) = %v, want an error containing %q", tt.salt, err, tt.want)
		}
	}
}

func TestGeneratePassphraseManager(t *testing.T) {
	m, err := GeneratePassphraseManager(passphrase)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^v1:[A-Za-z0-9+/]{11}=:v1:[A-Za-z0-9+/]{16}:[A-Za-z0-9+/=]+$`).MatchString(m.Salt()) {
		t.Errorf("Salt() = %q, want v1:<8 bytes base64>:v1:<nonce>:<ciphertext>", m.Salt())
	}
	a, _ := m.Encrypt("same")
	b, _ := m.Encrypt("same")
	if a == b {
		t.Errorf("two encryptions of one plaintext gave the same ciphertext %q", a)
	}

	// A state encrypted under another salt with the same passphrase (an
	// imported one) decrypts; the fixture's salt is another salt.
	fx := pulumiStack()
	state, _ := json.Marshal(map[string]string{"salt": fx.salt})
	dec, err := m.DecrypterFor("passphrase", state)
	if err != nil {
		t.Fatalf("DecrypterFor(other salt): %v", err)
	}
	if got, err := dec.Decrypt(fx.secure); err != nil || got != "hunter2" {
		t.Errorf("Decrypt through DecrypterFor = %q, %v", got, err)
	}
	if self, err := m.DecrypterFor("passphrase", m.State()); err != nil || self != Decrypter(m) {
		t.Errorf("DecrypterFor(own state) = %v, %v; want the manager itself", self, err)
	}
	var unsupported *UnsupportedProviderError
	if _, err := m.DecrypterFor("awskms", nil); !errors.As(err, &unsupported) {
		t.Errorf("DecrypterFor(awskms) = %v, want UnsupportedProviderError", err)
	}
}

func TestDecryptErrors(t *testing.T) {
	fx := pulumiStack()
	m, err := fx.manager, fx.err
	if err != nil {
		t.Fatal(err)
	}
	// The fixture's value with its last ciphertext byte changed.
	tampered := fx.secure[:len(fx.secure)-3] + "AA="
	tests := []struct {
		ciphertext string
		want       string
	}{
		{"hunter2", "malformed ciphertext"},
		{"v2:AAAAAAAAAAAAAAAA:AAAA", "malformed ciphertext"},
		{"v1:AAAA:AAAA", "bad nonce"},
		{"v1:AAAAAAAAAAAAAAAA:!!", "bad base64"},
		{tampered, "another key"},
	}
	for _, tt := range tests {
		_, err := m.Decrypt(tt.ciphertext)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Decrypt(%q) = %v, want an error containing %q", tt.ciphertext, err, tt.want)
		}
	}
}

func TestDecryptCaches(t *testing.T) {
	fx := pulumiStack()
	m, err := fx.manager, fx.err
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Decrypt(fx.secure); err != nil {
		t.Fatal(err)
	}
	c, err := m.crypter()
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := c.cache.Load(fx.secure); !ok || p != "hunter2" {
		t.Errorf("after Decrypt the cache holds %v, %v; want hunter2", p, ok)
	}
}

func second[T any](_ T, err error) error { return err }

// TestKeyDerivedOnFirstUseOnly: making a stack's manager derives nothing;
// concurrent first decryptions derive the key once between them.
func TestKeyDerivedOnFirstUseOnly(t *testing.T) {
	fx := pulumiStack()
	if fx.err != nil {
		t.Fatal(fx.err)
	}
	before := Derivations()
	m, err := NewPassphraseManager(passphrase, fx.salt)
	if err != nil {
		t.Fatal(err)
	}
	_ = m.Type()
	_ = m.State()
	if _, err := m.DecrypterFor(PassphraseType, m.State()); err != nil {
		t.Fatal(err)
	}
	if n := Derivations() - before; n != 0 {
		t.Fatalf("making the manager derived %d keys, want none before a secret is needed", n)
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			var got string
			if got, errs[i] = m.Decrypt(fx.secure); errs[i] == nil && got != "hunter2" {
				errs[i] = errors.New("decrypted " + got)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Encrypt("x"); err != nil {
		t.Fatal(err)
	}
	if n := Derivations() - before; n != 1 {
		t.Fatalf("8 concurrent decryptions and an encryption derived %d keys, want 1", n)
	}
}
