package tfinstall

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/plugins/tfaddr"
)

// packedMirror writes a packed package of typ at version into a
// filesystem mirror.
func packedMirror(t *testing.T, mirror, typ, version string) []byte {
	zipBytes := providerZip(t, typ, version)
	writeFile(t, filepath.Join(mirror, "example.com", "hashicorp", typ, zipName(Provider{Type: typ}, mustVersion(t, version))), zipBytes)
	return zipBytes
}

// unpackedMirror writes an unpacked package of typ at version into a
// folder of the unpacked layout and returns the package's folder.
func unpackedMirror(t *testing.T, mirror, typ, version string) string {
	dir := filepath.Join(mirror, "example.com", "hashicorp", typ, version, platform)
	zipPath := writeFile(t, filepath.Join(t.TempDir(), "p.zip"), providerZip(t, typ, version))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := unzip(zipPath, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func mustVersion(t *testing.T, s string) Version {
	v, err := tfaddr.ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestNetworkMirror installs from a network mirror that wants a token:
// the JSON indexes get it, the archive does not; the mirror's h1: hash is
// checked and the lock records the package's own.
func TestNetworkMirror(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	w.add("hashicorp/null", "1.0.0", "1.1.0")
	w.token = "mirror-secret"
	opts := w.options(`
provider_installation {
  network_mirror {
    url = "https://mirror.example.com/providers/"
  }
}
credentials "mirror.example.com" {
  token = "mirror-secret"
}
`)
	pkg, err := Install(context.Background(), opts, Request{Source: "example.com/hashicorp/null", Constraints: "< 1.1"})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Version != "1.0.0" || run(t, pkg) != "null 1.0.0" {
		t.Errorf("got %+v", pkg)
	}
	for _, s := range w.seen() {
		if s.host != "mirror.example.com" {
			t.Errorf("asked %s%s; a network mirror is the only method", s.host, s.path)
		}
		if wantAuth := strings.HasSuffix(s.path, ".json"); (s.auth == "Bearer mirror-secret") != wantAuth {
			t.Errorf("%s got Authorization %q", s.path, s.auth)
		}
	}
	locks, _ := ReadLocks(opts.ProjectDir)
	if got, want := locks[pkg.Source].Hashes, []string{h1Zip(t, w.zip("hashicorp/null", "1.0.0"))}; !slices.Equal(got, want) {
		t.Errorf("lock hashes %v, want %v", got, want)
	}

	w.mirrorH1s = []string{"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}
	opts = w.options(readFile(t, opts.CLIConfigFile))
	_, err = Install(context.Background(), opts, Request{Source: "example.com/hashicorp/null"})
	if err == nil || !strings.Contains(err.Error(), "does not match the checksums its source gives") || !strings.Contains(err.Error(), "h1:AAAA") {
		t.Errorf("a package unlike the mirror's checksum: %v", err)
	}
}

// TestFilesystemMirror installs from a filesystem mirror holding a packed
// and an unpacked version: the newest wins, an unpacked package is used
// where it is and a packed one is unpacked into the cache.
func TestFilesystemMirror(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	mirror := t.TempDir()
	packed := packedMirror(t, mirror, "null", "1.0.0")
	unpacked := unpackedMirror(t, mirror, "null", "1.1.0")
	opts := w.options(fmt.Sprintf(`
provider_installation {
  filesystem_mirror {
    path    = %q
    include = ["example.com/hashicorp/*"]
  }
  direct {
    exclude = ["example.com/hashicorp/*"]
  }
}
`, mirror))

	pkg, err := Install(context.Background(), opts, Request{Source: "example.com/hashicorp/null"})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Version != "1.1.0" || pkg.Dir != unpacked || run(t, pkg) != "null 1.1.0" {
		t.Errorf("newest: got %+v, want 1.1.0 in %s", pkg, unpacked)
	}

	pkg, err = Install(context.Background(), opts, Request{Source: "example.com/hashicorp/null", Constraints: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Version != "1.0.0" || !strings.HasPrefix(pkg.Dir, opts.CacheDir) || run(t, pkg) != "null 1.0.0" {
		t.Errorf("packed: got %+v, want 1.0.0 unpacked into the cache", pkg)
	}
	locks, _ := ReadLocks(opts.ProjectDir)
	if got := locks[pkg.Source].Hashes; !slices.Equal(got, []string{h1Zip(t, packed)}) {
		t.Errorf("lock hashes %v", got)
	}
	if pkg.Hash != h1Zip(t, packed) {
		t.Errorf("the package's hash is %q, want its h1: hash", pkg.Hash)
	}
	if len(w.seen()) != 0 {
		t.Errorf("asked the network: %v", w.seen())
	}
}

// TestExactVersion installs the version asked for (as a state records
// it) whatever the constraints and the lock file say, checks it against
// the hashes locked for it, and leaves the lock of another version alone.
func TestExactVersion(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	mirror := t.TempDir()
	unpackedMirror(t, mirror, "null", "1.0.0")
	newer := unpackedMirror(t, mirror, "null", "1.1.0")
	opts := w.options(fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
	ctx := context.Background()
	if _, err := Install(ctx, opts, Request{Source: "example.com/hashicorp/null", Constraints: "~> 1.0"}); err != nil {
		t.Fatal(err)
	}
	lockFile := filepath.Join(opts.ProjectDir, LockFileName)
	before := readFile(t, lockFile)

	pkg, err := Install(ctx, opts, Request{Source: "example.com/hashicorp/null", Version: "1.0.0"})
	if err != nil || pkg.Version != "1.0.0" || run(t, pkg) != "null 1.0.0" {
		t.Fatalf("Version 1.0.0: %+v %v", pkg, err)
	}
	if got := readFile(t, lockFile); got != before {
		t.Errorf("the lock of 1.1.0 changed:\n%s\nwas\n%s", got, before)
	}

	// The locked version asked for keeps the recorded constraints, and
	// must match the recorded hashes.
	if _, err := Install(ctx, opts, Request{Source: "example.com/hashicorp/null", Version: "1.1.0"}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, lockFile); got != before {
		t.Errorf("the lock changed:\n%s\nwas\n%s", got, before)
	}
	writeFile(t, filepath.Join(newer, "README.md"), []byte("changed"))
	if _, err := Install(ctx, opts, Request{Source: "example.com/hashicorp/null", Version: "1.1.0"}); err == nil || !strings.Contains(err.Error(), "does not match the checksums recorded") {
		t.Errorf("a changed package of the locked version: %v", err)
	}
	if _, err := Install(ctx, opts, Request{Source: "example.com/hashicorp/null", Version: "2.0.0"}); err == nil || !strings.Contains(err.Error(), "null 2.0.0 (the version asked for)") {
		t.Errorf("a version nowhere: %v", err)
	}
}

// TestMethodsNewestWins checks that the newest version across the
// methods covering a provider wins, and that include and exclude route
// providers to methods.
func TestMethodsNewestWins(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	w.sign(nil)
	w.add("hashicorp/null", "3.2.1")
	w.add("hashicorp/random", "3.0.0")
	mirror := t.TempDir()
	packedMirror(t, mirror, "null", "1.0.0")
	packedMirror(t, mirror, "random", "9.0.0")
	opts := w.options(fmt.Sprintf(`
provider_installation {
  filesystem_mirror {
    path    = %q
    include = ["example.com/hashicorp/null"]
  }
  direct {}
}
`, mirror))
	for source, want := range map[string]string{"example.com/hashicorp/null": "3.2.1", "example.com/hashicorp/random": "3.0.0"} {
		pkg, err := Install(context.Background(), opts, Request{Source: source})
		if err != nil {
			t.Fatal(err)
		}
		if pkg.Version != want {
			t.Errorf("%s: got %s, want %s", source, pkg.Version, want)
		}
	}
}

// TestImpliedMirror checks that without a provider_installation block a
// provider in the project's terraform.d/plugins comes from there, with no
// network access, and one that is not there from its registry.
func TestImpliedMirror(t *testing.T) {
	home := isolate(t)
	w := newWorld(t)
	w.sign(nil)
	w.add("hashicorp/random", "3.0.0")
	opts := w.options("")
	packedMirror(t, filepath.Join(opts.ProjectDir, "terraform.d", "plugins"), "null", "1.0.0")
	unpackedMirror(t, filepath.Join(home, ".terraform.d", "plugins"), "local", "2.0.0")

	for source, want := range map[string]string{"example.com/hashicorp/null": "1.0.0", "example.com/hashicorp/local": "2.0.0"} {
		pkg, err := Install(context.Background(), opts, Request{Source: source})
		if err != nil {
			t.Fatal(err)
		}
		if pkg.Version != want {
			t.Errorf("%s: got %s, want %s", source, pkg.Version, want)
		}
	}
	if len(w.seen()) != 0 {
		t.Errorf("asked the network for providers in implied mirrors: %v", w.seen())
	}
	pkg, err := Install(context.Background(), opts, Request{Source: "example.com/hashicorp/random"})
	if err != nil || pkg.Version != "3.0.0" {
		t.Errorf("from the registry: %+v, %v", pkg, err)
	}
}

// TestDevOverrides checks that a development override is used as it is,
// in HCL 1's block form, without version or lock file.
func TestDevOverrides(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	dir := unpackedMirror(t, t.TempDir(), "null", "0.0.1")
	opts := w.options(fmt.Sprintf(`
provider_installation {
  dev_overrides {
    "example.com/hashicorp/null" = %q
  }
  direct {}
}
`, dir))
	pkg, err := Install(context.Background(), opts, Request{Source: "example.com/hashicorp/null", Constraints: ">= 5"})
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Dir != dir || pkg.Version != "" || run(t, pkg) != "null 0.0.1" {
		t.Errorf("got %+v", pkg)
	}
	if _, err := os.Stat(filepath.Join(opts.ProjectDir, LockFileName)); !os.IsNotExist(err) {
		t.Error("a development override was locked")
	}
	if len(w.seen()) != 0 {
		t.Errorf("asked the network: %v", w.seen())
	}
}

// TestOfflineNamesEveryPlace checks that offline, a provider found nowhere
// is reported with every place and what it had.
func TestOfflineNamesEveryPlace(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	mirror := t.TempDir()
	packedMirror(t, mirror, "null", "1.0.0")
	pluginCache := t.TempDir()
	opts := w.options(fmt.Sprintf(`
plugin_cache_dir = %q
provider_installation {
  filesystem_mirror {
    path = %q
  }
  network_mirror {
    url = "https://mirror.example.com/providers/"
  }
  direct {}
}
`, pluginCache, mirror))
	opts.Offline = true
	_, err := Install(context.Background(), opts, Request{Source: "example.com/hashicorp/null", Constraints: ">= 2"})
	if err == nil {
		t.Fatal("installed")
	}
	for _, want := range []string{
		"no package of example.com/hashicorp/null matching >= 2.0.0",
		"offline",
		"Cairn's provider cache " + opts.CacheDir + ": no versions",
		"filesystem mirror " + mirror + ": versions 1.0.0",
		"network mirror https://mirror.example.com/providers/: not asked: offline",
		"registry https://example.com/: not asked: offline",
		"plugin cache " + pluginCache + ": not searched",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q:\n%v", want, err)
		}
	}
	if len(w.seen()) != 0 {
		t.Errorf("asked the network offline: %v", w.seen())
	}
}

// TestNotFoundNamesRegistryURL checks the error for a provider no
// registry has.
func TestNotFoundNamesRegistryURL(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	_, err := Install(context.Background(), w.options(""), Request{Source: "example.com/hashicorp/nope"})
	if err == nil || !strings.Contains(err.Error(), "https://example.com/v1/providers/hashicorp/nope/versions: not found") {
		t.Errorf("got %v", err)
	}
}

// TestPluginCache checks that a plugin cache entry is used where it is
// when the lock file records its hash, is ignored when it does not, and
// is used anyway under plugin_cache_may_break_dependency_lock_file.
func TestPluginCache(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	pluginCache := t.TempDir()
	t.Setenv("TF_PLUGIN_CACHE_DIR", pluginCache)
	dir := unpackedMirror(t, pluginCache, "null", "1.0.0")
	h1, err := packageHash(dir)
	if err != nil {
		t.Fatal(err)
	}
	opts := w.options(`provider_installation {
  network_mirror { url = "https://mirror.example.com/providers/" }
}`)
	req := Request{Source: "example.com/hashicorp/null"}

	_, err = Install(context.Background(), opts, req)
	if err == nil || !strings.Contains(err.Error(), "no versions") {
		t.Errorf("without a lock entry the plugin cache is no source: %v", err)
	}

	writeFile(t, filepath.Join(opts.ProjectDir, LockFileName), FormatLocks(map[string]Lock{
		"example.com/hashicorp/null": {Source: "example.com/hashicorp/null", Version: "1.0.0", Hashes: []string{h1}},
	}))
	w.forget()
	pkg, err := Install(context.Background(), opts, req)
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Dir != dir || len(w.seen()) != 0 {
		t.Errorf("locked: got %+v with requests %v, want the plugin cache entry and no request", pkg, w.seen())
	}

	os.Remove(filepath.Join(opts.ProjectDir, LockFileName))
	t.Setenv("TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE", "1")
	opts.Offline = true
	pkg, err = Install(context.Background(), opts, req)
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Dir != dir {
		t.Errorf("may break the lock file: got %+v", pkg)
	}
}

// TestCredentials checks that a registry token goes to the registry's
// host only: not to its release downloads, not across a redirect to a
// subdomain, and that TF_TOKEN_ wins over the CLI configuration.
func TestCredentials(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	w.sign(nil)
	w.add("hashicorp/null", "1.0.0")
	w.token = "registry-secret"
	w.redirect = true
	opts := w.options(`credentials "example.com" { token = "stale" }`)
	req := Request{Source: "example.com/hashicorp/null"}

	_, err := Install(context.Background(), opts, req)
	if err == nil || !strings.Contains(err.Error(), "401 Unauthorized: the token for example.com (from TF_TOKEN_example_com or the CLI configuration's credentials block) was refused") {
		t.Errorf("with a wrong token: %v", err)
	}

	t.Setenv("TF_TOKEN_example_com", "registry-secret")
	w.forget()
	if _, err := Install(context.Background(), opts, req); err != nil {
		t.Fatal(err)
	}
	hosts := map[string]bool{}
	for _, s := range w.seen() {
		hosts[s.host] = true
		if want := s.host == "example.com"; (s.auth == "Bearer registry-secret") != want {
			t.Errorf("%s%s got Authorization %q", s.host, s.path, s.auth)
		}
	}
	if !hosts["api.example.com"] || !hosts["releases.example.com"] {
		t.Errorf("the test did not reach the other hosts: %v", hosts)
	}
}

// TestConcurrentInstalls checks that providers installed at once are all
// recorded in the lock file, and that installing one several times at
// once leaves it whole.
func TestConcurrentInstalls(t *testing.T) {
	isolate(t)
	w := newWorld(t)
	mirror := t.TempDir()
	types := []string{"a", "b", "c", "d", "a", "a", "a"}
	for _, typ := range types {
		packedMirror(t, mirror, typ, "1.0.0")
	}
	opts := w.options(fmt.Sprintf(`provider_installation {
  filesystem_mirror { path = %q }
}`, mirror))
	var wg sync.WaitGroup
	errs := make([]error, len(types))
	pkgs := make([]*Package, len(types))
	for i, typ := range types {
		wg.Go(func() {
			pkgs[i], errs[i] = Install(context.Background(), opts, Request{Source: "example.com/hashicorp/" + typ})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
		if got := run(t, pkgs[i]); got != types[i]+" 1.0.0" {
			t.Errorf("%s prints %q", pkgs[i].Executable, got)
		}
	}
	locks, err := ReadLocks(opts.ProjectDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(locks) != 4 {
		t.Errorf("the lock file holds %d providers, want 4: %v", len(locks), locks)
	}
}

// TestMissingFilesystemMirror checks that a filesystem mirror whose folder
// does not exist is reported as such, with the place in the CLI
// configuration that names it, rather than as a mirror with no versions.
func TestMissingFilesystemMirror(t *testing.T) {
	isolate(t)
	opts := newWorld(t).options("")
	missing := filepath.Join(t.TempDir(), "no-such-mirror")
	writeFile(t, opts.CLIConfigFile, fmt.Appendf(nil, "provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", missing))
	_, err := Install(context.Background(), opts, Request{Source: "example.com/hashicorp/null"})
	if err == nil {
		t.Fatal("installed from a mirror that does not exist")
	}
	want := "filesystem mirror " + missing + ": the folder " + missing + " does not exist (the CLI configuration names it at " + opts.CLIConfigFile + ":2:3)"
	if !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "no versions") {
		t.Errorf("the error does not say %q:\n%v", want, err)
	}
}
