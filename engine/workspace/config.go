package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/cairn-iac/cairn/engine/resource"
)

// Crypter encrypts and decrypts configuration values in Pulumi's
// ciphertext format ("v1:<nonce>:<ciphertext>" for passphrase stacks).
type Crypter interface {
	Encrypt(plaintext string) (string, error)
	Decrypt(ciphertext string) (string, error)
}

// Secure is an encrypted configuration value, stored as {secure: <ciphertext>}.
type Secure string

// StackConfig is a Pulumi.<stack>.yaml file.
type StackConfig struct {
	Path            string
	SecretsProvider string
	EncryptedKey    string
	EncryptionSalt  string
	// Config maps "<namespace>:<key>" to a string, bool, number, Secure, or
	// a []any / map[string]any tree of those.
	Config map[string]any
	// Environment lists ESC environments; kept as written.
	Environment any
}

type stackFile struct {
	SecretsProvider string         `yaml:"secretsprovider,omitempty"`
	EncryptedKey    string         `yaml:"encryptedkey,omitempty"`
	EncryptionSalt  string         `yaml:"encryptionsalt,omitempty"`
	Config          map[string]any `yaml:"config,omitempty"`
	Environment     any            `yaml:"environment,omitempty"`
}

// StackFileName returns the name a stack's files use: the last part of a
// qualified name "org/project/stack".
func StackFileName(stack string) string { return stack[strings.LastIndexByte(stack, '/')+1:] }

// LoadStackConfig reads the stack's configuration file; a missing file is an
// empty configuration.
func LoadStackConfig(p *Project, stack string) (*StackConfig, error) {
	return ReadStackConfig(p.StackConfigPath(stack))
}

