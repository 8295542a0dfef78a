package tfinstall

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tarGz returns a .tar.gz archive of files (name -> content).
func tarGz(t testing.TB, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(files[name])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(files[name]))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	return buf.Bytes()
}

// addModule publishes versions of a registry module, each a package of a
// main.tf and a sub/main.tf saying which version it is.
func (w *world) addModule(module string, versions ...string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.modules[module] == nil {
		w.modules[module] = map[string][]byte{}
	}
	for _, v := range versions {
		w.modules[module][v] = tarGz(w.t, map[string]string{"main.tf": "# " + module + " " + v + "\n", "sub/main.tf": "# sub " + v + "\n"})
	}
}

// serveModules serves the module registry under /v1/modules/ and its
// packages under /archives/.
func (w *world) serveModules(rw http.ResponseWriter, r *http.Request, parts []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case parts[0] == "archives" && len(parts) == 5:
		if pkg := w.modules[strings.Join(parts[1:4], "/")][strings.TrimSuffix(parts[4], ".tar.gz")]; pkg != nil {
			rw.Write(pkg)
			return
		}
	case len(parts) == 6 && parts[5] == "versions":
		versions := w.modules[strings.Join(parts[2:5], "/")]
		if versions == nil {
			break
		}
		var list []map[string]string
		for v := range versions {
			list = append(list, map[string]string{"version": v})
		}
		writeJSON(rw, map[string]any{"modules": []any{map[string]any{"versions": list}}})
		return
	case len(parts) == 7 && parts[6] == "download" && w.modules[strings.Join(parts[2:5], "/")][parts[5]] != nil:
		archive := "/archives/" + strings.Join(parts[2:6], "/") + ".tar.gz"
		if w.jsonLocation {
			writeJSON(rw, map[string]string{"location": "https://api.example.com" + archive})
			return
		}
		rw.Header().Set("X-Terraform-Get", archive)
		rw.WriteHeader(http.StatusNoContent)
		return
	}
	http.NotFound(rw, r)
}

// moduleOptions returns options for installing the modules of a new
// configuration folder through the world, with the CLI configuration
// given.
func (w *world) moduleOptions(cliConfig string) ModuleOptions {
	o := w.options(cliConfig)
	return ModuleOptions{Dir: o.ProjectDir, CLIConfigFile: o.CLIConfigFile, HTTPClient: w.client, Log: w.t.Logf}
}

