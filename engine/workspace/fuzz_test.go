package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// FuzzReadStackConfig reads stack configuration files (Pulumi.<stack>.yaml):
// no input panics, and every value of a file that reads can be listed.
func FuzzReadStackConfig(f *testing.F) {
	for _, seed := range []string{
		"config:\n  proj:name: web\n",
		"encryptionsalt: v1:c2FsdHNhbHQ=:v1:AAAA:BBBB\nconfig:\n  proj:password:\n    secure: v1:AAAA:BBBB\n",
		"config:\n  proj:tags:\n    a: [1, true, {b: null}]\n  aws:region: us-west-2\n",
		"secretsprovider: passphrase\nenvironment:\n  - dev\n",
		"config: 3\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "Pulumi.dev.yaml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := ReadStackConfig(path)
		if err != nil {
			return
		}
		_, _ = c.Values(plainCrypter{})
		_ = c.Keys()
		_ = c.HasSecrets()
	})
}

// plainCrypter leaves values as they are.
type plainCrypter struct{}

func (plainCrypter) Encrypt(s string) (string, error) { return s, nil }
func (plainCrypter) Decrypt(s string) (string, error) { return s, nil }

// FuzzLocateYAMLError parses any document: a syntax error is placed on a
// line of the file, at a column of that line or just past its end.
func FuzzLocateYAMLError(f *testing.F) {
	for _, seed := range []string{
		"a: [1, 2\n  b: {}\n", "a: \"x\n", "a:\n\tb: 1\n", "a: *nope\n", "%FOO\n---\na: 1\n", "a: \xff\n", "a: [1,\r\n\r\n", "k: |\n x\n y: 1\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		err := yaml.Unmarshal(data, &v)
		var se *SyntaxError
		if err == nil || !errors.As(LocateYAMLError("f.yaml", data, err), &se) {
			return
		}
		lines := strings.Split(string(data), "\n")
		if se.Line < 1 || se.Line > len(lines) || se.Column < 1 || se.Column > utf8.RuneCountInString(se.Source)+1 {
			t.Errorf("%q: %d:%d is not in the file (%d lines; line %q)", data, se.Line, se.Column, len(lines), se.Source)
		}
	})
}
