package install

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/locate"
)

// tarball returns a plugin release tarball holding files, by name.
func tarball(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var spec = Spec{Kind: locate.Resource, Name: "demo", Version: "1.2.3"}

func demoTarball(t *testing.T) []byte {
	return tarball(t, map[string]string{"pulumi-resource-demo": "#!/bin/sh\n", "README.md": "demo\n"})
}

// serve serves body as the tarball of spec and counts the requests.
func serve(t *testing.T, body []byte) (*httptest.Server, *int) {
	var mu sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/releases/"+spec.Asset() {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		n++
		mu.Unlock()
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// listing returns the names in dir, hidden ones included.
func listing(t *testing.T, dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestInstallFromServer(t *testing.T) {
	body := demoTarball(t)
	srv, _ := serve(t, body)
	sum := sha256.Sum256(body)
	in := Installer{Dir: t.TempDir()}
	s := spec
	s.Server, s.Checksum = srv.URL+"/releases", hex.EncodeToString(sum[:])
	dir, err := in.Install(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(in.Dir, "resource-demo-v1.2.3"); dir != want {
		t.Errorf("installed into %s, want %s", dir, want)
	}
	c, ok := locate.Best((locate.Dirs{Plugins: []string{in.Dir}}).Find(locate.Resource, "demo"), "1.2.3")
	if !ok || c.Version != "1.2.3" {
		t.Errorf("locate does not find the install: %+v", c)
	}
	if got := strings.Join(listing(t, in.Dir), " "); got != "resource-demo-v1.2.3 resource-demo-v1.2.3.lock" {
		t.Errorf("cache holds %s", got)
	}
}

func TestInstallChecksumMismatch(t *testing.T) {
	srv, _ := serve(t, demoTarball(t))
	in := Installer{Dir: t.TempDir()}
	s := spec
	s.Server, s.Checksum = srv.URL+"/releases/", strings.Repeat("0", 64)
	_, err := in.Install(context.Background(), s)
	if err == nil || !strings.Contains(err.Error(), "not the expected "+s.Checksum) {
		t.Fatalf("err = %v, want a checksum mismatch", err)
	}
	if got := listing(t, in.Dir); len(got) != 1 {
		t.Errorf("a refused install left %q", got)
	}
}

func TestInstallCutShort(t *testing.T) {
	body := demoTarball(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		_, _ = w.Write(body[:len(body)/2])
		// The handler returns early: the server closes the connection.
	}))
	defer srv.Close()
	in := Installer{Dir: t.TempDir()}
	s := spec
	s.Server = srv.URL
	if _, err := in.Install(context.Background(), s); err == nil {
		t.Fatal("a download cut in the middle was installed")
	}
	if got := listing(t, in.Dir); len(got) != 1 || !strings.HasSuffix(got[0], ".lock") {
		t.Errorf("a cut download left %q", got)
	}
}

func TestInstallConcurrent(t *testing.T) {
	srv, n := serve(t, demoTarball(t))
	in := Installer{Dir: t.TempDir()}
	s := spec
	s.Server = srv.URL + "/releases"
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			other := in // separate installers share only the cache folder
			_, errs[i] = other.Install(context.Background(), s)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if *n != 1 {
		t.Errorf("%d downloads, want 1: the others should find it installed", *n)
	}
}

func TestInstallGitHub(t *testing.T) {
	body := demoTarball(t)
	var srv *httptest.Server
	srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/repos/acme/pulumi-demo/releases/tags/v1.2.3":
			fmt.Fprintf(w, `{"assets":[{"name":%q,"url":"%s/asset/7"}]}`, spec.Asset(), srv.URL)
		case "/asset/7":
			if r.Header.Get("Accept") != "application/octet-stream" {
				http.Error(w, "want octet-stream", http.StatusBadRequest)
				return
			}
			_, _ = w.Write(body)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	in := Installer{Dir: t.TempDir(), Client: srv.Client()}
	s := spec
	s.Server = "github://" + strings.TrimPrefix(srv.URL, "https://") + "/acme"
	if _, err := in.Install(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	s.Version, s.Name = "9.9.9", "demo"
	_, err := in.Install(context.Background(), s)
	if err == nil || !strings.Contains(err.Error(), "releases/tags/v9.9.9") || !strings.Contains(err.Error(), "--file") {
		t.Errorf("err = %v, want the URL tried and how to install from a file", err)
	}
}

func TestOverrides(t *testing.T) {
	o, err := ParseOverrides(`^https://elsewhere/(.*)$=https://mirror.example/$1/${VERSION},^github://api.github.com/(?P<org>[a-z]+)/=https://${org}.example/`)
	if err != nil {
		t.Fatal(err)
	}
	in := Installer{Overrides: o}
	for _, tt := range []struct {
		spec Spec
		want []string
	}{
		{Spec{Name: "demo", Server: "https://elsewhere/demo"}, []string{"https://mirror.example/demo/${VERSION}"}},
		{Spec{Name: "demo", Server: "https://other/"}, []string{"https://other/"}},
		{Spec{Name: "aws"}, []string{"https://pulumi.example/"}},
	} {
		if got := in.sources(tt.spec); !slices.Equal(got, tt.want) {
			t.Errorf("sources(%+v) = %q, want %q", tt.spec, got, tt.want)
		}
	}
	if got := (&Installer{}).sources(Spec{Name: "aws"}); !slices.Equal(got, []string{defaultGitHub + "/pulumi-aws", defaultServer}) {
		t.Errorf("default sources = %q", got)
	}
	for _, bad := range []string{"nourl", "=x", "a=b=c"} {
		if _, err := ParseOverrides(bad); err == nil {
			t.Errorf("override %q was accepted", bad)
		}
	}
}

func TestInstallRefusesEscapes(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "evil.tar.gz")
	if err := os.WriteFile(f, tarball(t, map[string]string{"../escape": "x", "pulumi-resource-demo": "x"}), 0o644); err != nil {
		t.Fatal(err)
	}
	in := Installer{Dir: filepath.Join(dir, "plugins")}
	if _, err := in.InstallFile(spec, f); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "escape")); err == nil {
		t.Error("an entry escaped the plugin folder")
	}
}