func newModules(t *testing.T, opts ModuleOptions) *Modules {
	t.Helper()
	m, err := NewModules(opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func install(t *testing.T, m *Modules, call ModuleCall) string {
	t.Helper()
	dir, err := m.Install(context.Background(), call)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func manifest(t *testing.T, dir string) []moduleRecord {
	t.Helper()
	var doc struct{ Modules []moduleRecord }
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(dir, ModuleManifest))), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Modules
}

func TestRegistryModule(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	w.addModule("corp/net/aws", "1.0.0", "1.2.0", "2.0.0", "1.3.0-beta")
	opts := w.moduleOptions("")
	m := newModules(t, opts)
	call := ModuleCall{Key: "net", Source: "example.com/corp/net/aws//sub", Version: "~> 1.0"}
	dir := install(t, m, call)
	if want := filepath.Join(opts.Dir, ".terraform", "modules", "net", "sub"); dir != want {
		t.Fatalf("installed in %s, want %s", dir, want)
	}
	if got := readFile(t, filepath.Join(dir, "main.tf")); got != "# sub 1.2.0\n" {
		t.Fatalf("installed %q, want the newest 1.x, 1.2.0", got)
	}
	// A local path within the module names a folder of its package, and
	// only that.
	if got := install(t, m, ModuleCall{Key: "net.root", Source: "../", Dir: filepath.Dir(dir)}); got != filepath.Dir(dir) {
		t.Fatalf("local module in the package: %s", got)
	}
	if _, err := m.Install(context.Background(), ModuleCall{Key: "net.out", Source: "../../x", Dir: filepath.Join(dir, "..", "..", "x")}); err == nil ||
		!strings.Contains(err.Error(), "leads out of the package module.net was installed from (.terraform/modules/net)") {
		t.Fatalf("a local path out of the package: %v", err)
	}
	if err := m.Save(true); err != nil {
		t.Fatal(err)
	}
	want := []moduleRecord{{Key: "", Dir: "."}, {Key: "net", Source: "example.com/corp/net/aws//sub", Version: "1.2.0", Dir: ".terraform/modules/net/sub"},
		{Key: "net.root", Source: "../", Dir: ".terraform/modules/net"}}
	if got := manifest(t, opts.Dir); !slices.Equal(got, want) {
		t.Fatalf("manifest:\n%+v\nwant\n%+v", got, want)
	}
	paths := func() (out []string) {
		for _, s := range w.seen() {
			out = append(out, s.host+s.path)
		}
		return out
	}
	if got, want := paths(), []string{"example.com/.well-known/terraform.json", "example.com/v1/modules/corp/net/aws/versions",
		"example.com/v1/modules/corp/net/aws/1.2.0/download", "example.com/archives/corp/net/aws/1.2.0.tar.gz"}; !slices.Equal(got, want) {
		t.Fatalf("requests:\n%v\nwant\n%v", got, want)
	}

	// A module that calls itself is refused before it is fetched again.
	if _, err := m.Install(context.Background(), ModuleCall{Key: "net.root.again", Source: call.Source, Version: "1.0.0"}); err == nil ||
		!strings.Contains(err.Error(), "module.net is installed from example.com/corp/net/aws//sub too; a module cannot contain itself") {
		t.Fatalf("a module calling itself: %v", err)
	}

	// Recorded, it is used again without the network while the source and
	// constraints hold; other constraints install another version.
	w.forget()
	m = newModules(t, opts)
	if got := install(t, m, call); got != dir || len(w.seen()) > 0 {
		t.Fatalf("reinstalled (%s, %v)", got, w.seen())
	}
	call.Version = ">= 2"
	if got := readFile(t, filepath.Join(install(t, m, call), "main.tf")); got != "# sub 2.0.0\n" {
		t.Fatalf("after a change of constraints: %q", got)
	}
	// Saved complete, the manifest records the calls seen only.
	if err := m.Save(true); err != nil {
		t.Fatal(err)
	}
	if got := manifest(t, opts.Dir); len(got) != 2 || got[1].Version != "2.0.0" {
		t.Fatalf("manifest: %+v", got)
	}

	// Offline, a module not installed is an error saying what the
	// manifest has.
	opts.Offline = true
	_, err := newModules(t, opts).Install(context.Background(), ModuleCall{Key: "net", Source: "example.com/corp/net/aws", Version: "1.0.0"})
	if err == nil || !strings.Contains(err.Error(), "example.com/corp/net/aws is not installed (.terraform/modules/modules.json records example.com/corp/net/aws//sub 2.0.0) and modules are not downloaded offline") {
		t.Fatalf("offline: %v", err)
	}
}

func TestRegistryModuleErrors(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	w.addModule("corp/net/aws", "1.0.0", "1.1.0")
	m := newModules(t, w.moduleOptions(""))
	for _, c := range []struct{ source, version, err string }{
		{"example.com/corp/net/aws", "~> 2.0", "/v1/modules/corp/net/aws/versions: no version of example.com/corp/net/aws matches ~> 2.0; the registry has 1.1.0, 1.0.0"},
		{"example.com/corp/web/aws", "", "/v1/modules/corp/web/aws/versions: the registry has no module example.com/corp/web/aws"},
		{"releases.example.com/corp/net/aws", "", "releases.example.com is not a module registry (it offers no modules.v1 service)"},
		{"example.com/corp/net/aws", "~> x", "version constraints \"~> x\""},
		{"git::https://example.com/x.git", "1.0.0", "version applies to registry modules only"},
		{"s3::https://s3.amazonaws.com/bucket/x.zip", "", "not with the s3 getter"},
		{"hg::https://example.com/x", "", "not with the hg getter"},
		{"bucket.s3.amazonaws.com/x.zip", "", "not from S3 or GCS buckets"},
		{"example.com/corp/net/aws//../x", "", "is not within the package"},
	} {
		_, err := m.Install(context.Background(), ModuleCall{Key: "x", Source: c.source, Version: c.version})
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s %s: got %v, want %q", c.source, c.version, err, c.err)
		}
	}
	// Keys name folders: one that is not a module key is refused.
	if _, err := m.Install(context.Background(), ModuleCall{Key: "../x", Source: "example.com/corp/net/aws"}); err == nil || !strings.Contains(err.Error(), `"../x" is not a module key`) {
		t.Errorf("key ../x: %v", err)
	}
}

