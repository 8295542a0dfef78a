package console

import (
	"encoding/json"
	"errors"

	"github.com/cairn-iac/cairn/engine/secrets"
)

// sealed is the secrets manager the console reads states and plans with:
// it opens no secret. Every secret reads as an empty string, still marked
// secret, so the console needs no passphrase and never holds a secret's
// plaintext.
type sealed struct{}

var _ secrets.Manager = sealed{}

// Decrypt returns the JSON text of an empty string, whatever the
// ciphertext.
func (sealed) Decrypt(string) (string, error) { return `""`, nil }

func (sealed) Type() string { return "sealed" }

func (sealed) State() json.RawMessage { return nil }

func (sealed) Encrypt(string) (string, error) {
	return "", errors.New("the console encrypts nothing: it writes no state")
}

func (s sealed) DecrypterFor(string, json.RawMessage) (secrets.Decrypter, error) { return s, nil }
