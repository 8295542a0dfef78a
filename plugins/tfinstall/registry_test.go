package tfinstall

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// TestRegistryInstall installs from a signed registry: the newest version
// meeting the constraints, unpacked into the cache, runnable, and locked
// with its h1: hash and the zh: hashes of every platform.
func TestRegistryInstall(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	w.sign(nil)
	w.add("hashicorp/null", "3.1.0", "3.2.0", "3.2.1", "3.2.2", "4.0.0-beta1")
	opts := w.options("")

	pkg, err := Install(context.Background(), opts, Request{Source: "Example.com/HashiCorp/null", Constraints: "!= 3.2.2, ~> 3.2"})
	if err != nil {
		t.Fatal(err)
	}
	want := Package{
		Source:  "example.com/hashicorp/null",
		Version: "3.2.1",
		Dir:     filepath.Join(opts.CacheDir, "example.com", "hashicorp", "null", "3.2.1", platform),
		Hash:    h1Zip(t, w.zip("hashicorp/null", "3.2.1")),
	}
	want.Executable = filepath.Join(want.Dir, "terraform-provider-null_v3.2.1")
	if *pkg != want {
		t.Errorf("got %+v, want %+v", *pkg, want)
	}
	if got := run(t, pkg); got != "null 3.2.1" {
		t.Errorf("the executable prints %q", got)
	}
	hashes := []string{h1Zip(t, w.zip("hashicorp/null", "3.2.1")), zh(w.zip("hashicorp/null", "3.2.1")), zh(otherPlatformZip)}
	slices.Sort(hashes)
	wantLock := fmt.Sprintf(`# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "example.com/hashicorp/null" {
  version     = "3.2.1"
  constraints = "~> 3.2, != 3.2.2"
  hashes = [
    %q,
    %q,
    %q,
  ]
}
`, hashes[0], hashes[1], hashes[2])
	if got := readFile(t, filepath.Join(opts.ProjectDir, LockFileName)); got != wantLock {
		t.Errorf("lock file:\n%s\nwant:\n%s", got, wantLock)
	}
	for _, s := range w.seen() {
		if s.auth != "" {
			t.Errorf("%s%s got credentials %q though none are configured", s.host, s.path, s.auth)
		}
	}
	if err := Verify(opts.ProjectDir, pkg); err != nil {
		t.Errorf("Verify: %v", err)
	}
}

// TestLockedVersionReused checks that the lock file's version wins while
// it meets the constraints: from the cache with no request at all, on a
// fresh machine by downloading that version and no other, and that new
// constraints it does not meet select and lock another.
func TestLockedVersionReused(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	w.sign(nil)
	w.add("hashicorp/null", "3.2.0", "3.2.1")
	opts := w.options("")
	req := Request{Source: "example.com/hashicorp/null", Constraints: "~> 3.2"}
	if _, err := Install(context.Background(), opts, req); err != nil {
		t.Fatal(err)
	}
	w.add("hashicorp/null", "3.2.2")
	w.forget()

	pkg, err := Install(context.Background(), opts, req)
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Version != "3.2.1" || len(w.seen()) != 0 {
		t.Errorf("again: got %s with requests %v; want the locked 3.2.1 from the cache, no request", pkg.Version, w.seen())
	}

	opts.CacheDir = t.TempDir() // another machine, same project
	pkg, err = Install(context.Background(), opts, req)
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Version != "3.2.1" || run(t, pkg) != "null 3.2.1" {
		t.Errorf("fresh cache: got %s, want the locked 3.2.1", pkg.Version)
	}
	for _, s := range w.seen() {
		if strings.HasSuffix(s.path, "/versions") || strings.Contains(s.path, "3.2.2") {
			t.Errorf("fresh cache: asked for %s%s; the lock file decides the version", s.host, s.path)
		}
	}

	req.Constraints = ">= 3.2.2"
	pkg, err = Install(context.Background(), opts, req)
	if err != nil {
		t.Fatal(err)
	}
	locks, err := ReadLocks(opts.ProjectDir)
	if err != nil {
		t.Fatal(err)
	}
	lock := locks["example.com/hashicorp/null"]
	if pkg.Version != "3.2.2" || lock.Version != "3.2.2" || lock.Constraints != ">= 3.2.2" || !slices.Contains(lock.Hashes, zh(w.zip("hashicorp/null", "3.2.2"))) || slices.Contains(lock.Hashes, zh(w.zip("hashicorp/null", "3.2.1"))) {
		t.Errorf("new constraints: got %s, lock %+v; want 3.2.2 locked with its hashes only", pkg.Version, lock)
	}
}