func TestRegistryModuleCredentials(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	w.addModule("corp/net/aws", "1.0.0")
	w.token, w.jsonLocation = "s3cret", true
	m := newModules(t, w.moduleOptions(`credentials "example.com" { token = "s3cret" }`))
	install(t, m, ModuleCall{Key: "net", Source: "example.com/corp/net/aws"})
	for _, s := range w.seen() {
		if (s.host == "example.com") != (s.auth == "Bearer s3cret") {
			t.Errorf("%s%s: Authorization %q", s.host, s.path, s.auth)
		}
	}
	if got := w.seen()[len(w.seen())-1]; got.host+got.path != "api.example.com/archives/corp/net/aws/1.0.0.tar.gz" {
		t.Fatalf("the package came from %s%s", got.host, got.path)
	}
}

// TestRegistryCredentialsElsewhere checks that when a registry's service
// discovery names another host for its services, the requests to that
// host carry the token of the registry's own host, as OpenTofu sends them
// (it asks for the credentials of the address's hostname), not the token
// of the host the request goes to; archives go without.
func TestRegistryCredentialsElsewhere(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	w.addModule("corp/net/aws", "1.0.0")
	w.add("hashicorp/null", "1.0.0")
	w.sign(nil)
	w.token, w.elsewhere, w.jsonLocation = "s3cret", true, true
	t.Setenv("TF_TOKEN_example_com", "s3cret")
	t.Setenv("TF_TOKEN_api_example_com", "not-this-one")
	m := newModules(t, w.moduleOptions(""))
	install(t, m, ModuleCall{Key: "net", Source: "example.com/corp/net/aws"})
	if _, err := Install(context.Background(), w.options(""), Request{Source: "example.com/hashicorp/null"}); err != nil {
		t.Fatal(err)
	}
	services := 0
	for _, s := range w.seen() {
		api := s.host == "api.example.com" && strings.HasPrefix(s.path, "/v1/")
		if api {
			services++
		}
		if want := s.host == "example.com" || api; (s.auth == "Bearer s3cret") != want {
			t.Errorf("%s%s: Authorization %q", s.host, s.path, s.auth)
		}
	}
	if services < 4 {
		t.Errorf("only %d requests went to the services on api.example.com: %v", services, w.seen())
	}
}

// gitRepo makes a git repository with a commit tagged v1 (main.tf says
// v1, sub/main.tf sub v1) and a later one on its branch main (v2).
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	repo := t.TempDir()
	run := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q", "-b", "main")
	for _, v := range []string{"v1", "v2"} {
		writeFile(t, filepath.Join(repo, "main.tf"), []byte("# "+v+"\n"))
		writeFile(t, filepath.Join(repo, "sub", "main.tf"), []byte("# sub "+v+"\n"))
		run("add", "-A")
		run("commit", "-q", "-m", v)
		run("tag", v)
	}
	return repo
}

