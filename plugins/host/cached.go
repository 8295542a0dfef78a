package host

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/semver"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/internal/locate"
)

// CachedSchemas reads the schemas of packages offline, without installing
// or starting anything: built-in providers give theirs in process, and
// those of plugins are read from the schema cache, where the runs that
// started the plugins kept them. None of its methods can install or launch
// a plugin: the language server reads schemas through it.
type CachedSchemas struct {
	opts CachedSchemasOptions
	// r says where packages resolve to; it is never asked to load one.
	r *Resolver
}

// CachedSchemasOptions say where CachedSchemas looks.
type CachedSchemasOptions struct {
	// Builtins are the providers compiled into Cairn, asked for their
	// schemas in process and never parameterized.
	Builtins provider.Factories
	// Dirs are where plugin binaries are found: a schema kept for a
	// binary whose location does not tell its version is named after it.
	Dirs locate.Dirs
	// SchemaCache is the schema cache folder, $CAIRN_HOME/schemas.
	SchemaCache string
	// Packages read the schemas kept of the packages served by
	// parameterized providers, by the provider serving them.
	Packages map[string]PackageSchemas
}

// PackageSchemas reads, offline, the schemas a parameterized provider
// kept of the packages it serves.
type PackageSchemas interface {
	// CachedSchema returns the schema of package pkg served as spec says,
	// for the project in dir, or an error saying why none is kept and
	// which command keeps it.
	CachedSchema(pkg string, spec workspace.PackageSpec, dir string) ([]byte, error)
}

// NewCachedSchemas returns the schemas of packages outside any project.
func NewCachedSchemas(o CachedSchemasOptions) *CachedSchemas {
	return (&CachedSchemas{opts: o}).Project(nil, nil)
}

// Project returns the schemas as a project sees them: its plugins entries
// pin versions and binaries, and its packages are served by parameterized
// providers.
func (c *CachedSchemas) Project(plugins []workspace.PluginRef, packages map[string]workspace.PackageSpec) *CachedSchemas {
	return &CachedSchemas{opts: c.opts, r: NewResolver(ResolverOptions{Project: plugins, Packages: packages,
		Builtins: c.opts.Builtins, Dirs: c.opts.Dirs, SchemaCache: c.opts.SchemaCache})}
}

// Builtins returns the packages of the built-in providers.
func (c *CachedSchemas) Builtins() []string {
	out := make([]string, len(c.opts.Builtins))
	for i, f := range c.opts.Builtins {
		out[i] = f.Pkg
	}
	return out
}

// Schema returns the schema of pkg at version ("" for any) as its provider
// gave it. A non-nil spec says a program serves pkg by a parameterized
// provider (HCL's required_providers); dir is the project's folder, which
// holds its lock file. When no schema is at hand, the error says which
// command keeps one in the cache.
func (c *CachedSchemas) Schema(ctx context.Context, pkg, version string, spec *workspace.PackageSpec, dir string) ([]byte, error) {
	if spec == nil {
		if s, ok := c.r.packageSpec(pkg); ok {
			spec = &s
		}
	}
	if spec != nil {
		ps := c.opts.Packages[spec.Source]
		if ps == nil {
			return nil, fmt.Errorf("package %s is served by %s parameterized with %q, whose schemas are not kept: only a `cairn preview` of the project checks its resources", pkg, spec.Source, spec.Parameters)
		}
		return ps.CachedSchema(pkg, *spec, dir)
	}
	if data, ok, err := c.r.builtinSchema(ctx, pkg, version); ok {
		return data, err
	}
	path := c.r.schemaPath(pkg, version)
	if path == "" && c.opts.SchemaCache != "" {
		path = c.newest(pkg, version)
	}
	if path != "" {
		data, err := os.ReadFile(path)
		if !errors.Is(err, fs.ErrNotExist) {
			return data, err
		}
	}
	return nil, c.notCached(pkg, version)
}

// newest returns the cache file of pkg at version, or of its newest
// version kept when version is "", or "".
func (c *CachedSchemas) newest(pkg, version string) string {
	if version != "" {
		return versionedSchemaPath(c.opts.SchemaCache, pkg, version)
	}
	paths, _ := filepath.Glob(versionedSchemaPath(c.opts.SchemaCache, pkg, "*"))
	best, bestVersion := "", ""
	for _, p := range paths {
		v := "v" + strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), pkg+"-v"), ".json")
		if semver.IsValid(v) && (best == "" || semver.Compare(v, bestVersion) > 0) {
			best, bestVersion = p, v
		}
	}
	return best
}

// notCached says that no schema of pkg at version is kept, and which
// command keeps one.
func (c *CachedSchemas) notCached(pkg, version string) error {
	at := ""
	if version != "" {
		at = " " + strings.TrimPrefix(version, "v")
	}
	if res, ok := c.r.resolve(pkg, version); ok && res.Path != "" {
		return fmt.Errorf("the schema cache of Cairn has no schema of %s%s, and the language server never starts a plugin (%s): a `cairn preview` of the project starts it once and keeps its schema", pkg, at, res.Path)
	}
	install := "`cairn plugin install resource " + pkg + at + "`"
	if version == "" {
		install = "`cairn plugin install resource " + pkg + " VERSION`"
	}
	return fmt.Errorf("the schema cache of Cairn has no schema of %s%s, and the language server never installs a plugin: a first `cairn preview` of the project installs it (as %s would) and keeps its schema", pkg, at, install)
}
