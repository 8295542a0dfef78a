package workspace

import (
	"os"
	"path/filepath"
	"testing"
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
