package secrets

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// ciphertextVersion prefixes every ciphertext this package writes.
const ciphertextVersion = "v1"

// nonceBytes is the size of an AES-GCM nonce in Pulumi's format.
const nonceBytes = 12

// crypter seals values with AES-256-GCM under one key and writes them as
// "v1:<base64 nonce>:<base64 ciphertext>". It remembers what it has
// decrypted, so reading the same ciphertext again costs a map lookup.
type crypter struct {
	aead  cipher.AEAD
	cache sync.Map // ciphertext → plaintext
}

func newCrypter(key []byte) (*crypter, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("making the AES-256 cipher: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("making the AES-GCM cipher: %w", err)
	}
	return &crypter{aead: aead}, nil
}

// Encrypt seals plaintext under a fresh random nonce.
func (c *crypter) Encrypt(plaintext string) (string, error) {
	nonce := make([]byte, nonceBytes)
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("reading a random nonce: %w", err)
	}
	sealed := c.aead.Seal(nil, nonce, []byte(plaintext), nil)
	return ciphertextVersion + ":" + base64.StdEncoding.EncodeToString(nonce) + ":" +
		base64.StdEncoding.EncodeToString(sealed), nil
}

// errMalformed says a ciphertext is not in the v1 format.
var errMalformed = errors.New(`want "v1:<base64 nonce>:<base64 ciphertext>"`)

// Decrypt opens a ciphertext written by Encrypt with the same key.
func (c *crypter) Decrypt(ciphertext string) (string, error) {
	if p, ok := c.cache.Load(ciphertext); ok {
		return p.(string), nil
	}
	parts := strings.Split(ciphertext, ":")
	if len(parts) != 3 || parts[0] != ciphertextVersion {
		return "", fmt.Errorf("malformed ciphertext: %w", errMalformed)
	}
	nonce, err := base64.StdEncoding.DecodeString(parts[1])
	if err != nil || len(nonce) != nonceBytes {
		return "", fmt.Errorf("malformed ciphertext: bad nonce: %w", errMalformed)
	}
	sealed, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil {
		return "", fmt.Errorf("malformed ciphertext: bad base64: %w", errMalformed)
	}
	plain, err := c.aead.Open(nil, nonce, sealed, nil)
	if err != nil {
		return "", errors.New("cannot decrypt a secret: it was encrypted with another key (a different passphrase or salt), or it is corrupt")
	}
	c.cache.Store(ciphertext, string(plain))
	return string(plain), nil
}
