package tfinstall

import (
	"archive/zip"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	"golang.org/x/mod/sumdb/dirhash"
)

// providerZip returns a provider package: an executable shell script
// that prints the provider's type and version, and a README.
func providerZip(t testing.TB, typ, version string) []byte {
	t.Helper()
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	files := []struct {
		name, body string
		mode       os.FileMode
	}{
		{"terraform-provider-" + typ + "_v" + version, "#!/bin/sh\necho " + typ + " " + version + "\n", 0o755},
		{"README.md", "# " + typ + "\n", 0o644},
	}
	for _, f := range files {
		h := &zip.FileHeader{Name: f.name, Method: zip.Deflate}
		h.SetMode(f.mode)
		w, err := z.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(f.body))
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// h1Zip returns the h1: hash of a zip's contents.
func h1Zip(t testing.TB, zipBytes []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.zip")
	if err := os.WriteFile(path, zipBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := dirhash.HashZip(path, dirhash.Hash1)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func zh(b []byte) string {
	sum := sha256.Sum256(b)
	return "zh:" + hex.EncodeToString(sum[:])
}

// world is a loopback HTTPS server playing several hosts, told apart by
// the Host header: a provider registry at example.com, its release
// downloads at releases.example.com, a network mirror at
// mirror.example.com and api.example.com, where the registry may redirect.
// The client of a world dials every *example.com name to it and trusts its
// certificate.
type world struct {
	t      *testing.T
	srv    *httptest.Server
	client *http.Client
	signer *openpgp.Entity // nil: the registry lists no signing keys
	listed *openpgp.Entity // the key the registry lists, when not signer

	mu       sync.Mutex
	packages map[string]map[string][]byte // "namespace/type" -> version -> zip
	requests []seen
	token    string // the registry and mirror demand it when set
	badSums  bool   // SHA256SUMS lists another checksum for the package
	wrongZip []byte // served instead of the package the registry describes
	redirect bool   // the registry's versions answers redirect to api.example.com
	// elsewhere makes example.com's service discovery name api.example.com
	// for its providers.v1 and modules.v1 services, which then demand the
	// token too.
	elsewhere bool
	failures  int // the registry's next answers to versions requests are 503s
	mirrorH1s []string
	// modules are the registry's modules: "namespace/name/system" ->
	// version -> package (a .tar.gz archive).
	modules map[string]map[string][]byte
	// jsonLocation makes module downloads answer with a JSON location on
	// api.example.com rather than a relative X-Terraform-Get header.
	jsonLocation bool
}

type seen struct {
	host, path, auth string
}

func newWorld(t *testing.T) *world {
	w := &world{t: t, packages: map[string]map[string][]byte{}, modules: map[string]map[string][]byte{}}
	w.srv = httptest.NewTLSServer(http.HandlerFunc(w.serve))
	t.Cleanup(w.srv.Close)
	transport := w.srv.Client().Transport.(*http.Transport).Clone()
	addr := w.srv.Listener.Addr().String()
	transport.DialContext = func(ctx context.Context, network, hostport string) (net.Conn, error) {
		host, _, _ := net.SplitHostPort(hostport)
		if host != "example.com" && !strings.HasSuffix(host, ".example.com") {
			return nil, fmt.Errorf("the test network has no %s", hostport)
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	w.client = &http.Client{Transport: transport}
	return w
}

// sign makes the registry list a signing key and sign its checksums.
func (w *world) sign(cfg *packet.Config) *openpgp.Entity {
	w.t.Helper()
	if cfg == nil {
		cfg = &packet.Config{}
	}
	cfg.Algorithm = packet.PubKeyAlgoEdDSA
	e, err := openpgp.NewEntity("Test Provider Signer", "", "signer@example.com", cfg)
	if err != nil {
		w.t.Fatal(err)
	}
	w.signer = e
	return e
}

// add publishes versions of a provider "namespace/type".
func (w *world) add(provider string, versions ...string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.packages[provider] == nil {
		w.packages[provider] = map[string][]byte{}
	}
	_, typ, _ := strings.Cut(provider, "/")
	for _, v := range versions {
		w.packages[provider][v] = providerZip(w.t, typ, v)
	}
}

func (w *world) zip(provider, version string) []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.packages[provider][version]
}

func (w *world) seen() []seen {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.requests)
}

func (w *world) forget() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.requests = nil
}

func (w *world) serve(rw http.ResponseWriter, r *http.Request) {
	host, _, _ := strings.Cut(r.Host, ":")
	w.mu.Lock()
	w.requests = append(w.requests, seen{host, r.URL.Path, r.Header.Get("Authorization")})
	token, elsewhere := w.token, w.elsewhere
	w.mu.Unlock()
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	authorized := token == "" || r.Header.Get("Authorization") == "Bearer "+token
	switch host {
	case "example.com", "api.example.com":
		if (host == "example.com" || elsewhere && strings.HasPrefix(r.URL.Path, "/v1/")) && !authorized {
			http.Error(rw, "token required", http.StatusUnauthorized)
			return
		}
		w.serveRegistry(rw, r, host, parts)
	case "releases.example.com":
		w.serveReleases(rw, parts)
	case "mirror.example.com":
		if !authorized && strings.HasSuffix(r.URL.Path, ".json") {
			http.Error(rw, "token required", http.StatusUnauthorized)
			return
		}
		w.serveMirror(rw, parts)
	default:
		http.NotFound(rw, r)
	}
}

func writeJSON(rw http.ResponseWriter, v any) {
	rw.Header().Set("Content-Type", "application/json")
	json.NewEncoder(rw).Encode(v)
}

func (w *world) versions(provider string) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var vs []string
	for v := range w.packages[provider] {
		vs = append(vs, v)
	}
	sort.Strings(vs)
	return vs
}

func (w *world) serveRegistry(rw http.ResponseWriter, r *http.Request, host string, parts []string) {
	if r.URL.Path == "/.well-known/terraform.json" {
		base := ""
		if w.elsewhere {
			base = "https://api.example.com"
		}
		writeJSON(rw, map[string]string{"providers.v1": base + "/v1/providers/", "modules.v1": base + "/v1/modules/"})
		return
	}
	if parts[0] == "archives" || len(parts) > 1 && parts[1] == "modules" {
		w.serveModules(rw, r, parts)
		return
	}
	if len(parts) < 5 || parts[0] != "v1" || parts[1] != "providers" {
		http.NotFound(rw, r)
		return
	}
	provider := parts[2] + "/" + parts[3]
	goos, goarch, _ := strings.Cut(platform, "_")
	switch {
	case len(parts) == 5 && parts[4] == "versions":
		w.mu.Lock()
		redirect, fail := w.redirect, w.failures > 0
		w.failures--
		w.mu.Unlock()
		if fail {
			http.Error(rw, "try again", http.StatusServiceUnavailable)
			return
		}
		if redirect && host == "example.com" {
			http.Redirect(rw, r, "https://api.example.com"+r.URL.Path, http.StatusFound)
			return
		}
		vs := w.versions(provider)
		if len(vs) == 0 {
			http.NotFound(rw, r)
			return
		}
		var list []map[string]any
		for _, v := range vs {
			list = append(list, map[string]any{
				"version":   v,
				"protocols": []string{"5.0"},
				"platforms": []map[string]string{{"os": goos, "arch": goarch}, {"os": "plan9", "arch": "mips"}},
			})
		}
		writeJSON(rw, map[string]any{"versions": list})
	case len(parts) == 8 && parts[5] == "download":
		v := parts[4]
		pkg := w.zip(provider, v)
		if pkg == nil || parts[6]+"_"+parts[7] != platform {
			http.NotFound(rw, r)
			return
		}
		sum := sha256.Sum256(pkg)
		filename := fmt.Sprintf("terraform-provider-%s_%s_%s.zip", parts[3], v, platform)
		base := fmt.Sprintf("https://releases.example.com/%s/%s/", provider, v)
		answer := map[string]any{
			"protocols":             []string{"5.0"},
			"os":                    goos,
			"arch":                  goarch,
			"filename":              filename,
			"download_url":          base + filename,
			"shasums_url":           base + "SHA256SUMS",
			"shasums_signature_url": base + "SHA256SUMS.sig",
			"shasum":                hex.EncodeToString(sum[:]),
			"signing_keys":          map[string]any{"gpg_public_keys": []any{}},
		}
		if key := cmp.Or(w.listed, w.signer); key != nil {
			answer["signing_keys"] = map[string]any{"gpg_public_keys": []any{map[string]string{
				"key_id":      key.PrimaryKey.KeyIdString(),
				"ascii_armor": armoredPublicKey(w.t, key),
			}}}
		}
		writeJSON(rw, answer)
	default:
		http.NotFound(rw, r)
	}
}

// otherPlatformZip stands for another platform's package in SHA256SUMS.
var otherPlatformZip = []byte("the plan9_mips package")

func (w *world) sums(provider, v string) []byte {
	_, typ, _ := strings.Cut(provider, "/")
	pkg := w.zip(provider, v)
	w.mu.Lock()
	bad := w.badSums
	w.mu.Unlock()
	if bad {
		pkg = []byte("something else")
	}
	return []byte(fmt.Sprintf("%s  terraform-provider-%s_%s_%s.zip\n%s  terraform-provider-%s_%s_plan9_mips.zip\n",
		strings.TrimPrefix(zh(pkg), "zh:"), typ, v, platform, strings.TrimPrefix(zh(otherPlatformZip), "zh:"), typ, v))
}

func (w *world) serveReleases(rw http.ResponseWriter, parts []string) {
	if len(parts) != 4 {
		http.NotFound(rw, nil)
		return
	}
	provider, v, file := parts[0]+"/"+parts[1], parts[2], parts[3]
	switch {
	case file == "SHA256SUMS":
		rw.Write(w.sums(provider, v))
	case file == "SHA256SUMS.sig" && w.signer != nil:
		var sig bytes.Buffer
		if err := openpgp.DetachSign(&sig, w.signer, bytes.NewReader(w.sums(provider, v)), w.signConfig()); err != nil {
			w.t.Error(err)
		}
		rw.Write(sig.Bytes())
	case strings.HasSuffix(file, ".zip") && w.zip(provider, v) != nil:
		w.mu.Lock()
		pkg := w.wrongZip
		w.mu.Unlock()
		if pkg == nil {
			pkg = w.zip(provider, v)
		}
		rw.Write(pkg)
	default:
		http.NotFound(rw, nil)
	}
}

// signTime is when signatures are made: now, unless a test of expired
// keys sets it in the past.
var signTime func() time.Time

func (w *world) signConfig() *packet.Config {
	return &packet.Config{Time: signTime}
}

func armoredPublicKey(t testing.TB, e *openpgp.Entity) string {
	var buf bytes.Buffer
	a, err := armor.Encode(&buf, openpgp.PublicKeyType, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Serialize(a); err != nil {
		t.Fatal(err)
	}
	a.Close()
	return buf.String()
}

// serveMirror serves a network mirror under /providers/:
// HOST/NAMESPACE/TYPE/index.json, VERSION.json and the zips beside them.
func (w *world) serveMirror(rw http.ResponseWriter, parts []string) {
	if len(parts) != 5 || parts[0] != "providers" || parts[1] != "example.com" {
		http.NotFound(rw, nil)
		return
	}
	provider, file := parts[2]+"/"+parts[3], parts[4]
	switch {
	case file == "index.json":
		vs := w.versions(provider)
		if len(vs) == 0 {
			http.NotFound(rw, nil)
			return
		}
		index := map[string]any{}
		for _, v := range vs {
			index[v] = map[string]any{}
		}
		writeJSON(rw, map[string]any{"versions": index})
	case strings.HasSuffix(file, ".json"):
		v := strings.TrimSuffix(file, ".json")
		pkg := w.zip(provider, v)
		if pkg == nil {
			http.NotFound(rw, nil)
			return
		}
		w.mu.Lock()
		hashes := w.mirrorH1s
		w.mu.Unlock()
		if hashes == nil {
			hashes = []string{h1Zip(w.t, pkg)}
		}
		writeJSON(rw, map[string]any{"archives": map[string]any{
			platform: map[string]any{"url": fmt.Sprintf("terraform-provider-%s_%s_%s.zip", parts[3], v, platform), "hashes": hashes},
		}})
	case strings.HasSuffix(file, ".zip"):
		name := strings.TrimPrefix(file, "terraform-provider-"+parts[3]+"_")
		v, _, _ := strings.Cut(name, "_")
		if pkg := w.zip(provider, v); pkg != nil {
			rw.Write(pkg)
			return
		}
		http.NotFound(rw, nil)
	default:
		http.NotFound(rw, nil)
	}
}

// isolate points HOME and the XDG folders at an empty folder and clears
// the variables that steer installation, so that no configuration, mirror
// or token of the machine running the tests takes part.
func isolate(t *testing.T) string {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_DATA_DIRS"} {
		t.Setenv(v, filepath.Join(home, strings.ToLower(v)))
	}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "TF_") || strings.HasPrefix(name, "OPENTOFU_") || name == "TERRAFORM_CONFIG" {
			t.Setenv(name, "")
		}
	}
	return home
}

// writeFile writes content to path, making its folder.
func writeFile(t testing.TB, path string, content []byte) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// options returns installation options for a test: a project folder, a
// cache, the CLI configuration given (none when empty) and the world's
// client.
func (w *world) options(cliConfig string) Options {
	dir := w.t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "project"), 0o755); err != nil {
		w.t.Fatal(err)
	}
	return Options{
		ProjectDir:    filepath.Join(dir, "project"),
		CLIConfigFile: writeFile(w.t, filepath.Join(dir, "cli.tfrc"), []byte(cliConfig)),
		CacheDir:      filepath.Join(dir, "cache"),
		HTTPClient:    w.client,
		Log:           w.t.Logf,
	}
}

// run runs a package's executable, returning what it prints.
func run(t testing.TB, pkg *Package) string {
	t.Helper()
	out, err := exec.Command(pkg.Executable).Output()
	if err != nil {
		t.Fatalf("running %s: %v", pkg.Executable, err)
	}
	return strings.TrimSpace(string(out))
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
