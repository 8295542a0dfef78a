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
	s.mu.Lock()
	e := s.cache[pkg+"@"+version]
	if e == nil {
		e = &schemaEntry{}
		s.cache[pkg+"@"+version] = e
	}
	s.mu.Unlock()
	e.once.Do(func() { e.pkg, e.err = s.load(ctx, pkg, version) })
	return e.pkg, e.err
}

func (s *providerSchemas) load(ctx context.Context, pkg, version string) (*schema.Package, error) {
	data, err := s.fetch(ctx, pkg, version)
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
func (s *providerSchemas) fetch(ctx context.Context, pkg, version string) ([]byte, error) {
	if sh, ok := s.host.(provider.SchemaHost); ok {
		return sh.Schema(ctx, pkg, version)
	}
	p, err := s.host.Load(ctx, pkg, version)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return p.GetSchema(ctx, provider.GetSchemaRequest{})
}