func TestProgressBar(t *testing.T) {
	srv, _ := serve(t, demoTarball(t))
	var out strings.Builder
	in := Installer{Dir: t.TempDir(), Progress: &out}
	s := spec
	s.Server = srv.URL + "/releases"
	if _, err := in.Install(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	full := "[" + strings.Repeat("=", barWidth) + "]"
	if !strings.HasPrefix(got, "\rdownloading demo v1.2.3 [") || !strings.Contains(got, full) || !strings.HasSuffix(got, " MiB\n") {
		t.Errorf("progress = %q, want a bar filling up to %s and a new line", got, full)
	}
}

// A download over plain http with no checksum warns once, naming the URL
// and how to give a checksum; with a checksum, or over https, it does not.
func TestPlainHTTPWithoutChecksumWarns(t *testing.T) {
	body := demoTarball(t)
	plain, _ := serve(t, body)
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write(body) }))
	defer secure.Close()
	sum := sha256.Sum256(body)
	for _, tt := range []struct {
		name, server, checksum string
		warns                  bool
	}{
		{"http", plain.URL + "/releases", "", true},
		{"http with a checksum", plain.URL + "/releases", hex.EncodeToString(sum[:]), false},
		{"https", secure.URL, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var warnings []string
			in := Installer{Dir: t.TempDir(), Client: secure.Client(), Warn: func(m string) { warnings = append(warnings, m) }}
			s := spec
			s.Server, s.Checksum = tt.server, tt.checksum
			if _, err := in.Install(context.Background(), s); err != nil {
				t.Fatal(err)
			}
			if !tt.warns {
				if len(warnings) > 0 {
					t.Errorf("warned: %q", warnings)
				}
				return
			}
			want := fmt.Sprintf("resource plugin demo v1.2.3 is downloaded over plain http from %s/releases/%s, with no checksum", plain.URL, spec.Asset())
			if len(warnings) != 1 || !strings.HasPrefix(warnings[0], want) ||
				!strings.HasSuffix(warnings[0], "cairn plugin install resource demo 1.2.3 --server "+plain.URL+"/releases --checksum SHA256") {
				t.Errorf("warnings %q, want one starting %q and saying how to give a checksum", warnings, want)
			}
		})
	}
}
