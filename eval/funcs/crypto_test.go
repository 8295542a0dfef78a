package funcs

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"golang.org/x/crypto/bcrypt"

	"github.com/cairn-iac/cairn/eval/values"
)

func TestHashFunctions(t *testing.T) {
	const text = "baﬄe 👍🏽"
	runFamily(t, Functions(Options{}), map[string][]callTest{
		"md5": {
			{args: []cty.Value{str(text)}, want: str("84849853aee3a5deb3333b4c3e3299d1")},
			{args: []cty.Value{str("")}, want: str("d41d8cd98f00b204e9800998ecf8427e")},
		},
		"sha1": {
			{args: []cty.Value{str(text)}, want: str("81496dd6b922da1f63b14cd7884ddaf5489aaf0a")},
		},
		"sha256": {
			{args: []cty.Value{str(text)}, want: str("c3a58a2ba455321d873e01492c219ced140462d7d6805f0ce4c4848687f8a384")},
			{args: []cty.Value{secret(str("hello"))}, want: secret(str("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"))},
			{args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String).RefineNotNull()},
			{args: []cty.Value{cty.NullVal(cty.String)}, err: "must not be null"},
		},
		"uuidv5": {
			{args: []cty.Value{str("dns"), str("python.org")}, want: str("886313e1-3b8a-5372-9b90-0c9aee199e5d")},
			{args: []cty.Value{str("url"), str("https://example.com/ﬄ")}, want: str("42f92784-ae36-56d6-b31d-3ddca11d58fa")},
			{args: []cty.Value{str("oid"), str("1.3.6.1")}, want: str("1447fa61-5277-5fef-a9b3-fbc6e44f4af3")},
			{args: []cty.Value{str("x500"), str("cn=x")}, want: str("a951fb6d-5aab-5a72-8e2e-9aa8df8d1f8f")},
			{args: []cty.Value{str("6ba7b810-9dad-11d1-80b4-00c04fd430c8"), str("👍🏽")}, want: str("731f96cd-dab2-5bb5-a625-81f90c051153")},
			{args: []cty.Value{str("DNS"), str("x")}, err: `the namespace must be dns, url, oid, x500 or a UUID, not "DNS"`},
			{args: []cty.Value{str("dns"), secret(str("python.org"))}, want: secret(str("886313e1-3b8a-5372-9b90-0c9aee199e5d"))},
		},
		"bcrypt": {
			{args: []cty.Value{str("a"), num(3)}, err: "the cost must be a whole number from 4 to 31"},
			{args: []cty.Value{str("a"), num(32)}, err: "the cost must be a whole number from 4 to 31"},
			{args: []cty.Value{str("a"), num(4), num(5)}, err: "bcrypt takes at most two arguments"},
			{args: []cty.Value{str(strings.Repeat("x", 73)), num(4)}, err: "bcrypt hashes at most 72 bytes"},
		},
	})
}

func TestBcrypt(t *testing.T) {
	fns := Functions(Options{})
	for _, args := range [][]cty.Value{
		{str("baﬄe 👍🏽"), num(4)},
		{secret(str("hunter2")), num(5)},
	} {
		t.Run(callName("bcrypt", args), func(t *testing.T) {
			got, err := fns["bcrypt"].Call(args)
			if err != nil {
				t.Fatal(err)
			}
			if got.HasMark(values.Secret) != args[0].HasMark(values.Secret) {
				t.Errorf("wrong marks\ngot:  %#v\nwant: the marks of %#v", got, args[0])
			}
			hash, _ := got.Unmark()
			password, _ := args[0].Unmark()
			if err := bcrypt.CompareHashAndPassword([]byte(hash.AsString()), []byte(password.AsString())); err != nil {
				t.Errorf("wrong result\ngot:  %#v\nwant: a bcrypt hash of %#v (%s)", hash, password, err)
			}
		})
	}
}

func TestUUID(t *testing.T) {
	fns := Functions(Options{})
	v4 := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	first, err := fns["uuid"].Call(nil)
	if err != nil {
		t.Fatal(err)
	}
	second, _ := fns["uuid"].Call(nil)
	if !v4.MatchString(first.AsString()) || first.RawEquals(second) {
		t.Errorf("wrong result\ngot:  %#v, then %#v\nwant: two different random UUIDs", first, second)
	}
}

func TestRSADecrypt(t *testing.T) {
	runFamily(t, Functions(Options{}), map[string][]callTest{
		"rsadecrypt": {
			{args: []cty.Value{str(rsaCiphertext), str(rsaKey)}, want: str("hunter2")},
			// The same key as ssh-keygen writes it, in OpenSSH's format.
			{args: []cty.Value{str(rsaCiphertext), str(string(must(os.ReadFile("testdata/rsa-openssh.pem"))))}, want: str("hunter2")},
			{args: []cty.Value{str(rsaCiphertext), str(string(must(os.ReadFile("testdata/rsa-openssh-passphrase.pem"))))}, err: "the private key is encrypted with a passphrase"},
			{args: []cty.Value{str(rsaCiphertext), str(string(must(os.ReadFile("testdata/ed25519-openssh.pem"))))}, err: "not an RSA key"},
			{args: []cty.Value{str(rsaCiphertext), secret(str(rsaKey))}, want: secret(str("hunter2"))},
			{args: []cty.Value{str("not base64!"), str(rsaKey)}, err: "not valid standard Base64"},
			{args: []cty.Value{str(rsaCiphertext), str("no key")}, err: "the private key is not in PEM"},
			{args: []cty.Value{str("aGVsbG8="), str(rsaKey)}, err: "the ciphertext cannot be decrypted with this key"},
		},
	})
}
