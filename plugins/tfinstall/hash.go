package tfinstall

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/mod/sumdb/dirhash"
)

// Hashes in lock files carry a scheme: "h1:" is the Go modules dirhash of
// the unpacked package (file names and contents, so any platform's copy of
// a package can be checked once unpacked), "zh:" the SHA-256 of the
// distribution zip in hex (checkable only against the zip).
const (
	schemeH1  = "h1:"
	schemeZip = "zh:"
)

// packageHash returns the h1: hash of the unpacked package in dir.
func packageHash(dir string) (string, error) {
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	return dirhash.HashDir(dir, "", dirhash.Hash1)
}

// zipHash returns the zh: hash of the zip at path.
func zipHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return schemeZip + hex.EncodeToString(h.Sum(nil)), nil
}
