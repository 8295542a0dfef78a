package locate

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"golang.org/x/mod/semver"

	"github.com/cairn-iac/cairn/engine/provider"
)

// Kind is the kind of a plugin.
type Kind string

// The kinds of plugins Cairn runs.
const (
	Resource Kind = "resource"
	Language Kind = "language"
)

// Binary returns the file name of the plugin of kind k named name.
func (k Kind) Binary(name string) string {
	b := "pulumi-" + string(k) + "-" + name
	if runtime.GOOS == "windows" {
		b += ".exe"
	}
	return b
}

// Candidate is a plugin binary found on disk.
type Candidate struct {
	Kind    Kind
	Name    string
	Version string // without "v"; empty when the location does not say
	Path    string
}

// Dirs says where to look for plugins.
type Dirs struct {
	// Plugins are folders holding binaries directly or in versioned
	// folders named <kind>-<name>-v<version>, searched in order.
	Plugins []string
	// Path are the folders of $PATH, which hold unversioned binaries.
	Path []string
}

// DefaultDirs returns the folders of the environment: $CAIRN_HOME/plugins,
// $PULUMI_HOME/plugins and $PATH, with the homes defaulting to ~/.cairn and
// ~/.pulumi.
func DefaultDirs() Dirs {
	home, _ := os.UserHomeDir()
	cairn := os.Getenv("CAIRN_HOME")
	if cairn == "" && home != "" {
		cairn = filepath.Join(home, ".cairn")
	}
	pulumi := os.Getenv("PULUMI_HOME")
	if pulumi == "" && home != "" {
		pulumi = filepath.Join(home, ".pulumi")
	}
	var d Dirs
	for _, h := range []string{cairn, pulumi} {
		if h != "" {
			d.Plugins = append(d.Plugins, filepath.Join(h, "plugins"))
		}
	}
	d.Path = filepath.SplitList(os.Getenv("PATH"))
	return d
}

// Find returns every binary of the plugin of kind k named name: versioned
// ones first, newest first, then unversioned ones in search order.
func (d Dirs) Find(k Kind, name string) []Candidate {
	var out []Candidate
	for _, c := range d.All(k) {
		if c.Name == name {
			out = append(out, c)
		}
	}
	return out
}

// All returns every plugin binary of kind k, ordered by name, then as Find
// orders them.
func (d Dirs) All(k Kind) []Candidate {
	var versioned, plain []Candidate
	for _, dir := range d.Plugins {
		v, p := scan(dir, k, true)
		versioned, plain = append(versioned, v...), append(plain, p...)
	}
	for _, dir := range d.Path {
		_, p := scan(dir, k, false)
		plain = append(plain, p...)
	}
	sort.SliceStable(versioned, func(i, j int) bool {
		a, b := versioned[i], versioned[j]
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return semver.Compare("v"+a.Version, "v"+b.Version) > 0
	})
	out := append(versioned, plain...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// scan lists the plugins of kind k in dir: binaries directly in it and, when
// nested is set, binaries in versioned folders.
func scan(dir string, k Kind, nested bool) (versioned, plain []Candidate) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil
	}
	prefix := "pulumi-" + string(k) + "-"
	for _, e := range entries {
		n := e.Name()
		switch {
		case !e.IsDir() && strings.HasPrefix(n, prefix):
			name := strings.TrimSuffix(strings.TrimPrefix(n, prefix), ".exe")
			if isExecutable(filepath.Join(dir, n)) {
				plain = append(plain, Candidate{Kind: k, Name: name, Path: filepath.Join(dir, n)})
			}
		case e.IsDir() && nested:
			if c, ok := versionedFolder(dir, n, k); ok {
				versioned = append(versioned, c)
			}
		}
	}
	return versioned, plain
}

// versionedFolder reads a cache folder named <kind>-<name>-v<version>. A
// folder with a .partial marker beside it is an unfinished download.
func versionedFolder(dir, folder string, k Kind) (Candidate, bool) {
	rest, ok := strings.CutPrefix(folder, string(k)+"-")
	if !ok {
		return Candidate{}, false
	}
	i := strings.LastIndex(rest, "-v")
	if i <= 0 {
		return Candidate{}, false
	}
	name, version := rest[:i], rest[i+2:]
	if !semver.IsValid("v"+version) || exists(filepath.Join(dir, folder+".partial")) {
		return Candidate{}, false
	}
	path := filepath.Join(dir, folder, k.Binary(name))
	if !isExecutable(path) {
		return Candidate{}, false
	}
	return Candidate{Kind: k, Name: name, Version: version, Path: path}, true
}

// Best returns the candidate to use for a request of version ("" means any),
// as Pulumi chooses: the exact version when it is installed, else the newest
// versioned candidate compatible with it, else the first unversioned one.
func Best(cs []Candidate, version string) (Candidate, bool) {
	for _, c := range cs {
		if version != "" && c.Version == strings.TrimPrefix(version, "v") {
			return c, true
		}
	}
	var best Candidate
	found := false
	for _, c := range cs {
		if c.Version == "" || !provider.Compatible(c.Version, version) {
			continue
		}
		if !found || semver.Compare("v"+c.Version, "v"+best.Version) > 0 {
			best, found = c, true
		}
	}
	if found {
		return best, true
	}
	for _, c := range cs {
		if c.Version == "" {
			return c, true
		}
	}
	return Candidate{}, false
}

// InFolder returns the binary of the plugin of kind k named name given a
// project's plugins entry path: Pulumi's definition is the folder holding
// it; a path to the binary itself is accepted too.
func InFolder(path string, k Kind, name string) string {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return filepath.Join(path, k.Binary(name))
	}
	return path
}

// Size returns the bytes a plugin binary takes on disk: its whole folder's
// when it is installed in a versioned folder.
func Size(c Candidate) int64 {
	root := c.Path
	if c.Version != "" && strings.HasSuffix(filepath.Base(filepath.Dir(c.Path)), "-v"+c.Version) {
		root = filepath.Dir(c.Path)
	}
	var n int64
	_ = filepath.WalkDir(root, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func isExecutable(path string) bool {
	info, err := os.Stat(path)
	if err != nil || info.IsDir() {
		return false
	}
	return runtime.GOOS == "windows" || info.Mode()&0o111 != 0
}
