package tfinstall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-iac/cairn/internal/atomicfile"
	"github.com/cairn-iac/cairn/plugins/tfaddr"
)

// ModuleOptions say where a configuration's modules are installed and
// what installation may do.
type ModuleOptions struct {
	// Dir is the configuration's working directory: modules are installed
	// in its .terraform/modules and recorded in ModuleManifest there.
	Dir string
	// CLIConfigFile is the Terraform CLI configuration, for credentials
	// and host blocks; empty finds it as OpenTofu does.
	CLIConfigFile string
	// HTTPClient makes the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Log receives progress; nil discards it.
	Log func(format string, args ...any)
	// Offline uses only the modules installed already.
	Offline bool
}

// ModuleManifest is where Terraform records the modules it installed,
// relative to the working directory.
const ModuleManifest = ".terraform/modules/modules.json"

// ModuleCall is a module block whose source is to be found.
type ModuleCall struct {
	// Key names the call as Terraform's manifest does: web for
	// module.web, web.net for module.net within it.
	Key     string
	Source  string
	Version string // version constraints, of a registry module
	// Dir is the folder a local source names, resolved against the
	// calling module's.
	Dir string
}

// moduleRecord is an entry of the manifest.
type moduleRecord struct {
	Key     string `json:"Key"`
	Source  string `json:"Source"`
	Version string `json:"Version,omitempty"`
	Dir     string `json:"Dir"`
}

// Modules installs the modules of one configuration as Terraform does,
// each call in .terraform/modules/<key>, and keeps the manifest: a call
// whose source (and, from a registry, version constraints) still match
// what the manifest records for it is not fetched again.
type Modules struct {
	opts     ModuleOptions
	client   *client
	registry *moduleRegistry
	retries  int
	old      map[string]moduleRecord // the manifest as found
	seen     map[string]moduleRecord // the calls of this configuration
	roots    map[string]string       // by key: the folder of the package a module is in, "" for the configuration's own
	remote   bool                    // a call is not local
}

// NewModules reads the manifest of the configuration in opts.Dir.
func NewModules(opts ModuleOptions) (*Modules, error) {
	if opts.Log == nil {
		opts.Log = func(string, ...any) {}
	}
	m := &Modules{opts: opts, old: map[string]moduleRecord{}, seen: map[string]moduleRecord{}, roots: map[string]string{}}
	data, err := os.ReadFile(m.manifestPath())
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	var doc struct{ Modules []moduleRecord }
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v; delete it to install the modules again", m.manifestPath(), err)
	}
	for _, r := range doc.Modules {
		m.old[r.Key] = r
	}
	return m, nil
}

// connect reads the CLI configuration, for the credentials and hosts of
// the first download.
func (m *Modules) connect() error {
	if m.client != nil {
		return nil
	}
	cfg, err := loadCLIConfig(m.opts.CLIConfigFile, m.opts.Log)
	if err != nil {
		return err
	}
	m.retries = 2
	if n, err := strconv.Atoi(os.Getenv("TF_REGISTRY_DISCOVERY_RETRY")); err == nil && n >= 0 {
		m.retries = n
	}
	m.client = newClient(m.opts.HTTPClient, cfg)
	m.registry = &moduleRegistry{client: m.client, retries: m.retries, apis: map[tfaddr.Host]*url.URL{}}
	return nil
}

func (m *Modules) manifestPath() string {
	return filepath.Join(m.opts.Dir, filepath.FromSlash(ModuleManifest))
}