func TestGitModule(t *testing.T) {
	isolate(t)
	repo := gitRepo(t)
	opts := ModuleOptions{Dir: t.TempDir(), Log: t.Logf}
	m := newModules(t, opts)
	for _, c := range []struct{ source, file, want string }{
		{"git::file://" + repo + "?ref=v1", "main.tf", "# v1\n"},
		{"git::file://" + repo, "main.tf", "# v2\n"},
		{"git::file://" + repo + "//sub?ref=v1&depth=1", "main.tf", "# sub v1\n"},
	} {
		dir := install(t, m, ModuleCall{Key: "g", Source: c.source})
		if got := readFile(t, filepath.Join(dir, c.file)); got != c.want {
			t.Errorf("%s: %s says %q, want %q", c.source, c.file, got, c.want)
		}
	}
	for ref, want := range map[string]string{"v9": "git checkout --quiet v9", "--orphan=x": "ref=--orphan=x is not a branch, tag or commit"} {
		_, err := m.Install(context.Background(), ModuleCall{Key: "g", Source: "git::file://" + repo + "?ref=" + ref})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ref %s: %v", ref, err)
		}
	}
}

func TestHTTPModule(t *testing.T) {
	isolate(t)
	pkg := tarGz(t, map[string]string{"main.tf": "# archive\n", "sub/main.tf": "# archive sub\n"})
	srv := newHTTPServer(t, map[string]func(http.ResponseWriter, *http.Request){
		"/m.tar.gz": func(rw http.ResponseWriter, r *http.Request) { rw.Write(pkg) },
		"/dl": func(rw http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("id") == "7" {
				rw.Write(pkg)
				return
			}
			http.NotFound(rw, r)
		},
		"/get": func(rw http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("terraform-get") == "1" {
				rw.Header().Set("X-Terraform-Get", "./m.tar.gz//sub")
				rw.WriteHeader(http.StatusNoContent)
			}
		},
		"/page": func(rw http.ResponseWriter, r *http.Request) {
			rw.Write([]byte(`<html><head><meta name="terraform-get" content="/dl?archive=tgz&id=7"></head></html>`))
		},
	})
	m := newModules(t, ModuleOptions{Dir: t.TempDir(), Log: t.Logf})
	for _, c := range []struct{ source, want string }{
		{srv + "/m.tar.gz", "# archive\n"},
		{srv + "/m.tar.gz//sub", "# archive sub\n"},
		{srv + "/dl?archive=tar.gz&id=7", "# archive\n"},
		{srv + "/get", "# archive sub\n"},
		{srv + "/page//sub", "# archive sub\n"},
	} {
		dir := install(t, m, ModuleCall{Key: "h", Source: c.source})
		if got := readFile(t, filepath.Join(dir, "main.tf")); got != c.want {
			t.Errorf("%s: %q, want %q", c.source, got, c.want)
		}
	}
	_, err := m.Install(context.Background(), ModuleCall{Key: "h", Source: srv + "/nothing"})
	if err == nil || !strings.Contains(err.Error(), "/nothing: not found") {
		t.Fatalf("no package: %v", err)
	}
}

// newHTTPServer serves handlers by path over plain http, returning its URL.
func newHTTPServer(t *testing.T, handlers map[string]func(http.ResponseWriter, *http.Request)) string {
	mux := http.NewServeMux()
	for p, h := range handlers {
		mux.HandleFunc(p, h)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestGitEnvironment checks that the git program fetching a module does
// not see the passphrase, the backend URL or registry tokens.
func TestGitEnvironment(t *testing.T) {
	bin, dump := t.TempDir(), filepath.Join(t.TempDir(), "env")
	writeFile(t, filepath.Join(bin, "git"), []byte("#!/bin/sh\n/usr/bin/env > "+dump+"\n"))
	if err := os.Chmod(filepath.Join(bin, "git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	t.Setenv("CAIRN_CONFIG_PASSPHRASE", "passphrase-value")
	t.Setenv("TF_TOKEN_example_com", "token-value")
	t.Setenv("CAIRN_BACKEND_URL", "postgres://u:password-value@h/db")
	if err := git(context.Background(), "", "version"); err != nil {
		t.Fatal(err)
	}
	env := readFile(t, dump)
	for _, secret := range []string{"passphrase-value", "token-value", "password-value"} {
		if strings.Contains(env, secret) {
			t.Errorf("git saw %s in its environment:\n%s", secret, env)
		}
	}
	if !strings.Contains(env, "GIT_TERMINAL_PROMPT=0") {
		t.Errorf("git may prompt:\n%s", env)
	}
}
