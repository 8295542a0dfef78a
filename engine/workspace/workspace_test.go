package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
)

// rot13 is a reversible stand-in for a real secrets manager.
type rot13 struct{}

func (rot13) Encrypt(s string) (string, error) { return "v1:test:" + rot(s), nil }
func (rot13) Decrypt(s string) (string, error) {
	t, ok := strings.CutPrefix(s, "v1:test:")
	if !ok {
		return "", errors.New("incorrect passphrase")
	}
	return rot(t), nil
}

func rot(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	return string(b)
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadProject(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "Pulumi.yaml"), `name: web
runtime:
  name: yaml
  options: {compiler: cue export}
main: app/
plugins:
  providers:
    - name: random
      path: ./bin
resources: {}
`)
	sub := filepath.Join(dir, "app", "deep")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := LoadProject(sub)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "web" || p.Runtime != "yaml" || p.RuntimeOptions["compiler"] != "cue export" {
		t.Errorf("project = %+v", p)
	}
	if p.ProgramDir() != filepath.Join(dir, "app") || p.Plugins.Providers[0].Path != filepath.Join(dir, "bin") {
		t.Errorf("paths: %s %s", p.ProgramDir(), p.Plugins.Providers[0].Path)
	}
	if got := p.StackConfigPath("org/web/dev"); got != filepath.Join(dir, "Pulumi.dev.yaml") {
		t.Errorf("stack config path = %s", got)
	}

	for text, want := range map[string]string{
		"runtime: yaml\n":                   "has no name",
		"name: web\n":                       "has no runtime",
		"name: 'bad name'\nruntime: yaml\n": "may only contain",
		"name: web\nruntime: nodejs\nmain: ../elsewhere/index.js\n": `Pulumi.yaml:3:7: main: "../elsewhere/index.js" is not inside the project's folder`,
		"name: web\nruntime: nodejs\nmain: /abs/index.js\n":         `Pulumi.yaml:3:7: main: "/abs/index.js" is not inside the project's folder`,
	} {
		d := t.TempDir()
		write(t, filepath.Join(d, "Pulumi.yaml"), text)
		if _, err := LoadProject(d); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", text, err, want)
		}
	}
	if _, err := LoadProject(t.TempDir()); !errors.Is(err, ErrNoProject) {
		t.Errorf("no project: %v", err)
	}
}

// TestMainNamesAFolderOrAFile reads main: as Pulumi does: a folder is
// where the program is, a file is its entry point, in its folder.
func TestMainNamesAFolderOrAFile(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "src", "index.js"), "")
	tests := []struct {
		main, dir, entry string
	}{
		{"", dir, ""},
		{"src", filepath.Join(dir, "src"), ""},
		{"src/", filepath.Join(dir, "src"), ""},
		{"src/index.js", filepath.Join(dir, "src"), "index.js"},
	}
	for _, tt := range tests {
		p := &Project{Dir: dir, Main: tt.main}
		if got, entry := p.ProgramDir(), p.EntryPoint(); got != tt.dir || entry != tt.entry {
			t.Errorf("main %q: program in %s, entry point %q; want %s, %q", tt.main, got, entry, tt.dir, tt.entry)
		}
	}
}

// TestCheckMain checks that a main: that names nothing is reported at its
// line and column with the path, and that the project still loads, for
// the commands that do not run the program.
func TestCheckMain(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "Pulumi.yaml"), "name: web\nruntime: hcl\n# the program\nmain:   'infra'\n")
	p, err := LoadProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "Pulumi.yaml") + `:4:9: main: "infra" does not exist in ` + dir + "; create the folder"
	if err := p.CheckMain(); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got  %v\nwant %s…", err, want)
	}
	write(t, filepath.Join(dir, "infra", "main.hcl"), "")
	if err := p.CheckMain(); err != nil {
		t.Errorf("main: names a folder that exists: %v", err)
	}
	if err := (&Project{Dir: dir}).CheckMain(); err != nil {
		t.Errorf("no main: %v", err)
	}
}

func TestStackConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "Pulumi.dev.yaml")
	write(t, path, `encryptionsalt: v1:salt:abc
config:
  web:name: site
  aws:region: us-east-1
  web:password:
    secure: v1:test:uhagre2
  web:tags:
    env: dev
    list: [a, {secure: "v1:test:o"}]
`)
	c, err := ReadStackConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	vals, err := c.Values(rot13{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]resource.Value{
		"web:name":     resource.String("site"),
		"aws:region":   resource.String("us-east-1"),
		"web:password": resource.MakeSecret(resource.String("hunter2")),
		"web:tags": resource.Object(resource.Map{"env": resource.String("dev"),
			"list": resource.Array(resource.String("a"), resource.MakeSecret(resource.String("b")))}),
	}
	for k, w := range want {
		if !vals[k].Equal(w) {
			t.Errorf("%s = %v, want %v", k, vals[k], w)
		}
	}
	if _, err := c.Values(nil); err == nil || !strings.Contains(err.Error(), "CAIRN_CONFIG_PASSPHRASE") {
		t.Errorf("no crypter: %v", err)
	}

	// set / get / rm, with --path and --secret, survive a save.
	k, _ := ParseKey("web", "tags.env", true)
	if err := c.Set(k, "prod", false, nil); err != nil {
		t.Fatal(err)
	}
	k2, _ := ParseKey("web", "db[1].pass", true)
	if err := c.Set(k2, "s3cret", true, rot13{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "s3cret") {
		t.Errorf("plaintext secret written:\n%s", data)
	}
	c2, err := ReadStackConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok, _ := c2.Get(k, nil); !ok || !v.Equal(resource.String("prod")) {
		t.Errorf("get tags.env = %v %v", v, ok)
	}
	if v, ok, _ := c2.Get(k2, rot13{}); !ok || !v.Equal(resource.MakeSecret(resource.String("s3cret"))) {
		t.Errorf("get db[1].pass = %v %v", v, ok)
	}
	if c.EncryptionSalt != "v1:salt:abc" || c2.EncryptionSalt != "v1:salt:abc" {
		t.Errorf("salt lost")
	}
	if !c2.Remove(k) || c2.Remove(k) {
		t.Errorf("remove tags.env")
	}
	if _, ok, _ := c2.Get(k, nil); ok {
		t.Errorf("tags.env still there")
	}
	top, _ := ParseKey("web", "name", false)
	if !c2.Remove(top) {
		t.Errorf("remove name")
	}
	// Errors.
	bad, _ := ParseKey("web", "name.sub", true)
	c2.Config["web:name"] = "scalar"
	if err := c2.Set(bad, "x", false, nil); err == nil {
		t.Errorf("setting a key of a scalar succeeded")
	}
	if err := c2.Set(top, "x", true, nil); err == nil {
		t.Errorf("a secret without a crypter succeeded")
	}
}

func TestParseKey(t *testing.T) {
	tests := []struct {
		key  string
		path bool
		want string
		sub  string
	}{
		{"name", false, "proj:name", ""},
		{"aws:region", false, "aws:region", ""},
		{"tags.env", true, "proj:tags", "env"},
		{"aws:tags.env", true, "aws:tags", "env"},
		{"names[0]", true, "proj:names", "[0]"},
		{"a.b", false, "proj:a.b", ""},
	}
	for _, tt := range tests {
		k, err := ParseKey("proj", tt.key, tt.path)
		if err != nil {
			t.Errorf("%q: %v", tt.key, err)
			continue
		}
		if k.Name != tt.want || k.Path.String() != tt.sub {
			t.Errorf("%q → %q %q, want %q %q", tt.key, k.Name, k.Path.String(), tt.want, tt.sub)
		}
	}
	for _, bad := range []string{"", ":x", "a:b:c", "a:"} {
		if _, err := ParseKey("proj", bad, false); err == nil {
			t.Errorf("ParseKey(%q) succeeded", bad)
		}
	}
}

func TestSelectedStack(t *testing.T) {
	home := t.TempDir()
	p := &Project{Name: "web", Path: "/x/Pulumi.yaml"}
	if s, err := SelectedStack(home, p); err != nil || s != "" {
		t.Fatalf("initially %q %v", s, err)
	}
	if err := SelectStack(home, p, "dev"); err != nil {
		t.Fatal(err)
	}
	other := &Project{Name: "web", Path: "/y/Pulumi.yaml"}
	if s, _ := SelectedStack(home, p); s != "dev" {
		t.Errorf("selected = %q", s)
	}
	if s, _ := SelectedStack(home, other); s != "" {
		t.Errorf("another project with the same name shares the selection: %q", s)
	}
	if err := SelectStack(home, p, ""); err != nil {
		t.Fatal(err)
	}
	if s, _ := SelectedStack(home, p); s != "" {
		t.Errorf("after unselect: %q", s)
	}
}

func TestLooksLikeCredential(t *testing.T) {
	tests := []struct {
		key  string
		path bool
		want bool
	}{
		{"dbPassword", false, true},
		{"api_key", false, true},
		{"aws:secretKey", false, true},
		{"github-token", false, true},
		{"tls.privateKey", true, true},
		{"SERVICE_CREDENTIALS", false, true},
		{"region", false, false},
		{"aws:region", false, false},
		{"tokenizer", false, true}, // a false positive costs a warning only
		{"keyName", false, false},
	}
	for _, tt := range tests {
		k, err := ParseKey("secret", tt.key, tt.path) // the namespace does not count
		if err != nil {
			t.Fatal(err)
		}
		if got := LooksLikeCredential(k); got != tt.want {
			t.Errorf("LooksLikeCredential(%q) = %v, want %v", tt.key, got, tt.want)
		}
	}
}

// TestTerraformProject reads a folder of .tf files without a project file
// as a project named after the folder, and its Terraform files without
// those Terraform ignores.
func TestTerraformProject(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "my web")
	write(t, filepath.Join(dir, "main.tf"), "")
	write(t, filepath.Join(dir, "vars.tf.json"), "{}")
	for _, ignored := range []string{".hidden.tf", "#main.tf#", "main.tf~", "notes.hcl"} {
		write(t, filepath.Join(dir, ignored), "")
	}
	p, err := LoadProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "my-web" || p.Runtime != "hcl" || !p.Implied || p.Dir != dir || p.Path != "" {
		t.Errorf("project = %+v", p)
	}
	files := TerraformFiles(dir)
	if len(files) != 2 || filepath.Base(files[0]) != "main.tf" || filepath.Base(files[1]) != "vars.tf.json" {
		t.Errorf("files = %v", files)
	}
	home := t.TempDir()
	if err := SelectStack(home, p, "dev"); err != nil {
		t.Fatal(err)
	}
	if got, _ := SelectedStack(home, p); got != "dev" {
		t.Errorf("selected %q", got)
	}
	// OpenTofu's .tofu files stand in for the .tf files of their names.
	write(t, filepath.Join(dir, "main.tofu"), "")
	write(t, filepath.Join(dir, "extra.tofu.json"), "{}")
	var names []string
	for _, f := range TerraformFiles(dir) {
		names = append(names, filepath.Base(f))
	}
	if got := strings.Join(names, " "); got != "extra.tofu.json main.tofu vars.tf.json" {
		t.Errorf("files with .tofu ones = %s", got)
	}

	// With a project file, the folder is that project.
	write(t, filepath.Join(dir, "Pulumi.yaml"), "name: web\nruntime: hcl\n")
	if p, err = LoadProject(dir); err != nil || p.Name != "web" || p.Implied {
		t.Errorf("project = %+v, %v", p, err)
	}
}
