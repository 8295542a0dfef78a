// Package anchortest builds and opens passphrase-encrypted values with the
// anchor's documented algorithm, written out step by step and independently
// of package secrets, so that tests can check the two agree: PBKDF2-HMAC-
// SHA256 with 1,000,000 iterations over an 8-byte salt gives a 32-byte key;
// values are AES-256-GCM sealed under a 12-byte nonce and written
// "v1:<base64 nonce>:<base64 ciphertext>"; a stack's encryptionsalt is
// "v1:<base64 salt>:" followed by the sealed string "pulumi".
//
//	k := anchortest.NewKey("correct horse", []byte("8 bytes!"))
//	salt := k.EncryptionSalt(nonce)           // encryptionsalt in Pulumi.dev.yaml
//	value := k.Seal(nonce2, "hunter2")        // a `secure:` config value
//	plain, err := k.Open(value)
package anchortest

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
)

// Key is a passphrase-derived key and the salt it was derived with.
type Key struct {
	salt []byte
	gcm  cipher.AEAD
}

// NewKey derives the key of passphrase and salt. It panics on errors: it is
// for tests.
func NewKey(passphrase string, salt []byte) *Key {
	raw, err := pbkdf2.Key(sha256.New, passphrase, salt, 1_000_000, 32)
	if err != nil {
		panic(err)
	}
	block, err := aes.NewCipher(raw)
	if err != nil {
		panic(err)
	}
	gcm, err := cipher.NewGCMWithNonceSize(block, 12)
	if err != nil {
		panic(err)
	}
	return &Key{salt: salt, gcm: gcm}
}

// Seal encrypts plaintext under the given 12-byte nonce.
func (k *Key) Seal(nonce []byte, plaintext string) string {
	b64 := base64.StdEncoding.EncodeToString
	return "v1:" + b64(nonce) + ":" + b64(k.gcm.Seal(nil, nonce, []byte(plaintext), nil))
}

// EncryptionSalt returns the encryptionsalt string of the key, its check
// value sealed under nonce.
func (k *Key) EncryptionSalt(nonce []byte) string {
	return "v1:" + base64.StdEncoding.EncodeToString(k.salt) + ":" + k.Seal(nonce, "pulumi")
}

// Open decrypts a "v1:<nonce>:<ciphertext>" string.
func (k *Key) Open(value string) (string, error) {
	fields := strings.Split(value, ":")
	if len(fields) != 3 || fields[0] != "v1" {
		return "", fmt.Errorf("%q is not a v1 ciphertext", value)
	}
	nonce, err := base64.StdEncoding.DecodeString(fields[1])
	if err != nil {
		return "", err
	}
	sealed, err := base64.StdEncoding.DecodeString(fields[2])
	if err != nil {
		return "", err
	}
	plain, err := k.gcm.Open(nil, nonce, sealed, nil)
	return string(plain), err
}
