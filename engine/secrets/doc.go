// Package secrets encrypts the secret values of a stack: secret config in
// Pulumi.<stack>.yaml, and secret inputs and outputs in the state, its journal,
// its backups and its exports.
//
// The passphrase manager follows Pulumi's format exactly, so a stack
// configuration file or a state written by `pulumi` with a passphrase decrypts
// here with the same passphrase, and the reverse. Its key is derived once per
// manager, when a value is first encrypted or decrypted (PBKDF2-HMAC-SHA256,
// 1,000,000 iterations, from the passphrase and the 8-byte salt of the
// stack's encryptionsalt), so a command that needs no secret's plaintext
// spends nothing on it; values are sealed with
// AES-256-GCM under a fresh 12-byte nonce and written as
// "v1:<base64 nonce>:<base64 ciphertext>". Decryptions are cached, so reading a
// state with many secrets costs at most one AES operation per value. A state
// read through Lazy keeps its secrets sealed until each is first read, so a
// command that reads none (a no-change preview) derives no key.
//
//	// A new stack: make a salt and keep it as encryptionsalt in Pulumi.dev.yaml.
//	m, err := secrets.GeneratePassphraseManager(passphrase)
//	salt := m.Salt()
//
//	// An existing stack: with a wrong passphrase, the first Encrypt or
//	// Decrypt (or Check) is ErrIncorrectPassphrase.
//	m, err = secrets.NewPassphraseManager(passphrase, salt)
//	ciphertext, err := m.Encrypt("hunter2") // a `secure:` config value
//	plaintext, err := m.Decrypt(ciphertext)
package secrets
