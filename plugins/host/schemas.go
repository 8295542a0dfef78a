package host

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/internal/atomicfile"
)

// Schema implements provider.SchemaHost: the schema of pkg at version as
// its provider's GetSchema returns it. A plugin is asked once: its schema
// is kept in the schema cache folder, named after the plugin and its
// version (or, for a binary whose location does not tell its version, a
// hash of its path, size and modification time), and read from there
// afterwards. Built-in providers are asked in process, isolated or not,
// and parameterized packages are always asked.
func (r *Resolver) Schema(ctx context.Context, pkg, version, url string) ([]byte, error) {
	if data, ok, err := r.builtinSchema(ctx, pkg, version); ok {
		return data, err
	}
	path := r.schemaPath(pkg, version)
	if path != "" {
		if data, err := os.ReadFile(path); err == nil {
			return data, nil
		}
	}
	p, err := r.LoadFrom(ctx, pkg, version, url)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	data, err := p.GetSchema(ctx, provider.GetSchemaRequest{})
	if err != nil || path == "" {
		return data, err
	}
	// A schema that cannot be cached is asked for again next time.
	if os.MkdirAll(filepath.Dir(path), 0o755) == nil {
		_ = atomicfile.Write(path, data, 0o600)
	}
	return data, nil
}

// builtinSchema returns the schema of pkg at version when a built-in
// provider serves it unparameterized, asked in process; ok is false when
// none does.
func (r *Resolver) builtinSchema(ctx context.Context, pkg, version string) (data []byte, ok bool, err error) {
	res, found := r.resolve(pkg, version)
	if !found || res.Source != SourceBuiltin {
		return nil, false, nil
	}
	if _, param := r.packageSpec(pkg); param {
		return nil, false, nil
	}
	p, err := res.factory.New(ctx)
	if err != nil {
		return nil, true, err
	}
	defer p.Close()
	data, err = p.GetSchema(ctx, provider.GetSchemaRequest{})
	return data, true, err
}

// versionedSchemaPath is the file of the schema cache dir that keeps the
// schema of pkg at version.
func versionedSchemaPath(dir, pkg, version string) string {
	return filepath.Join(dir, fmt.Sprintf("%s-v%s.json", pkg, strings.TrimPrefix(version, "v")))
}

// schemaPath returns the cache file of the schema of pkg at version, or ""
// when it is not cached.
func (r *Resolver) schemaPath(pkg, version string) string {
	if r.opts.SchemaCache == "" {
		return ""
	}
	if _, ok := r.packageSpec(pkg); ok {
		return ""
	}
	res, ok := r.resolve(pkg, version)
	if !ok || res.Source == SourceBuiltin {
		return ""
	}
	if res.Version != "" {
		return versionedSchemaPath(r.opts.SchemaCache, pkg, res.Version)
	}
	id, ok := binaryIdentity(res.Path)
	if !ok {
		return ""
	}
	sum := sha256.Sum256([]byte(id))
	return filepath.Join(r.opts.SchemaCache, fmt.Sprintf("%s-%x.json", pkg, sum[:8]))
}
