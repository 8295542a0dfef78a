package runtimes

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
)

// goMod is a program's go.mod and where the modules it requires are.
type goMod struct {
	dir  string // the folder of go.mod
	file *modfile.File
}

// readGoMod reads the go.mod of the module holding dir; nil when there is
// none.
func readGoMod(dir string) (*goMod, error) {
	p, ok := searchUp(dir, "go.mod")
	if !ok {
		return nil, nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	f, err := modfile.Parse(p, b, nil)
	if err != nil {
		return nil, err
	}
	return &goMod{dir: filepath.Dir(p), file: f}, nil
}

// requirement is a module go.mod requires, after its replacements.
type requirement struct {
	path, version string
	dir           string // a local replacement's folder; "" for the module cache
}

func (m *goMod) requirements() []requirement {
	var out []requirement
	for _, r := range m.file.Require {
		req := requirement{path: r.Mod.Path, version: r.Mod.Version}
		for _, rep := range m.file.Replace {
			if rep.Old.Path != r.Mod.Path || (rep.Old.Version != "" && rep.Old.Version != r.Mod.Version) {
				continue
			}
			if rep.New.Version == "" {
				req.dir = rep.New.Path
				if !filepath.IsAbs(req.dir) {
					req.dir = filepath.Join(m.dir, req.dir)
				}
			} else {
				req.path, req.version = rep.New.Path, rep.New.Version
			}
		}
		out = append(out, req)
	}
	return out
}

// moduleDir returns where the module cache holds r, or r's local folder.
func (r requirement) moduleDir() (string, error) {
	if r.dir != "" {
		return r.dir, nil
	}
	cache, err := goModCache()
	if err != nil {
		return "", err
	}
	escaped, err := module.EscapePath(r.path)
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, escaped+"@"+r.version), nil
}

// missing names a module go.mod requires that is not in the module cache,
// or returns "" when all are.
func (m *goMod) missing() string {
	for _, r := range m.requirements() {
		dir, err := r.moduleDir()
		if err != nil {
			return r.path
		}
		if _, err := os.Stat(dir); err != nil {
			return r.path + "@" + r.version
		}
	}
	return ""
}

// packages returns the plugins of the required modules that hold a
// pulumi-plugin.json of a resource package, at the module's root or in
// its go/ folder, or one folder below either.
func (m *goMod) packages() ([]*pulumirpc.PackageDependency, error) {
	var out []*pulumirpc.PackageDependency
	for _, r := range m.requirements() {
		dir, err := r.moduleDir()
		if err != nil {
			return nil, err
		}
		p, err := readPluginJSON(dir)
		if err != nil {
			return nil, err
		}
		if p == nil || !p.Resource {
			continue
		}
		// github.com/pulumi/pulumi-aws/sdk/v6 serves the plugin aws.
		name := ""
		if parts := strings.Split(r.path, "/"); len(parts) > 2 {
			_, name, _ = strings.Cut(parts[2], "-")
		}
		if p.Name == "" && name == "" {
			return nil, fmt.Errorf("the module %s holds a pulumi-plugin.json that does not name its plugin", r.path)
		}
		version := r.version
		if p.Version == "" && module.IsPseudoVersion(version) {
			if version, err = module.PseudoVersionBase(version); err != nil || version == "" {
				continue // no release to fetch a plugin of
			}
		}
		out = append(out, p.dependency(name, version))
	}
	return out, nil
}

func readPluginJSON(dir string) (*pluginJSON, error) {
	paths := []string{filepath.Join(dir, "pulumi-plugin.json"), filepath.Join(dir, "go", "pulumi-plugin.json")}
	for _, pattern := range []string{filepath.Join(dir, "go", "*", "pulumi-plugin.json"), filepath.Join(dir, "*", "pulumi-plugin.json")} {
		more, _ := filepath.Glob(pattern)
		paths = append(paths, more...)
	}
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var p pluginJSON
		if err := json.Unmarshal(b, &p); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return &p, nil
	}
	return nil, nil
}

// goModCache returns the module cache's folder, as go env reports it.
var goModCache = sync.OnceValues(func() (string, error) {
	if dir := os.Getenv("GOMODCACHE"); dir != "" {
		return dir, nil
	}
	gobin, err := goTool()
	if err != nil {
		return "", err
	}
	out, err := exec.Command(gobin, "env", "GOMODCACHE").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMODCACHE: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
})
