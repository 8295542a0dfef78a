package secrets

import "encoding/json"

// Decrypter turns ciphertexts back into plaintexts.
type Decrypter interface {
	// Decrypt returns the plaintext of a ciphertext this decrypter's key
	// sealed; any other input is an error.
	Decrypt(ciphertext string) (string, error)
}

// Manager encrypts and decrypts one stack's secrets. A state records the
// manager that encrypted it as secrets_providers: Type and State, which say
// how to rebuild it given the key material that is never stored (the
// passphrase). Methods may be called concurrently.
type Manager interface {
	Decrypter
	// Type names the manager in secrets_providers.type ("passphrase").
	Type() string
	// State is secrets_providers.state: what a reader needs besides the key
	// material to decrypt what this manager encrypts.
	State() json.RawMessage
	// Encrypt seals plaintext; equal plaintexts give different ciphertexts.
	Encrypt(plaintext string) (string, error)
	// DecrypterFor returns a decrypter for the values of a state whose
	// secrets_providers are typ and state, using this manager's key material:
	// the manager itself when they name it.
	DecrypterFor(typ string, state json.RawMessage) (Decrypter, error)
}