// TestLockMismatchRefused checks that a package whose hashes the lock file
// does not record for its version is not installed, and that the error
// says which file, provider and hashes, and what to do.
func TestLockMismatchRefused(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	w.sign(nil)
	w.add("hashicorp/null", "3.2.1")
	opts := w.options("")
	lockFile := `# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "example.com/hashicorp/null" {
  version = "3.2.1"
  hashes = [
    "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
    "zh:0000000000000000000000000000000000000000000000000000000000000000",
  ]
}
`
	lockPath := writeFile(t, filepath.Join(opts.ProjectDir, LockFileName), []byte(lockFile))

	_, err := Install(context.Background(), opts, Request{Source: "example.com/hashicorp/null"})
	if err == nil {
		t.Fatal("a package the lock file does not know was installed")
	}
	pkgZip := w.zip("hashicorp/null", "3.2.1")
	for _, want := range []string{lockPath, "example.com/hashicorp/null 3.2.1", "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "zh:0000000000000000000000000000000000000000000000000000000000000000", h1Zip(t, pkgZip), zh(pkgZip), "delete the provider", "tampered"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
	if _, err := os.Stat(filepath.Join(opts.CacheDir, "example.com", "hashicorp", "null", "3.2.1")); !os.IsNotExist(err) {
		t.Errorf("the refused package is in the cache: %v", err)
	}
	if got := readFile(t, lockPath); got != lockFile {
		t.Errorf("the lock file changed:\n%s", got)
	}
}

// TestTamperedCacheReplaced checks that a cached package changed since it
// was locked is not used: it is downloaded again and checked.
func TestTamperedCacheReplaced(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	w.sign(nil)
	w.add("hashicorp/null", "1.0.0")
	opts := w.options("")
	req := Request{Source: "example.com/hashicorp/null"}
	pkg, err := Install(context.Background(), opts, req)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pkg.Executable, []byte("#!/bin/sh\necho tampered\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Verify(opts.ProjectDir, pkg); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("Verify of a tampered package: %v", err)
	}
	pkg, err = Install(context.Background(), opts, req)
	if err != nil {
		t.Fatal(err)
	}
	if got := run(t, pkg); got != "null 1.0.0" {
		t.Errorf("after reinstalling, the executable prints %q", got)
	}
}

// TestRegistryChecks checks what makes a registry package unacceptable.
func TestRegistryChecks(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(t *testing.T, w *world)
		config string
		source string
		errs   []string // empty: installs
		hashes int      // how many hashes the lock records when it installs (1: the h1: alone)
	}{
		{name: "signed", setup: func(t *testing.T, w *world) { w.sign(nil) }, hashes: 3},
		{
			name:  "signed by a key the registry does not list",
			setup: func(t *testing.T, w *world) { listed := w.sign(nil); w.sign(nil); w.listed = listed },
			errs:  []string{"not signed by any of the keys the registry lists", "not installed"},
		},
		{
			name:  "checksums list another hash",
			setup: func(t *testing.T, w *world) { w.sign(nil); w.badSums = true },
			errs:  []string{"SHA256SUMS: the checksum of terraform-provider-null_1.0.0_" + platform + ".zip there", "not installed"},
		},
		{
			name:  "zip is not the one described",
			setup: func(t *testing.T, w *world) { w.sign(nil); w.wrongZip = providerZip(t, "null", "6.6.6") },
			errs:  []string{"does not match the checksums its source gives", "not installed"},
		},
		{
			name:  "no keys on another registry than OpenTofu's",
			setup: func(t *testing.T, w *world) {},
			errs:  []string{"lists no key that signed it", "registry.opentofu.org"},
		},
		{
			name:   "no keys on OpenTofu's registry",
			setup:  func(t *testing.T, w *world) {},
			config: `host "registry.opentofu.org" { services = { "providers.v1" = "https://example.com/v1/providers/" } }`,
			source: "hashicorp/null",
			hashes: 1, // its own h1: alone: unsigned checksums are not recorded
		},
		{
			name:   "no keys on OpenTofu's registry, signatures enforced",
			setup:  func(t *testing.T, w *world) { t.Setenv("OPENTOFU_ENFORCE_GPG_VALIDATION", "true") },
			config: `host "registry.opentofu.org" { services = { "providers.v1" = "https://example.com/v1/providers/" } }`,
			source: "hashicorp/null",
			errs:   []string{"lists no key that signed it"},
		},
		{
			name:  "key expired since it signed",
			setup: func(t *testing.T, w *world) { expiredSigner(t, w) },
		},
		{
			name:  "key expired since it signed, expiry enforced",
			setup: func(t *testing.T, w *world) { expiredSigner(t, w); t.Setenv("OPENTOFU_ENFORCE_GPG_EXPIRATION", "true") },
			errs:  []string{"not signed by any of the keys"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolate(t)
			w := newWorld(t)
			w.add("hashicorp/null", "1.0.0")
			tt.setup(t, w)
			opts := w.options(tt.config)
			source := tt.source
			if source == "" {
				source = "example.com/hashicorp/null"
			}
			pkg, err := Install(context.Background(), opts, Request{Source: source})
			if len(tt.errs) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				locks, _ := ReadLocks(opts.ProjectDir)
				hashes := locks[pkg.Source].Hashes
				if n := len(hashes); tt.hashes != 0 && n != tt.hashes {
					t.Errorf("the lock records %d hashes, want %d: %v", n, tt.hashes, hashes)
				}
				if tt.hashes == 1 && hashes[0] != pkg.Hash {
					t.Errorf("the lock records %v, want the package's own %s", hashes, pkg.Hash)
				}
				return
			}
			if err == nil {
				t.Fatal("installed")
			}
			for _, want := range tt.errs {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the error does not say %q:\n%v", want, err)
				}
			}
			if _, err := os.Stat(filepath.Join(opts.ProjectDir, LockFileName)); !os.IsNotExist(err) {
				t.Errorf("a lock file was written for a refused package")
			}
		})
	}
}

