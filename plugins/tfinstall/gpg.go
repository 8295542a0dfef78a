package tfinstall

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"
	pgperrors "github.com/ProtonMail/go-crypto/openpgp/errors"
)

// checkSignature checks that sig is a detached OpenPGP signature of sums
// by one of the ASCII-armored keys, as OpenTofu does: a signature by a key
// that has since expired passes with a warning, unless
// OPENTOFU_ENFORCE_GPG_EXPIRATION=true. It returns the signing key's ID.
func checkSignature(sums, sig []byte, keys []string, log func(string, ...any)) (string, error) {
	expired := ""
	for _, armored := range keys {
		ring, err := openpgp.ReadArmoredKeyRing(strings.NewReader(armored))
		if err != nil {
			return "", fmt.Errorf("the registry lists a signing key that is not an ASCII-armored OpenPGP key: %v", err)
		}
		check := openpgp.CheckDetachedSignature
		if bytes.HasPrefix(bytes.TrimSpace(sig), []byte("-----BEGIN")) {
			check = openpgp.CheckArmoredDetachedSignature
		}
		signer, err := check(ring, bytes.NewReader(sums), bytes.NewReader(sig), nil)
		switch {
		case err == nil:
			return signer.PrimaryKey.KeyIdString(), nil
		case errors.Is(err, pgperrors.ErrUnknownIssuer):
			continue
		case errors.Is(err, pgperrors.ErrKeyExpired) || errors.Is(err, pgperrors.ErrSignatureExpired):
			if expired == "" && signer != nil {
				expired = signer.PrimaryKey.KeyIdString()
			}
		default:
			return "", fmt.Errorf("the SHA256SUMS signature does not verify: %v", err)
		}
	}
	if expired != "" && os.Getenv("OPENTOFU_ENFORCE_GPG_EXPIRATION") != "true" {
		log("the key %s that signed the SHA256SUMS has expired; accepting it as OpenTofu does (OPENTOFU_ENFORCE_GPG_EXPIRATION=true refuses it)", expired)
		return expired, nil
	}
	return "", errors.New("the SHA256SUMS are not signed by any of the keys the registry lists")
}
