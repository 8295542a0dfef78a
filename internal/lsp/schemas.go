package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/schema"
	cairnws "github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/plugins/host"
)

// schemas loads package schemas in the background, each once, so that no
// request waits for a large schema to be read: completion and hover take
// what is loaded, and a check waits for what it needs (until it is
// superseded). They come from Cairn's schema cache, which no plugin is
// started to fill: a schema not kept there is looked for again at the
// next check, since a `cairn preview` may have kept it meanwhile. done is
// called when a load succeeds.
type schemas struct {
	ctx  context.Context // the server's: loads outlive the checks that start them
	src  *host.CachedSchemas
	dir  string // the project's folder
	done func(pkg string)

	mu      sync.Mutex
	entries map[schemaKey]*schemaEntry
}

// schemaKey is a package at a version; a package a program serves by a
// parameterized provider has its spec (as JSON) and the folder of its
// lock file too (else the project's).
type schemaKey struct{ pkg, version, spec, dir string }

type schemaEntry struct {
	started time.Time
	ready   chan struct{} // closed when pkg and err are set
	pkg     *schema.Package
	err     error
}

func newSchemas(ctx context.Context, src *host.CachedSchemas, dir string, done func(string)) *schemas {
	return &schemas{ctx: ctx, src: src, dir: dir, done: done, entries: map[schemaKey]*schemaEntry{}}
}

// entry returns the entry of a package, starting its load the first time,
// and again when the last one failed.
func (s *schemas) entry(k schemaKey) *schemaEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.entries[k]; e != nil && !e.failed() {
		return e
	}
	e := &schemaEntry{started: time.Now(), ready: make(chan struct{})}
	s.entries[k] = e
	go func() {
		e.pkg, e.err = s.load(k)
		close(e.ready)
		if e.pkg != nil && s.done != nil {
			s.done(k.pkg)
		}
	}()
	return e
}

// load reads the schema of a package.
func (s *schemas) load(k schemaKey) (*schema.Package, error) {
	var spec *cairnws.PackageSpec
	if k.spec != "" {
		spec = new(cairnws.PackageSpec)
		if err := json.Unmarshal([]byte(k.spec), spec); err != nil {
			return nil, err
		}
	}
	dir := k.dir
	if dir == "" {
		dir = s.dir
	}
	data, err := s.src.Schema(s.ctx, k.pkg, k.version, spec, dir)
	switch {
	case errors.Is(err, provider.ErrNotImplemented):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return schema.Parse(data)
}

// failed reports whether the entry's load is over and found no schema.
func (e *schemaEntry) failed() bool {
	select {
	case <-e.ready:
		return e.err != nil
	default:
		return false
	}
}

// schemaWait is how long after a schema starts loading requests wait for
// it: a built-in provider's is ready by then, a plugin's may take seconds.
const schemaWait = 300 * time.Millisecond

// peek returns the schema of a package (at any version, the newest asked
// for without one first); when none is loaded yet, it waits until the
// schema is, or until schemaWait after its load started, and returns nil
// then.
func (s *schemas) peek(pkg string) *schema.Package {
	if pkg == "" {
		return nil
	}
	s.mu.Lock()
	var keys []schemaKey
	for k := range s.entries {
		if k.pkg == pkg {
			keys = append(keys, k)
		}
	}
	s.mu.Unlock()
	sort.Slice(keys, func(i, j int) bool {
		return keys[i].version+keys[i].spec+keys[i].dir < keys[j].version+keys[j].spec+keys[j].dir
	})
	if len(keys) == 0 {
		keys = []schemaKey{{pkg: pkg}}
	}
	for _, k := range keys {
		e := s.entry(k)
		select {
		case <-e.ready:
			if e.pkg != nil {
				return e.pkg
			}
		default:
		}
	}
	e := s.entry(keys[0])
	timer := time.NewTimer(time.Until(e.started.Add(schemaWait)))
	defer timer.Stop()
	select {
	case <-e.ready:
		return e.pkg
	case <-timer.C:
		return nil
	}
}

// pending reports whether a schema of a package is still loading.
func (s *schemas) pending(pkg string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, e := range s.entries {
		if k.pkg != pkg {
			continue
		}
		select {
		case <-e.ready:
		default:
			return true
		}
	}
	return false
}

// loaded returns the schemas loaded so far, one per package, by name.
func (s *schemas) loaded() map[string]*schema.Package {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]*schema.Package{}
	for k, e := range s.entries {
		select {
		case <-e.ready:
			if e.pkg != nil && out[k.pkg] == nil {
				out[k.pkg] = e.pkg
			}
		default:
		}
	}
	return out
}

// source returns the schemas as a check sees them: it waits for a load
// until ctx ends, and a package whose schema is not at hand has none, for
// the reason the error gives, which the check reports where the program
// uses the package. dir is the folder of the files checked: outside any
// project, the lock file of the Terraform providers they declare is there.
func (s *schemas) source(ctx context.Context, dir string) *checkSchemas {
	if s.dir != "" {
		dir = s.dir
	}
	return &checkSchemas{s: s, ctx: ctx, dir: dir, declared: map[string]string{}}
}

// checkSchemas are the schemas of one check.
type checkSchemas struct {
	s   *schemas
	ctx context.Context
	dir string

	mu       sync.Mutex
	declared map[string]string // the specs of the packages the program declares, as JSON
}

// declare records a package the program serves by a parameterized
// provider (HCL's required_providers).
func (c *checkSchemas) declare(name string, spec cairnws.PackageSpec) {
	b, _ := json.Marshal(spec)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.declared[name] = string(b)
}

func (c *checkSchemas) Schema(ctx context.Context, pkg, version string) (*schema.Package, error) {
	if pkg == "" {
		return nil, nil // the package of a type that is not one
	}
	c.mu.Lock()
	k := schemaKey{pkg: pkg, version: version, spec: c.declared[pkg]}
	c.mu.Unlock()
	if k.spec != "" {
		k.dir = c.dir
	}
	e := c.s.entry(k)
	select {
	case <-e.ready:
		return e.pkg, e.err
	case <-c.ctx.Done():
		return nil, c.ctx.Err()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