// Install returns the folder of the module call names, installing it
// first when the manifest does not record it as installed from the same
// source. A local path within a remote module stays within its package.
func (m *Modules) Install(ctx context.Context, call ModuleCall) (string, error) {
	src, err := parseModuleSource(call.Source)
	switch {
	case !moduleKey.MatchString(call.Key):
		return "", fmt.Errorf("%q is not a module key: names such as web, and web.net for module.net within it", call.Key)
	case err != nil:
		return "", err
	case src.local && call.Version != "":
		return "", fmt.Errorf("a local module has no version: remove version, or publish the module in a registry")
	case src.local:
		return m.local(call)
	case src.registry == nil && call.Version != "":
		return "", fmt.Errorf("version applies to registry modules only; pin %s by its address instead (?ref= for git)", call.Source)
	}
	m.remote = true
	for k := call.Key; strings.Contains(k, "."); {
		k = k[:strings.LastIndexByte(k, '.')]
		if r, ok := m.seen[k]; ok && r.Source == src.String() {
			return "", fmt.Errorf("%s is installed from %s too; a module cannot contain itself", address(k), src)
		}
	}
	var cs tfaddr.ModuleConstraints
	if src.registry != nil {
		if cs, err = tfaddr.ParseModuleConstraints(call.Version); err != nil {
			return "", err
		}
	}
	root := filepath.Join(m.opts.Dir, ".terraform", "modules", call.Key)
	m.roots[call.Key] = root
	if r, ok := m.old[call.Key]; ok && m.current(r, src, cs) {
		m.seen[call.Key] = r
		return filepath.Join(m.opts.Dir, filepath.FromSlash(r.Dir)), nil
	}
	if m.opts.Offline {
		what := "does not record it"
		if r, ok := m.old[call.Key]; ok {
			what = fmt.Sprintf("records %s", r.Source)
			if r.Version != "" {
				what += " " + r.Version
			}
		}
		return "", fmt.Errorf("%s is not installed (%s %s) and modules are not downloaded offline", src, ModuleManifest, what)
	}
	if err := m.connect(); err != nil {
		return "", err
	}
	rec := moduleRecord{Key: call.Key, Source: src.String()}
	pkg := src.pkg
	if src.registry != nil {
		v, err := m.registry.version(ctx, src.registry, cs)
		if err != nil {
			return "", err
		}
		loc, err := m.registry.location(ctx, src.registry, v)
		if err != nil {
			return "", err
		}
		where, subdir := splitSubdir(loc)
		if pkg, err = detectPackage(where); err != nil {
			return "", fmt.Errorf("the registry's location of %s %s: %v", src.registry, v, err)
		}
		var more string
		pkg, more = splitSubdir(pkg)
		src.subdir = path.Join(more, subdir, src.subdir)
		rec.Version = v.String()
		m.opts.Log("downloading %s %s for %s from %s", src.registry, v, address(call.Key), pkg)
	} else {
		m.opts.Log("downloading %s for %s", pkg, address(call.Key))
	}
	subdir, err := m.place(ctx, pkg, root)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, filepath.FromSlash(path.Join(subdir, src.subdir)))
	if !isDir(dir) {
		return "", fmt.Errorf("the package of %s has no folder %s", src, path.Join(subdir, src.subdir))
	}
	rec.Dir = m.rel(dir)
	m.seen[call.Key] = rec
	return dir, nil
}

// current reports whether the manifest's record r is of src, at a version
// that meets cs, and installed.
func (m *Modules) current(r moduleRecord, src moduleSource, cs tfaddr.ModuleConstraints) bool {
	if r.Source != src.String() || !isDir(filepath.Join(m.opts.Dir, filepath.FromSlash(r.Dir))) {
		return false
	}
	if src.registry == nil {
		return r.Version == ""
	}
	v, err := tfaddr.ParseModuleVersion(r.Version)
	return err == nil && cs.Allows(v)
}

// place fetches pkg into root, replacing what was there.
func (m *Modules) place(ctx context.Context, pkg, root string) (string, error) {
	if err := os.MkdirAll(filepath.Dir(root), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(root), ".fetch-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	into := filepath.Join(tmp, "package")
	subdir, err := m.fetch(ctx, pkg, into, 0)
	if err != nil {
		return "", err
	}
	if err := os.RemoveAll(root); err != nil {
		return "", err
	}
	return subdir, os.Rename(into, root)
}

// local records a local module call; within a remote module, its folder
// must be in the same package.
func (m *Modules) local(call ModuleCall) (string, error) {
	parent := ""
	if i := strings.LastIndexByte(call.Key, '.'); i >= 0 {
		parent = call.Key[:i]
	}
	root := m.roots[parent]
	m.roots[call.Key] = root
	if root != "" && !within(root, call.Dir) {
		return "", fmt.Errorf("%s leads out of the package %s was installed from (%s); a local path in a remote module names a folder of its package", call.Source, address(parent), m.rel(root))
	}
	m.seen[call.Key] = moduleRecord{Key: call.Key, Source: call.Source, Dir: m.rel(call.Dir)}
	return call.Dir, nil
}

// moduleKey matches the keys of module calls, which name their folders.
var moduleKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z_][A-Za-z0-9_-]*)*$`)

// address writes a key as a module address: web.net is module.web.module.net.
func address(key string) string { return "module." + strings.ReplaceAll(key, ".", ".module.") }

// rel returns dir relative to the working directory, as the manifest
// records it.
func (m *Modules) rel(dir string) string {
	rel, err := filepath.Rel(m.opts.Dir, dir)
	if err != nil {
		return filepath.ToSlash(dir)
	}
	return filepath.ToSlash(rel)
}

// Save writes the manifest when a call is remote or there was one: the
// calls installed since NewModules, with, unless complete (the whole
// configuration was read), the records of the calls not seen.
func (m *Modules) Save(complete bool) error {
	if !m.remote && len(m.old) == 0 {
		return nil
	}
	records := map[string]moduleRecord{"": {Key: "", Source: "", Dir: "."}}
	if !complete {
		for k, r := range m.old {
			records[k] = r
		}
	}
	for k, r := range m.seen {
		records[k] = r
	}
	var doc struct{ Modules []moduleRecord }
	for _, k := range slices.Sorted(maps.Keys(records)) {
		doc.Modules = append(doc.Modules, records[k])
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	if old, err := os.ReadFile(m.manifestPath()); err == nil && string(old) == string(data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(m.manifestPath()), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(m.manifestPath(), data, atomicfile.Perm(m.manifestPath(), 0o644))
}
