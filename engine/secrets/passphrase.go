package secrets

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// PassphraseType is the secrets_providers.type of the passphrase manager.
const PassphraseType = "passphrase"

// Pulumi's key derivation and passphrase check.
const (
	kdfIterations = 1_000_000
	saltBytes     = 8
	keyBytes      = 32
	// checkPlaintext is what a salt string's ciphertext decrypts to when the
	// passphrase is right.
	checkPlaintext = "pulumi"
)

// ErrIncorrectPassphrase is returned when a passphrase does not decrypt a
// stack's encryption salt.
var ErrIncorrectPassphrase = errors.New("incorrect passphrase: it does not decrypt the stack's encryptionsalt; " +
	"set CAIRN_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE) to the passphrase the stack was created with")

// PassphraseManager is the passphrase secrets manager. Its salt string
// "v1:<base64 salt>:<ciphertext of "pulumi">" is both encryptionsalt in
// Pulumi.<stack>.yaml and secrets_providers.state.salt in the state.
//
// The key derivation costs about 170 ms of CPU, so a manager of an existing
// stack runs it, and checks the passphrase, only when first needed: by the
// first Encrypt, Decrypt or Check, once however many goroutines ask at the
// same time. A command that touches no secret never derives the key.
type PassphraseManager struct {
	crypter    func() (*crypter, error) // the key, derived once
	passphrase string
	salt       string
	state      json.RawMessage

	mu     sync.Mutex
	others map[string]*crypter // crypters of other salts, by salt string
}

// passphraseState is secrets_providers.state of the passphrase manager.
type passphraseState struct {
	Salt string `json:"salt"`
}

// NewPassphraseManager returns the manager of a stack whose encryptionsalt
// is salt; its key is derived on first use. A malformed salt fails at once; a
// passphrase that is not the stack's makes the first Encrypt or Decrypt (or
// Check) fail with ErrIncorrectPassphrase.
func NewPassphraseManager(passphrase, salt string) (*PassphraseManager, error) {
	raw, check, err := parseSalt(salt)
	if err != nil {
		return nil, err
	}
	derive := sync.OnceValues(func() (*crypter, error) { return checkedCrypter(passphrase, raw, check) })
	return newPassphraseManager(derive, passphrase, salt)
}

// GeneratePassphraseManager returns the manager of a new stack, with a fresh
// random salt; store Salt() as the stack's encryptionsalt.
func GeneratePassphraseManager(passphrase string) (*PassphraseManager, error) {
	raw := make([]byte, saltBytes)
	if _, err := rand.Read(raw); err != nil {
		return nil, fmt.Errorf("reading a random salt: %w", err)
	}
	c, err := deriveCrypter(passphrase, raw)
	if err != nil {
		return nil, err
	}
	check, err := c.Encrypt(checkPlaintext)
	if err != nil {
		return nil, err
	}
	salt := ciphertextVersion + ":" + base64.StdEncoding.EncodeToString(raw) + ":" + check
	return newPassphraseManager(func() (*crypter, error) { return c, nil }, passphrase, salt)
}

func newPassphraseManager(c func() (*crypter, error), passphrase, salt string) (*PassphraseManager, error) {
	state, err := json.Marshal(passphraseState{Salt: salt})
	if err != nil {
		return nil, err
	}
	return &PassphraseManager{crypter: c, passphrase: passphrase, salt: salt, state: state, others: map[string]*crypter{}}, nil
}

// Check derives the key if that has not been done yet, and reports
// ErrIncorrectPassphrase if the passphrase is not the stack's.
func (m *PassphraseManager) Check() error {
	_, err := m.crypter()
	return err
}

// Encrypt seals plaintext under the stack's key.
func (m *PassphraseManager) Encrypt(plaintext string) (string, error) {
	c, err := m.crypter()
	if err != nil {
		return "", err
	}
	return c.Encrypt(plaintext)
}

// Decrypt opens a ciphertext sealed under the stack's key.
func (m *PassphraseManager) Decrypt(ciphertext string) (string, error) {
	c, err := m.crypter()
	if err != nil {
		return "", err
	}
	return c.Decrypt(ciphertext)
}

