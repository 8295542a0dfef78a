package funcs

import (
	"crypto/md5"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"hash"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
	"golang.org/x/crypto/bcrypt"
	"golang.org/x/crypto/ssh"
)

// digest is a hash function with the encoding of its result.
type digest struct {
	name string // as in "hexadecimal SHA-256"
	sum  func([]byte) string
}

func hexDigest(algorithm string, h func() hash.Hash) digest {
	return digest{"hexadecimal " + algorithm, func(data []byte) string {
		return hex.EncodeToString(hashOf(h, data))
	}}
}

func base64Digest(algorithm string, h func() hash.Hash) digest {
	return digest{"Base64-encoded " + algorithm, func(data []byte) string {
		return base64.StdEncoding.EncodeToString(hashOf(h, data))
	}}
}

func hashOf(h func() hash.Hash, data []byte) []byte {
	w := h()
	w.Write(data)
	return w.Sum(nil)
}

var (
	md5Hex       = hexDigest("MD5", md5.New)
	sha1Hex      = hexDigest("SHA-1", sha1.New)
	sha256Hex    = hexDigest("SHA-256", sha256.New)
	sha512Hex    = hexDigest("SHA-512", sha512.New)
	sha256Base64 = base64Digest("SHA-256", sha256.New)
	sha512Base64 = base64Digest("SHA-512", sha512.New)
)

// hashFunc returns a function hashing the UTF-8 bytes of a string.
func hashFunc(d digest) function.Function {
	return stringFunc("Returns the "+d.name+" hash of the UTF-8 bytes of a string.", "str", func(s string) (string, error) {
		return d.sum([]byte(s)), nil
	})
}

// fileHashFunc returns a function hashing the contents of a file.
func (s *scope) fileHashFunc(d digest) function.Function {
	return s.fileFunc("Returns the "+d.name+" hash of the contents of a file.", func(data []byte) (string, error) {
		return d.sum(data), nil
	})
}

// BcryptFunc hashes a string with bcrypt, at the cost given as the optional
// second argument (10 by default). It is impure (the salt is random): the
// table makes it unknown during a preview.
var BcryptFunc = function.New(&function.Spec{
	Description: "Hashes a string with bcrypt; the optional second argument is the cost (4 to 31, 10 by default).",
	Params:      []function.Parameter{{Name: "str", Type: cty.String}},
	VarParam:    &function.Parameter{Name: "cost", Type: cty.Number},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) > 2 {
			return cty.NilType, function.NewArgErrorf(2, "bcrypt takes at most two arguments: a string and a cost")
		}
		return cty.String, nil
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		cost := bcrypt.DefaultCost
		if len(args) == 2 {
			if err := gocty.FromCtyValue(args[1], &cost); err != nil || cost < bcrypt.MinCost || cost > bcrypt.MaxCost {
				return cty.NilVal, function.NewArgErrorf(1, "the cost must be a whole number from %d to %d", bcrypt.MinCost, bcrypt.MaxCost)
			}
		}
		out, err := bcrypt.GenerateFromPassword([]byte(args[0].AsString()), cost)
		if errors.Is(err, bcrypt.ErrPasswordTooLong) {
			return cty.NilVal, function.NewArgErrorf(0, "bcrypt hashes at most 72 bytes; hash a shorter string, or the sha512 of a long one")
		}
		if err != nil {
			return cty.NilVal, err
		}
		return cty.StringVal(string(out)), nil
	},
})

// UUIDFunc returns a new random (version 4) UUID. It is impure: the table
// makes it unknown during a preview.
var UUIDFunc = function.New(&function.Spec{
	Description:  "Returns a new random UUID (version 4).",
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
		id, err := uuid.NewRandom()
		if err != nil {
			return cty.NilVal, err
		}
		return cty.StringVal(id.String()), nil
	},
})

// UUIDv5Func returns the name-based (version 5) UUID of a name in a
// namespace: "dns", "url", "oid", "x500" or a UUID.
var UUIDv5Func = function.New(&function.Spec{
	Description: "Returns the name-based UUID (version 5) of a name in a namespace: dns, url, oid, x500 or a UUID.",
	Params: []function.Parameter{
		{Name: "namespace", Type: cty.String},
		{Name: "name", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		ns, ok := map[string]uuid.UUID{
			"dns":  uuid.NameSpaceDNS,
			"url":  uuid.NameSpaceURL,
			"oid":  uuid.NameSpaceOID,
			"x500": uuid.NameSpaceX500,
		}[args[0].AsString()]
		if !ok {
			var err error
			if ns, err = uuid.Parse(args[0].AsString()); err != nil {
				return cty.NilVal, function.NewArgErrorf(0, "the namespace must be dns, url, oid, x500 or a UUID, not %q", args[0].AsString())
			}
		}
		return cty.StringVal(uuid.NewSHA1(ns, []byte(args[1].AsString())).String()), nil
	},
})

// RSADecryptFunc decrypts Base64 ciphertext encrypted with RSA (PKCS #1
// v1.5 padding) with a private key in PEM (PKCS #1, PKCS #8 or OpenSSH's
// format, as ssh-keygen writes it), and returns the plaintext, which must
// be UTF-8 text.
var RSADecryptFunc = function.New(&function.Spec{
	Description: "Decrypts Base64 ciphertext encrypted with RSA (PKCS #1 v1.5) with a PEM private key, and returns the plaintext.",
	Params: []function.Parameter{
		{Name: "ciphertext", Type: cty.String},
		{Name: "privatekey", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		ciphertext, err := decodeBase64(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgError(0, err)
		}
		key, err := rsaPrivateKey(args[1].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgError(1, err)
		}
		//lint:ignore SA1019 Terraform's rsadecrypt is defined as PKCS #1 v1.5.
		out, err := rsa.DecryptPKCS1v15(nil, key, ciphertext)
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "the ciphertext cannot be decrypted with this key: %v", err)
		}
		if !utf8.Valid(out) {
			return cty.NilVal, errors.New("the plaintext is not valid UTF-8 text")
		}
		return cty.StringVal(string(out)), nil
	},
})

// rsaPrivateKey reads an RSA private key in PEM: PKCS #1, PKCS #8 or
// OpenSSH's format, not encrypted.
func rsaPrivateKey(text string) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode([]byte(text))
	if block == nil {
		return nil, errors.New("the private key is not in PEM; give the text of a key file, such as file(\"key.pem\")")
	}
	k, err := ssh.ParseRawPrivateKey([]byte(text))
	var missing *ssh.PassphraseMissingError
	switch {
	case errors.As(err, &missing):
		return nil, errors.New("the private key is encrypted with a passphrase; give the key without one")
	case err != nil:
		return nil, fmt.Errorf("the PEM block %q is not an RSA private key: %v", block.Type, err)
	}
	rk, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("the private key is a %T, not an RSA key", k)
	}
	return rk, nil
}