// ReadStackConfig reads a stack configuration file.
func ReadStackConfig(path string) (*StackConfig, error) {
	c := &StackConfig{Path: path, Config: map[string]any{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	var f stackFile
	if err := yaml.Unmarshal(data, &f); err != nil {
		return nil, LocateYAMLError(path, data, err)
	}
	c.SecretsProvider, c.EncryptedKey, c.EncryptionSalt, c.Environment = f.SecretsProvider, f.EncryptedKey, f.EncryptionSalt, f.Environment
	for k, v := range f.Config {
		if !strings.Contains(k, ":") {
			return nil, fmt.Errorf("%s: config key %q has no namespace; write it as <project>:%s", path, k, k)
		}
		c.Config[k] = fromYAML(v)
	}
	return c, nil
}

// fromYAML turns decoded YAML into the config tree, recognising {secure: …}.
func fromYAML(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if s, ok := x["secure"].(string); ok && len(x) == 1 {
			return Secure(s)
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = fromYAML(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = fromYAML(e)
		}
		return out
	case int:
		return float64(x)
	}
	return v
}

func toYAML(v any) any {
	switch x := v.(type) {
	case Secure:
		return map[string]any{"secure": string(x)}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = toYAML(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = toYAML(e)
		}
		return out
	}
	return v
}

// Save writes the file atomically.
func (c *StackConfig) Save() error {
	f := stackFile{SecretsProvider: c.SecretsProvider, EncryptedKey: c.EncryptedKey, EncryptionSalt: c.EncryptionSalt,
		Environment: c.Environment, Config: map[string]any{}}
	for k, v := range c.Config {
		f.Config[k] = toYAML(v)
	}
	data, err := yaml.Marshal(f)
	if err != nil {
		return err
	}
	tmp := c.Path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, c.Path)
}

// Key is a parsed configuration key: its namespaced top-level name and the
// path inside a structured value (with --path).
type Key struct {
	Name string // "<namespace>:<key>"
	Path resource.Path
}

// ParseKey parses a key as the user typed it: "key" belongs to the project,
// "ns:key" names its namespace; with path, what follows the first element
// is a property path ("tags.env", "names[0]").
func ParseKey(project, key string, path bool) (Key, error) {
	if key == "" {
		return Key{}, errors.New("empty config key")
	}
	ns, rest := project, key
	if i := strings.IndexByte(key, ':'); i >= 0 {
		ns, rest = key[:i], key[i+1:]
		if ns == "" || rest == "" || strings.Contains(rest, ":") {
			return Key{}, fmt.Errorf("config key %q must be <key> or <namespace>:<key>", key)
		}
	}
	if !path {
		return Key{Name: ns + ":" + rest}, nil
	}
	p, err := resource.ParsePath(rest)
	if err != nil {
		return Key{}, fmt.Errorf("config key %q: %w", key, err)
	}
	top, ok := p[0].(string)
	if !ok || top == resource.Wildcard {
		return Key{}, fmt.Errorf("config key %q must begin with a name", key)
	}
	return Key{Name: ns + ":" + top, Path: p[1:]}, nil
}

// Set stores a value (encrypted with crypter when secret).
func (c *StackConfig) Set(k Key, value string, secret bool, crypter Crypter) error {
	var v any = value
	if secret {
		if crypter == nil {
			return errors.New("a secret value needs a secrets provider; set CAIRN_CONFIG_PASSPHRASE")
		}
		ct, err := crypter.Encrypt(value)
		if err != nil {
			return err
		}
		v = Secure(ct)
	}
	if len(k.Path) == 0 {
		c.Config[k.Name] = v
		return nil
	}
	root, err := setPath(c.Config[k.Name], k.Path, v)
	if err != nil {
		return fmt.Errorf("config %s%s: %w", k.Name, pathSuffix(k.Path), err)
	}
	c.Config[k.Name] = root
	return nil
}

func pathSuffix(p resource.Path) string {
	s := p.String()
	if s == "" || strings.HasPrefix(s, "[") {
		return s
	}
	return "." + s
}

func setPath(root any, p resource.Path, v any) (any, error) {
	if len(p) == 0 {
		return v, nil
	}
	switch e := p[0].(type) {
	case int:
		var list []any
		switch r := root.(type) {
		case nil:
		case []any:
			list = append(list, r...)
		default:
			return nil, fmt.Errorf("[%d] indexes a value that is not a list", e)
		}
		for len(list) <= e {
			list = append(list, nil)
		}
		child, err := setPath(list[e], p[1:], v)
		if err != nil {
			return nil, err
		}
		list[e] = child
		return list, nil
	case string:
		m := map[string]any{}
		switch r := root.(type) {
		case nil:
		case map[string]any:
			for k, x := range r {
				m[k] = x
			}
		default:
			return nil, fmt.Errorf("%q is the key of a value that is not an object", e)
		}
		child, err := setPath(m[e], p[1:], v)
		if err != nil {
			return nil, err
		}
		m[e] = child
		return m, nil
	}
	return nil, fmt.Errorf("bad path element %v", p[0])
}

func getPath(root any, p resource.Path) (any, bool) {
	for _, e := range p {
		switch e := e.(type) {
		case int:
			l, ok := root.([]any)
			if !ok || e >= len(l) {
				return nil, false
			}
			root = l[e]
		case string:
			m, ok := root.(map[string]any)
			if !ok {
				return nil, false
			}
			if root, ok = m[e]; !ok {
				return nil, false
			}
		}
	}
	return root, true
}

// Get returns the value at k decrypted into an engine value (secrets as
// secrets), and whether it exists.
func (c *StackConfig) Get(k Key, crypter Crypter) (resource.Value, bool, error) {
	raw, ok := c.Config[k.Name]
	if !ok {
		return resource.Null, false, nil
	}
	raw, ok = getPath(raw, k.Path)
	if !ok {
		return resource.Null, false, nil
	}
	v, err := decodeConfig(raw, crypter)
	return v, true, err
}

// Remove deletes the value at k and reports whether there was one.
func (c *StackConfig) Remove(k Key) bool {
	raw, ok := c.Config[k.Name]
	if !ok {
		return false
	}
	if len(k.Path) == 0 {
		delete(c.Config, k.Name)
		return true
	}
	if _, ok := getPath(raw, k.Path); !ok {
		return false
	}
	c.Config[k.Name] = deletePath(raw, k.Path)
	return true
}

// deletePath returns root without the value at p (which exists).
func deletePath(root any, p resource.Path) any {
	switch e := p[0].(type) {
	case int:
		l := append([]any(nil), root.([]any)...)
		if len(p) == 1 {
			return append(l[:e], l[e+1:]...)
		}
		l[e] = deletePath(l[e], p[1:])
		return l
	case string:
		m := map[string]any{}
		for k, x := range root.(map[string]any) {
			m[k] = x
		}
		if len(p) == 1 {
			delete(m, e)
		} else {
			m[e] = deletePath(m[e], p[1:])
		}
		return m
	}
	return root
}

// Keys returns the configuration keys in order.
func (c *StackConfig) Keys() []string {
	keys := make([]string, 0, len(c.Config))
	for k := range c.Config {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// HasSecrets reports whether any value is encrypted.
func (c *StackConfig) HasSecrets() bool {
	for _, v := range c.Config {
		if hasSecure(v) {
			return true
		}
	}
	return false
}

func hasSecure(v any) bool {
	switch x := v.(type) {
	case Secure:
		return true
	case map[string]any:
		for _, e := range x {
			if hasSecure(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasSecure(e) {
				return true
			}
		}
	}
	return false
}

// Values decrypts the whole configuration into engine values by
// "<namespace>:<key>": strings stay strings, secure values become secrets,
// structured values objects and arrays.
func (c *StackConfig) Values(crypter Crypter) (map[string]resource.Value, error) {
	out := make(map[string]resource.Value, len(c.Config))
	for _, k := range c.Keys() {
		v, err := decodeConfig(c.Config[k], crypter)
		if err != nil {
			return nil, fmt.Errorf("config %s: %w", k, err)
		}
		out[k] = v
	}
	return out, nil
}

func decodeConfig(v any, crypter Crypter) (resource.Value, error) {
	switch x := v.(type) {
	case Secure:
		if crypter == nil {
			return resource.Null, errors.New("the value is encrypted; set CAIRN_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE) to decrypt it")
		}
		pt, err := crypter.Decrypt(string(x))
		if err != nil {
			return resource.Null, err
		}
		return resource.MakeSecret(resource.String(pt)), nil
	case map[string]any:
		m := make(resource.Map, len(x))
		for k, e := range x {
			ev, err := decodeConfig(e, crypter)
			if err != nil {
				return resource.Null, err
			}
			m[k] = ev
		}
		return resource.Object(m), nil
	case []any:
		out := make([]resource.Value, len(x))
		for i, e := range x {
			ev, err := decodeConfig(e, crypter)
			if err != nil {
				return resource.Null, err
			}
			out[i] = ev
		}
		return resource.Array(out...), nil
	case nil:
		return resource.Null, nil
	case bool:
		return resource.Bool(x), nil
	case float64:
		return resource.Number(x), nil
	case string:
		return resource.String(x), nil
	}
	return resource.Null, fmt.Errorf("unsupported config value %T", v)
}

// selectedFile is where the selected stack of a project is remembered; a
// project without a project file is known by where that file would be.
func selectedFile(home string, p *Project) string {
	path := p.Path
	if path == "" {
		path = filepath.Join(p.Dir, ProjectFileNames[0])
	}
	return filepath.Join(home, "workspaces", p.Name+"-"+shortHash(path)+".yaml")
}

// SelectedStack returns the stack selected for the project, or "".
func SelectedStack(home string, p *Project) (string, error) {
	data, err := os.ReadFile(selectedFile(home, p))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var w struct {
		Stack string `yaml:"stack"`
	}
	if err := yaml.Unmarshal(data, &w); err != nil {
		return "", err
	}
	return w.Stack, nil
}

// SelectStack remembers stack as the project's selected stack ("" forgets).
func SelectStack(home string, p *Project, stack string) error {
	f := selectedFile(home, p)
	if stack == "" {
		err := os.Remove(f)
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		return err
	}
	data, _ := yaml.Marshal(map[string]string{"stack": stack})
	return os.WriteFile(f, data, 0o644)
}