// Type returns PassphraseType.
func (m *PassphraseManager) Type() string { return PassphraseType }

// State returns {"salt": <salt string>}.
func (m *PassphraseManager) State() json.RawMessage { return m.state }

// Salt returns the salt string, the stack's encryptionsalt.
func (m *PassphraseManager) Salt() string { return m.salt }

// DecrypterFor returns a decrypter for a state encrypted by a passphrase
// manager: this one, or one with another salt and the same passphrase (a
// state imported from elsewhere), whose key is derived once and kept.
func (m *PassphraseManager) DecrypterFor(typ string, state json.RawMessage) (Decrypter, error) {
	if typ != PassphraseType {
		return nil, &UnsupportedProviderError{Type: typ}
	}
	var s passphraseState
	if err := json.Unmarshal(state, &s); err != nil {
		return nil, fmt.Errorf("malformed passphrase secrets provider state %s: %w", state, err)
	}
	if s.Salt == m.salt {
		return m, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if c := m.others[s.Salt]; c != nil {
		return c, nil
	}
	c, err := passphraseCrypter(m.passphrase, s.Salt)
	if errors.Is(err, ErrIncorrectPassphrase) {
		return nil, fmt.Errorf("these secrets were encrypted with another encryption salt, %w", err)
	}
	if err != nil {
		return nil, err
	}
	m.others[s.Salt] = c
	return c, nil
}

// UnsupportedProviderError says a state's secrets were encrypted by a
// secrets provider Cairn cannot use.
type UnsupportedProviderError struct {
	Type string
}

func (e *UnsupportedProviderError) Error() string {
	if e.Type == "" {
		return "the state holds encrypted secrets but names no secrets provider; it cannot be decrypted"
	}
	return fmt.Sprintf("the state's secrets were encrypted by the %q secrets provider, which Cairn does not support; "+
		"switch the stack to the passphrase provider first (`pulumi stack change-secrets-provider passphrase`)", e.Type)
}

// passphraseCrypter parses a salt string, derives the key and checks the
// passphrase against the salt string's ciphertext.
func passphraseCrypter(passphrase, salt string) (*crypter, error) {
	raw, check, err := parseSalt(salt)
	if err != nil {
		return nil, err
	}
	return checkedCrypter(passphrase, raw, check)
}

// parseSalt splits a salt string into the raw salt and the ciphertext of
// checkPlaintext.
func parseSalt(salt string) (raw []byte, check string, err error) {
	version, rest, ok := strings.Cut(salt, ":")
	encoded, check, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 || version != ciphertextVersion {
		return nil, "", fmt.Errorf("malformed encryptionsalt %q: want v1:<base64 salt>:<ciphertext>", salt)
	}
	raw, err = base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return nil, "", fmt.Errorf("malformed encryptionsalt %q: the salt is not base64: %w", salt, err)
	}
	return raw, check, nil
}

// checkedCrypter derives the key and checks it against the salt string's
// ciphertext.
func checkedCrypter(passphrase string, raw []byte, check string) (*crypter, error) {
	c, err := deriveCrypter(passphrase, raw)
	if err != nil {
		return nil, err
	}
	if got, err := c.Decrypt(check); err != nil || got != checkPlaintext {
		return nil, ErrIncorrectPassphrase
	}
	return c, nil
}

// derivations counts the keys deriveCrypter has derived; see Derivations.
var derivations atomic.Int64

// Derivations returns how many keys have been derived from passphrases in
// this process: tests use it to prove that an operation needed none.
func Derivations() int64 { return derivations.Load() }

// deriveCrypter derives the AES-256 key from the passphrase and salt with
// PBKDF2-HMAC-SHA256.
func deriveCrypter(passphrase string, salt []byte) (*crypter, error) {
	derivations.Add(1)
	key, err := pbkdf2.Key(sha256.New, passphrase, salt, kdfIterations, keyBytes)
	if err != nil {
		return nil, fmt.Errorf("deriving the key from the passphrase: %w", err)
	}
	return newCrypter(key)
}
