package runtimes

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// pluginJSON is what Pulumi packages say of their provider plugin: the
// "pulumi" section of an npm package's package.json, or a Go module's
// pulumi-plugin.json.
type pluginJSON struct {
	Resource         bool                  `json:"resource"`
	Name             string                `json:"name"`
	Version          string                `json:"version"`
	Server           string                `json:"server"`
	Parameterization *parameterizationJSON `json:"parameterization"`
}

type parameterizationJSON struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Value   []byte `json:"value"` // base64 in JSON
}

// dependency returns the plugin p describes, named name and at version
// unless p says otherwise.
func (p pluginJSON) dependency(name, version string) *pulumirpc.PackageDependency {
	if p.Name != "" {
		name = p.Name
	}
	if p.Version != "" {
		version = p.Version
	}
	d := &pulumirpc.PackageDependency{Name: name, Kind: "resource", Version: strings.TrimPrefix(version, "v"), Server: p.Server}
	if q := p.Parameterization; q != nil {
		d.Parameterization = &pulumirpc.PackageParameterization{Name: q.Name, Version: q.Version, Value: q.Value}
	}
	return d
}

// nodePackages returns the provider plugins of the Pulumi resource
// packages in the node_modules folder dir and, deeply, in the node_modules
// of its packages. A package of the @pulumi scope names its plugin after
// itself; another must name it in its "pulumi" section.
func nodePackages(dir string) ([]*pulumirpc.PackageDependency, error) {
	var out []*pulumirpc.PackageDependency
	var errs []error
	seen := map[string]bool{}
	var walk func(dir string)
	walk = func(dir string) {
		real, err := filepath.EvalSymlinks(dir)
		if err != nil || seen[real] {
			return
		}
		seen[real] = true
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			name := e.Name()
			if strings.HasPrefix(name, ".") {
				continue
			}
			if strings.HasPrefix(name, "@") {
				scoped, _ := os.ReadDir(filepath.Join(dir, name))
				for _, s := range scoped {
					d, err := nodePackage(filepath.Join(dir, name, s.Name()), walk)
					errs = append(errs, err)
					if d != nil {
						out = append(out, d)
					}
				}
				continue
			}
			d, err := nodePackage(filepath.Join(dir, name), walk)
			errs = append(errs, err)
			if d != nil {
				out = append(out, d)
			}
		}
	}
	walk(dir)
	return out, errors.Join(errs...)
}

// nodePackage reads the package.json of the package in dir, returning its
// plugin if it is a Pulumi resource package, and walks its node_modules.
func nodePackage(dir string, walk func(string)) (*pulumirpc.PackageDependency, error) {
	walk(filepath.Join(dir, "node_modules"))
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil, nil // not a package
	}
	var pkg struct {
		Name    string     `json:"name"`
		Version string     `json:"version"`
		Pulumi  pluginJSON `json:"pulumi"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "package.json"), err)
	}
	if !pkg.Pulumi.Resource {
		return nil, nil
	}
	name, ok := strings.CutPrefix(pkg.Name, "@pulumi/")
	if !ok && pkg.Pulumi.Name == "" {
		return nil, fmt.Errorf("%s: the package %s is a Pulumi resource package whose \"pulumi\" section does not name its plugin",
			filepath.Join(dir, "package.json"), pkg.Name)
	}
	return pkg.Pulumi.dependency(name, pkg.Version), nil
}
