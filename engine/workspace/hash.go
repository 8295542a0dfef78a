package workspace

import (
	"crypto/sha256"
	"encoding/hex"
)

// shortHash names a file after a path without exposing it.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}
