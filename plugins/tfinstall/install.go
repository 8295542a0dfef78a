package tfinstall

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/internal/atomicfile"
	"github.com/cairn-iac/cairn/plugins/tfaddr"
)

// Request names a provider to install.
type Request struct {
	// Source is the provider's address: "hashicorp/null" or
	// "registry.opentofu.org/hashicorp/null".
	Source string
	// Constraints are Terraform version constraints, e.g.
	// "~> 3.2, != 3.2.1"; empty allows every release.
	Constraints string
	// Version, when set, is the version to install whatever the
	// constraints and the lock file say, such as the one a state was
	// written with. It is checked against the hashes the lock file records
	// for it; the lock file is written only to add hashes to that version
	// or when it locks no version of the provider.
	Version string
}

// Package is an installed provider.
type Package struct {
	Source     string // fully qualified
	Version    string // empty for a development override
	Dir        string // the unpacked package
	Executable string // the provider's executable, in Dir
	Hash       string // its h1: hash, checked; empty for a development override
}

// Options say where installation looks and what it may do.
type Options struct {
	// ProjectDir holds the lock file, .terraform.lock.hcl, and
	// terraform.d/plugins; empty reads and writes no lock file.
	ProjectDir string
	// CLIConfigFile is the Terraform CLI configuration; empty finds it as
	// OpenTofu does: TF_CLI_CONFIG_FILE, ~/.tofurc, ~/.terraformrc, ...
	CLIConfigFile string
	// CacheDir is where packages are installed, in the layout
	// <CacheDir>/<host>/<namespace>/<type>/<version>/<os>_<arch>/, e.g.
	// $CAIRN_HOME/plugins/terraform, with the package's h1: hash in
	// <os>_<arch>.h1 beside it.
	CacheDir string
	// HTTPClient makes the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Log receives progress and warnings; nil discards them.
	Log func(format string, args ...any)
	// Offline uses only what is on disk: Cairn's cache, the plugin cache
	// and filesystem mirrors, never a registry or network mirror.
	Offline bool
}

// Install returns the package of req's provider for this platform,
// installing it into opts.CacheDir first when it must, and records it in
// the project's lock file.
//
// The version is the one the lock file records while it meets the
// constraints, else the newest release that does across the places the
// CLI configuration installs the provider from. A package that does not
// match the hashes the lock file records for its version is refused, and
// so is one in opts.CacheDir that no longer matches the h1: hash recorded
// beside it when it was installed.
func Install(ctx context.Context, opts Options, req Request) (*Package, error) {
	p, err := tfaddr.ParseProvider(req.Source)
	if err != nil {
		return nil, err
	}
	cs, err := tfaddr.ParseConstraints(req.Constraints)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", p, err)
	}
	if opts.CacheDir == "" {
		return nil, errors.New("installing Terraform providers needs a cache folder (Options.CacheDir)")
	}
	log := opts.Log
	if log == nil {
		log = func(string, ...any) {}
	}
	cfg, err := loadCLIConfig(opts.CLIConfigFile, log)
	if err != nil {
		return nil, err
	}
	in := &installer{opts: opts, cfg: cfg, p: p, cs: cs, log: log, client: newClient(opts.HTTPClient, cfg)}
	if req.Version != "" {
		v, err := tfaddr.ParseVersion(req.Version)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		in.exact = &v
	}
	if dir := cfg.pluginCacheDir; dir != "" && !isDir(dir) {
		in.log("the plugin cache %s does not exist: not using it", dir)
		cfg.pluginCacheDir = ""
	}
	if cfg.installation != nil {
		if dir, ok := cfg.installation.devOverrides[p]; ok {
			return in.devOverride(dir)
		}
	}
	return in.install(ctx)
}

// installer installs one provider.
type installer struct {
	opts   Options
	cfg    *cliConfig
	p      Provider
	cs     Constraints
	exact  *Version // Request.Version
	log    func(string, ...any)
	client *client
	// looked says what each place looked in had, for the error when the
	// provider is found nowhere.
	looked []string
}

func (in *installer) note(src source, format string, args ...any) {
	in.looked = append(in.looked, src.String()+": "+fmt.Sprintf(format, args...))
}