// expiredSigner makes the world sign with a key that was valid for a day,
// two years ago, when it signed.
func expiredSigner(t *testing.T, w *world) {
	past := time.Now().Add(-2 * 365 * 24 * time.Hour)
	w.sign(&packet.Config{Time: func() time.Time { return past }, KeyLifetimeSecs: 24 * 60 * 60})
	signTime = func() time.Time { return past.Add(time.Hour) }
	t.Cleanup(func() { signTime = nil })
}

// TestRetries checks that a registry failing for a moment is asked again,
// and that download_retry_count = 0 gives up at once.
func TestRetries(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	w.sign(nil)
	w.add("hashicorp/null", "1.0.0")
	w.failures = 1
	if _, err := Install(context.Background(), w.options(""), Request{Source: "example.com/hashicorp/null"}); err != nil {
		t.Fatal(err)
	}
	w.failures = 1
	_, err := Install(context.Background(), w.options(`provider_installation {
  direct { download_retry_count = 0 }
}`), Request{Source: "example.com/hashicorp/null"})
	if err == nil || !strings.Contains(err.Error(), "versions: 503 Service Unavailable") {
		t.Errorf("without retries: %v", err)
	}
}

// TestDowngradeRedirectDropsToken checks that a registry's redirect from
// https to plain http on the same host does not take the host's token
// along: a TLS server at example.com:443 redirects the versions request to
// http://example.com/, a plain server at example.com:80.
func TestDowngradeRedirectDropsToken(t *testing.T) {
	isolate(t)
	t.Setenv("TF_TOKEN_example_com", "registry-secret")
	var mu sync.Mutex
	var plainAuth []string
	plain := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		mu.Lock()
		plainAuth = append(plainAuth, r.Header.Get("Authorization"))
		mu.Unlock()
		http.NotFound(rw, r)
	}))
	defer plain.Close()
	secure := httptest.NewTLSServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer registry-secret" {
			http.Error(rw, "token required", http.StatusUnauthorized)
			return
		}
		if r.URL.Path == "/.well-known/terraform.json" {
			writeJSON(rw, map[string]string{"providers.v1": "/v1/providers/"})
			return
		}
		http.Redirect(rw, r, "http://example.com"+r.URL.Path, http.StatusFound)
	}))
	defer secure.Close()
	transport := secure.Client().Transport.(*http.Transport).Clone()
	transport.DialContext = func(ctx context.Context, network, hostport string) (net.Conn, error) {
		addr := map[string]string{"example.com:443": secure.Listener.Addr().String(), "example.com:80": plain.Listener.Addr().String()}[hostport]
		if addr == "" {
			return nil, fmt.Errorf("the test network has no %s", hostport)
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}
	dir := t.TempDir()
	opts := Options{CacheDir: filepath.Join(dir, "cache"), HTTPClient: &http.Client{Transport: transport},
		CLIConfigFile: writeFile(t, filepath.Join(dir, "cli.tfrc"), nil), Log: t.Logf}

	_, err := Install(context.Background(), opts, Request{Source: "example.com/hashicorp/null"})
	if err == nil {
		t.Fatal("installed a provider the plain server does not have")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(plainAuth) == 0 {
		t.Fatalf("the redirect did not reach the plain server: %v", err)
	}
	for _, auth := range plainAuth {
		if auth != "" {
			t.Errorf("the plain http server got Authorization %q", auth)
		}
	}
}

// TestTamperedCacheRefused checks that a package in Cairn's cache that no
// lock file records is checked against the h1: hash recorded beside it
// when it was installed: a copy changed since is refused, saying how to
// install it again, and is not run; a copy with no record is installed
// again.
func TestTamperedCacheRefused(t *testing.T) {
	isolate(t)
	opts := newWorld(t).options("")
	opts.ProjectDir = "" // no lock file
	mirror := filepath.Join(t.TempDir(), "mirror")
	writeFile(t, opts.CLIConfigFile, fmt.Appendf(nil, "provider_installation {\n  filesystem_mirror { path = %q }\n}\n", mirror))
	packed := packedMirror(t, mirror, "null", "1.0.0")
	req := Request{Source: "example.com/hashicorp/null"}
	pkg, err := Install(context.Background(), opts, req)
	if err != nil {
		t.Fatal(err)
	}
	record := pkg.Dir + ".h1"
	if got := strings.TrimSpace(readFile(t, record)); got != h1Zip(t, packed) {
		t.Fatalf("%s records %q, want the package's h1: %s", record, got, h1Zip(t, packed))
	}

	marker := filepath.Join(t.TempDir(), "ran")
	tampered := fmt.Sprintf("#!/bin/sh\ntouch %s\necho tampered\n", marker)
	if err := os.WriteFile(pkg.Executable, []byte(tampered), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, offline := range []bool{false, true} {
		opts.Offline = offline
		got, err := Install(context.Background(), opts, req)
		if err == nil {
			t.Fatalf("offline %v: a tampered copy was used: %+v", offline, got)
		}
		for _, want := range []string{"the copy of example.com/hashicorp/null 1.0.0 in " + pkg.Dir + " has changed since Cairn installed it",
			record + " records " + h1Zip(t, packed), "It was not run", "rm -r " + pkg.Dir} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("offline %v: the error does not say %q:\n%v", offline, want, err)
			}
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the tampered provider was run")
	}
	if readFile(t, pkg.Executable) != tampered {
		t.Error("the tampered copy was replaced: the error says to delete it")
	}

	// A copy with no record, as an older Cairn left it, is installed again.
	if err := os.Remove(record); err != nil {
		t.Fatal(err)
	}
	opts.Offline = false
	pkg, err = Install(context.Background(), opts, req)
	if err != nil {
		t.Fatal(err)
	}
	if got := run(t, pkg); got != "null 1.0.0" {
		t.Errorf("the copy with no record was used: it prints %q", got)
	}
	if got := strings.TrimSpace(readFile(t, record)); got != pkg.Hash {
		t.Errorf("the reinstalled copy's record: %q, want %s", got, pkg.Hash)
	}
}
