package tfplugin

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/plugins/tfaddr"
	"github.com/cairn-iac/cairn/plugins/tfinstall"
)

// CachedSchemas reads offline the schemas of Terraform providers that
// Factory's providers kept in SchemaDir (Options.SchemaDir): a project's
// lock file says which package of a provider it uses, and that package's
// hash names its schema. It installs and starts nothing; it implements
// host.PackageSchemas for the packages tfplugin serves.
type CachedSchemas struct {
	SchemaDir    string
	CairnVersion string // Cairn's version, as Options.CairnVersion
}

// CachedSchema returns the package schema of package pkg, the Terraform
// provider spec's parameters name, at the version the lock file in dir
// pins.
func (c CachedSchemas) CachedSchema(pkg string, spec workspace.PackageSpec, dir string) ([]byte, error) {
	if len(spec.Parameters) == 0 {
		return nil, fmt.Errorf("package %s: %s is parameterized with no Terraform provider", pkg, Name)
	}
	addr, err := tfaddr.ParseProvider(spec.Parameters[0])
	if err != nil {
		return nil, err
	}
	preview := "a first `cairn preview` of the configuration installs it and keeps its schema"
	if dir == "" {
		return nil, fmt.Errorf("the Terraform provider %s is not installed in any project, and the language server never installs one: %s", addr, preview)
	}
	locks, err := tfinstall.ReadLocks(dir)
	if err != nil {
		return nil, err
	}
	lock, ok := locks[addr.String()]
	if !ok {
		return nil, fmt.Errorf("the Terraform provider %s is not pinned by %s, and the language server never installs one: %s",
			addr, filepath.Join(dir, tfinstall.LockFileName), preview)
	}
	cache := &schemaCache{dir: c.SchemaDir, version: c.CairnVersion, m: map[string]*providerSchema{}}
	param := &parameter{Source: lock.Source, Version: lock.Version}
	for _, h := range lock.Hashes {
		if !strings.HasPrefix(h, "h1:") {
			continue
		}
		if s := cache.get("", h, pkg, param); s != nil {
			return s.pkg, nil
		}
	}
	return nil, fmt.Errorf("the schema cache of Cairn has no schema of the Terraform provider %s %s, and the language server never starts a provider: a `cairn preview` of the configuration starts it once and keeps its schema",
		addr, lock.Version)
}