func (in *installer) devOverride(dir string) (*Package, error) {
	exe, err := executable(dir, in.p)
	if err != nil {
		return nil, fmt.Errorf("the dev_overrides entry for %s in the CLI configuration: %v", in.p, err)
	}
	in.log("using %s from %s, a development override in the CLI configuration: its version and checksums are not checked", in.p, dir)
	return &Package{Source: in.p.String(), Dir: dir, Executable: exe}, nil
}

func (in *installer) install(ctx context.Context) (*Package, error) {
	var lock Lock
	locked := false
	if in.opts.ProjectDir != "" {
		locks, err := ReadLocks(in.opts.ProjectDir)
		if err != nil {
			return nil, err
		}
		lock, locked = locks[in.p.String()]
	}
	srcs := in.sources()
	cache := &fsMirror{dir: in.opts.CacheDir, what: "Cairn's provider cache"}
	v, want, err := in.version(ctx, lock, locked, srcs, cache)
	if err != nil {
		return nil, err
	}
	pkg, h1, err := in.fromCache(cache, v, want)
	if err != nil {
		return nil, err
	}
	if pkg != nil {
		return in.record(pkg, h1, nil, lock, locked)
	}
	if dir := in.cfg.pluginCacheDir; dir != "" {
		if pkg, h1, ok := in.fromFolder(&fsMirror{dir: dir, what: "plugin cache"}, v, want, in.cfg.cacheMayBreak); ok {
			in.log("using %s %s from the plugin cache %s", in.p, v, dir)
			return in.record(pkg, h1, nil, lock, locked)
		}
	}
	if err := os.MkdirAll(in.opts.CacheDir, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(in.opts.CacheDir, ".install-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	for _, src := range srcs {
		if src.remote() && in.opts.Offline {
			in.note(src, "not asked: offline")
			continue
		}
		if src.remote() {
			in.log("installing %s %s from %s", in.p, v, src)
		}
		f, err := src.fetch(ctx, in.p, v, tmp)
		if errors.Is(err, errNotFound) {
			in.absent(src, err, "no %s package of %s", platform, v)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("installing %s %s from %s: %v", in.p, v, src, err)
		}
		pkg, h1, err := in.place(src, f, v, want, tmp)
		if err != nil {
			return nil, err
		}
		if f.zip != "" {
			in.log("installed %s %s from %s (%s)", in.p, v, src, f.auth)
		}
		return in.record(pkg, h1, f.record, lock, locked)
	}
	what := fmt.Sprintf("%s %s", in.p, v)
	switch {
	case in.exact != nil:
		what += " (the version asked for)"
	case locked && lock.Version == v.String():
		what += " (the version " + in.lockPath() + " locks)"
	}
	return nil, in.nowhere(what)
}

// version returns the version to install: the one asked for, else the
// locked one while it meets the constraints, with the hashes locked for
// it, else the newest that does across srcs, and offline across the
// folders on disk too.
func (in *installer) version(ctx context.Context, lock Lock, locked bool, srcs []source, cache *fsMirror) (Version, []string, error) {
	if in.exact != nil {
		var want []string
		if locked && lock.Version == in.exact.String() {
			want = knownHashes(lock.Hashes)
		}
		return *in.exact, want, nil
	}
	if locked {
		if v, err := tfaddr.ParseVersion(lock.Version); err == nil && in.cs.Allows(v) {
			return v, knownHashes(lock.Hashes), nil
		}
		in.log("%s locks %s at %s, which does not meet the constraints %q: selecting the version again", in.lockPath(), in.p, lock.Version, in.cs)
	}
	if in.opts.Offline {
		srcs = append([]source{cache}, srcs...)
		if pc := in.cfg.pluginCacheDir; pc != "" && in.cfg.cacheMayBreak {
			srcs = append(srcs, &fsMirror{dir: pc, what: "plugin cache"})
		} else if pc != "" {
			in.note(&fsMirror{dir: pc, what: "plugin cache"}, "not searched: it serves only versions the lock file records hashes of (unless plugin_cache_may_break_dependency_lock_file is set)")
		}
	}
	v, err := in.choose(ctx, srcs)
	return v, nil, err
}

// absent notes that src has nothing of what is described, with the detail
// err adds.
func (in *installer) absent(src source, err error, format string, args ...any) {
	what := fmt.Sprintf(format, args...)
	if err != errNotFound {
		what += " (" + err.Error() + ")"
	}
	in.note(src, "%s", what)
}

// choose returns the newest release meeting the constraints across srcs.
// A source that cannot be asked makes the choice unsafe, so it fails.
func (in *installer) choose(ctx context.Context, srcs []source) (Version, error) {
	var best *Version
	failed := false
	for _, src := range srcs {
		if src.remote() && in.opts.Offline {
			in.note(src, "not asked: offline")
			continue
		}
		vs, err := src.versions(ctx, in.p)
		switch {
		case errors.Is(err, errNotFound):
			in.absent(src, err, "no versions")
		case err == nil && len(vs) == 0:
			in.note(src, "no versions")
		case err != nil:
			in.note(src, "%v", err)
			failed = true
		default:
			slices.SortFunc(vs, func(a, b Version) int { return tfaddr.Compare(b, a) })
			in.note(src, "versions %s", versionList(vs))
			for _, v := range vs {
				if in.cs.Allows(v) && (best == nil || v.GreaterThan(*best)) {
					best = &v
				}
			}
		}
	}
	if failed {
		return Version{}, fmt.Errorf("cannot select a version of %s:\n  %s", in.p, strings.Join(in.looked, "\n  "))
	}
	if best == nil {
		what := in.p.String()
		if in.cs.String() != "" {
			what += " matching " + in.cs.String()
		}
		return Version{}, in.nowhere(what)
	}
	return *best, nil
}

// nowhere is the error for a provider found in none of the places looked
// in, naming each.
func (in *installer) nowhere(what string) error {
	msg := fmt.Sprintf("no package of %s for %s was found", what, platform)
	if in.opts.Offline {
		msg += " (offline: only folders were searched)"
	}
	return fmt.Errorf("%s; looked in:\n  %s", msg, strings.Join(in.looked, "\n  "))
}

func versionList[V fmt.Stringer](vs []V) string {
	var s []string
	for i, v := range vs {
		if i == 10 {
			s = append(s, fmt.Sprintf("and %d older", len(vs)-i))
			break
		}
		s = append(s, v.String())
	}
	return strings.Join(s, ", ")
}

// fromFolder returns the package of v in a folder of the unpacked layout
// (Cairn's cache, the plugin cache), used where it is, if it matches a
// hash the lock file records for v; when the lock file records none, only
// if unlocked allows. As in Terraform, the plugin cache allows it only
// under plugin_cache_may_break_dependency_lock_file.
func (in *installer) fromFolder(folder *fsMirror, v Version, want []string, unlocked bool) (*Package, string, bool) {
	dir := packageDir(folder.dir, in.p, v)
	if !isDir(dir) {
		in.note(folder, "no %s", v)
		return nil, "", false
	}
	h1, err := packageHash(dir)
	switch {
	case err != nil:
		in.note(folder, "%v", err)
		return nil, "", false
	case len(want) == 0 && !unlocked:
		in.note(folder, "%s, not used: the lock file records no hash of it", v)
		return nil, "", false
	case len(want) > 0 && !slices.Contains(want, h1):
		why := "does not match the lock file"
		if !hasH1(want) {
			why = "cannot be checked against the lock file, which records only zh: hashes of zips"
		}
		in.log("the copy of %s %s in %s %s: not using it", in.p, v, dir, why)
		in.note(folder, "a copy of %s that %s", v, why)
		return nil, "", false
	}
	exe, err := executable(dir, in.p)
	if err != nil {
		in.note(folder, "%v", err)
		return nil, "", false
	}
	return &Package{Source: in.p.String(), Version: v.String(), Dir: dir, Executable: exe}, h1, true
}

// fromCache returns the package of v in Cairn's cache, nil if it is not
// there or must be installed again. With hashes of v in the lock file, it
// must match one of them; without, it must match the h1: hash recorded
// beside it when Cairn installed it. A copy that does not was changed
// since: it is refused, with an error saying how to install it again.
// A copy with no recorded hash (installed by an older Cairn) is installed
// again.
func (in *installer) fromCache(cache *fsMirror, v Version, want []string) (*Package, string, error) {
	if len(want) > 0 {
		pkg, h1, _ := in.fromFolder(cache, v, want, false)
		return pkg, h1, nil
	}
	dir := packageDir(cache.dir, in.p, v)
	recorded, err := os.ReadFile(recordPath(dir))
	if err != nil && isDir(dir) {
		in.note(cache, "a copy of %s whose h1: hash was not recorded when it was installed, not used (%v)", v, err)
		return nil, "", nil
	}
	pkg, h1, ok := in.fromFolder(cache, v, nil, true)
	if want := strings.TrimSpace(string(recorded)); ok && h1 != want {
		return nil, "", fmt.Errorf("the copy of %s %s in %s has changed since Cairn installed it: its hash is %s, and %s records %s. It was not run. "+
			"If you did not change it, it may have been tampered with; delete the folder (rm -r %s) and run again to install it afresh",
			in.p, v, dir, h1, recordPath(dir), want, dir)
	}
	return pkg, h1, nil
}

// recordPath is the file beside a package of Cairn's cache that records
// the h1: hash it had when it was installed.
func recordPath(dir string) string { return dir + ".h1" }

// writeRecord records h1 as the hash of the package in dir, atomically.
func writeRecord(dir, h1 string) error {
	if err := atomicfile.Write(recordPath(dir), []byte(h1+"\n"), 0o644); err != nil {
		return fmt.Errorf("recording the hash of %s: %v", dir, err)
	}
	return nil
}

// place checks a fetched package against the hashes its source vouches
// for and those of the lock file, and returns it installed: a zip is
// unpacked into the cache, a folder is used where it is.
func (in *installer) place(src source, f *fetched, v Version, want []string, tmp string) (*Package, string, error) {
	dir, zh := f.dir, ""
	if f.zip != "" {
		var err error
		if zh, err = zipHash(f.zip); err != nil {
			return nil, "", err
		}
		if dir, err = os.MkdirTemp(tmp, "package-*"); err != nil {
			return nil, "", err
		}
		if err := os.Chmod(dir, 0o755); err != nil {
			return nil, "", err
		}
		if err := unzip(f.zip, dir); err != nil {
			return nil, "", fmt.Errorf("unpacking %s %s from %s: %v", in.p, v, src, err)
		}
	}
	h1, err := packageHash(dir)
	if err != nil {
		return nil, "", err
	}
	got := []string{h1}
	if zh != "" {
		got = append(got, zh)
	}
	if len(f.want) > 0 && !matchesAny(f.want, got) {
		return nil, "", fmt.Errorf("%s %s from %s does not match the checksums its source gives: it has %s, the source gives %s; it was not installed", in.p, v, src, strings.Join(got, ", "), strings.Join(f.want, ", "))
	}
	if len(want) > 0 && !matchesAny(want, got) {
		return nil, "", fmt.Errorf("%s %s from %s does not match the checksums recorded for it in %s: the lock file has %s; the package has %s. It was not installed. "+
			"If the package changed on purpose (or the lock file was written on another platform without this one's checksums), "+
			"delete the provider %q block from %s and run again to record the checksums of this package; otherwise it may have been tampered with",
			in.p, v, src, in.lockPath(), strings.Join(want, ", "), strings.Join(got, ", "), in.p.String(), LockFileName)
	}
	exe, err := executable(dir, in.p)
	if err != nil {
		return nil, "", fmt.Errorf("%s %s from %s: %v", in.p, v, src, err)
	}
	if f.zip == "" {
		return &Package{Source: in.p.String(), Version: v.String(), Dir: dir, Executable: exe}, h1, nil
	}
	if err := makeExecutable(exe); err != nil {
		return nil, "", err
	}
	final := packageDir(in.opts.CacheDir, in.p, v)
	if err := os.MkdirAll(filepath.Dir(final), 0o755); err != nil {
		return nil, "", err
	}
	// Another installation may have put the same package there first; a
	// different one there did not match the lock file, and is replaced.
	if theirs, err := packageHash(final); err != nil || theirs != h1 {
		if err := os.RemoveAll(final); err != nil {
			return nil, "", err
		}
		if err := os.Rename(dir, final); err != nil {
			if theirs, herr := packageHash(final); herr != nil || theirs != h1 {
				return nil, "", err
			}
		}
	}
	if err := writeRecord(final, h1); err != nil {
		return nil, "", err
	}
	return &Package{Source: in.p.String(), Version: v.String(), Dir: final, Executable: filepath.Join(final, filepath.Base(exe))}, h1, nil
}

// record writes the package's version and hashes into the lock file,
// keeping the hashes already recorded for that version. A version asked
// for leaves the lock of another version as it is, and keeps the
// constraints recorded with its own.
func (in *installer) record(pkg *Package, h1 string, more []string, lock Lock, locked bool) (*Package, error) {
	pkg.Hash = h1
	if in.opts.ProjectDir == "" || in.exact != nil && locked && lock.Version != pkg.Version {
		return pkg, nil
	}
	hashes := append([]string{h1}, more...)
	constraints := in.cs.String()
	if locked && lock.Version == pkg.Version {
		hashes = append(hashes, lock.Hashes...)
		if in.exact != nil {
			constraints = lock.Constraints
		}
	}
	err := updateLock(in.opts.ProjectDir, Lock{Source: pkg.Source, Version: pkg.Version, Constraints: constraints, Hashes: sortedUnique(hashes)})
	if err != nil {
		return nil, fmt.Errorf("recording %s %s in %s: %v", pkg.Source, pkg.Version, in.lockPath(), err)
	}
	return pkg, nil
}

func (in *installer) lockPath() string {
	if in.opts.ProjectDir == "" {
		return "the lock file"
	}
	return filepath.Join(in.opts.ProjectDir, LockFileName)
}

// knownHashes keeps the hashes of the schemes Cairn can check.
func knownHashes(hashes []string) []string {
	var out []string
	for _, h := range hashes {
		if strings.HasPrefix(h, schemeH1) || strings.HasPrefix(h, schemeZip) {
			out = append(out, h)
		}
	}
	return out
}

func hasH1(hashes []string) bool {
	return slices.ContainsFunc(hashes, func(h string) bool { return strings.HasPrefix(h, schemeH1) })
}

func matchesAny(hashes, got []string) bool {
	return slices.ContainsFunc(hashes, func(h string) bool { return slices.Contains(got, h) })
}

// executable returns the provider's executable in dir: the first file
// named terraform-provider-TYPE, alone or followed by "_…" or ".…".
func executable(dir string, p Provider) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	name := "terraform-provider-" + p.Type
	for _, e := range entries {
		n := e.Name()
		if n != name && !strings.HasPrefix(n, name+"_") && !strings.HasPrefix(n, name+".") {
			continue
		}
		if path := filepath.Join(dir, n); isFile(path) {
			return path, nil
		}
	}
	return "", fmt.Errorf("%s holds no file named %s: it is not a package of %s", dir, name, p)
}

