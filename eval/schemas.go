package eval

import (
	"context"
	"errors"
	"sync"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/schema"
)

// SchemaSource provides the schemas of packages, for resolving short type
// tokens and checking properties before a program runs. Schema returns
// (nil, nil) for a package whose provider offers no schema.
type SchemaSource interface {
	Schema(ctx context.Context, pkg, version string) (*schema.Package, error)
}

// DownloadSchemaSource is a SchemaSource that can install a missing
// provider from the download URL a program names to get its schema.
type DownloadSchemaSource interface {
	SchemaSource
	SchemaFrom(ctx context.Context, pkg, version, downloadURL string) (*schema.Package, error)
}

// SchemaFrom returns the schema of pkg at version from src, which installs
// its provider from downloadURL when it can and must.
func SchemaFrom(ctx context.Context, src SchemaSource, pkg, version, downloadURL string) (*schema.Package, error) {
	if ds, ok := src.(DownloadSchemaSource); ok {
		return ds.SchemaFrom(ctx, pkg, version, downloadURL)
	}
	return src.Schema(ctx, pkg, version)
}

// ProviderSchemas is a SchemaSource that asks providers for their schemas
// (GetSchema), loading each package once.
func ProviderSchemas(host provider.Host) SchemaSource {
	return &providerSchemas{host: host, cache: map[string]*schemaEntry{}}
}

type providerSchemas struct {
	host  provider.Host
	mu    sync.Mutex
	cache map[string]*schemaEntry
}

type schemaEntry struct {
	once sync.Once
	pkg  *schema.Package
	err  error
}

func (s *providerSchemas) Schema(ctx context.Context, pkg, version string) (*schema.Package, error) {
	return s.SchemaFrom(ctx, pkg, version, "")
}

func (s *providerSchemas) SchemaFrom(ctx context.Context, pkg, version, url string) (*schema.Package, error) {
	key := pkg + "@" + version + "|" + url
	s.mu.Lock()
	e := s.cache[key]
	if e == nil {
		e = &schemaEntry{}
		s.cache[key] = e
	}
	s.mu.Unlock()
	e.once.Do(func() { e.pkg, e.err = s.load(ctx, pkg, version, url) })
	return e.pkg, e.err
}

func (s *providerSchemas) load(ctx context.Context, pkg, version, url string) (*schema.Package, error) {
	data, err := s.fetch(ctx, pkg, version, url)
	if errors.Is(err, provider.ErrNotImplemented) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return schema.Parse(data)
}

// fetch returns the schema of pkg at version as its provider gives it, from
// the host when it keeps schemas.
func (s *providerSchemas) fetch(ctx context.Context, pkg, version, url string) ([]byte, error) {
	if sh, ok := s.host.(provider.SchemaHost); ok {
		return sh.Schema(ctx, pkg, version, url)
	}
	p, err := s.host.Load(ctx, pkg, version)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return p.GetSchema(ctx, provider.GetSchemaRequest{})
}