// makeExecutable adds execute permission where read permission is, as a
// zip made without Unix modes loses it.
func makeExecutable(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	mode := info.Mode().Perm()
	return os.Chmod(path, mode|(mode&0o444)>>2)
}

// Verify checks that pkg matches a hash the lock file in projectDir
// records for its version, as Install does before it returns a package;
// a development override (no version) is not checked.
func Verify(projectDir string, pkg *Package) error {
	if pkg.Version == "" {
		return nil
	}
	path := filepath.Join(projectDir, LockFileName)
	locks, err := ReadLocks(projectDir)
	if err != nil {
		return err
	}
	lock, ok := locks[pkg.Source]
	if !ok || lock.Version != pkg.Version {
		return fmt.Errorf("%s does not lock %s at %s; install it again to record it", path, pkg.Source, pkg.Version)
	}
	h1, err := packageHash(pkg.Dir)
	if err != nil {
		return err
	}
	want := knownHashes(lock.Hashes)
	if len(want) > 0 && !hasH1(want) {
		return fmt.Errorf("%s records only zh: hashes of zips for %s %s, which an unpacked package cannot be checked against; install it again to record its h1: hash", path, pkg.Source, pkg.Version)
	}
	if len(want) > 0 && !slices.Contains(want, h1) {
		return fmt.Errorf("%s %s in %s does not match the checksums recorded for it in %s: the lock file has %s; the package has %s. Delete the folder to install it again, or, if the package changed on purpose, delete the provider %q block from %s",
			pkg.Source, pkg.Version, pkg.Dir, path, strings.Join(want, ", "), h1, pkg.Source, LockFileName)
	}
	return nil
}
