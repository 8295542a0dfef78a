package lsp

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/eval"
)

// schemas loads package schemas in the background, each once, so that no
// request waits for a plugin to start: completion and hover take what is
// loaded, and a check waits for what it needs (until it is superseded).
// done is called when a load ends.
type schemas struct {
	ctx  context.Context // the server's: loads outlive the checks that start them
	src  eval.SchemaSource
	done func(pkg string, err error)

	mu      sync.Mutex
	entries map[schemaKey]*schemaEntry
}

type schemaKey struct{ pkg, version, url string }

type schemaEntry struct {
	started time.Time
	ready   chan struct{} // closed when pkg and err are set
	pkg     *schema.Package
	err     error
}

func newSchemas(ctx context.Context, src eval.SchemaSource, done func(string, error)) *schemas {
	return &schemas{ctx: ctx, src: src, done: done, entries: map[schemaKey]*schemaEntry{}}
}

// entry returns the entry of a package, starting its load the first time.
func (s *schemas) entry(k schemaKey) *schemaEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.entries[k]; e != nil {
		return e
	}
	e := &schemaEntry{started: time.Now(), ready: make(chan struct{})}
	s.entries[k] = e
	go func() {
		e.pkg, e.err = eval.SchemaFrom(s.ctx, s.src, k.pkg, k.version, k.url)
		close(e.ready)
		if s.done != nil {
			s.done(k.pkg, e.err)
		}
	}()
	return e
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
	sort.Slice(keys, func(i, j int) bool { return keys[i].version+keys[i].url < keys[j].version+keys[j].url })
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
// until ctx ends, and a package whose provider cannot be loaded has no
// schema (the server says why once, not at every check).
func (s *schemas) source(ctx context.Context) eval.DownloadSchemaSource {
	return checkSchemas{s: s, ctx: ctx}
}

type checkSchemas struct {
	s   *schemas
	ctx context.Context
}

func (c checkSchemas) Schema(ctx context.Context, pkg, version string) (*schema.Package, error) {
	return c.SchemaFrom(ctx, pkg, version, "")
}

func (c checkSchemas) SchemaFrom(ctx context.Context, pkg, version, url string) (*schema.Package, error) {
	if pkg == "" {
		return nil, nil // the package of a type that is not one
	}
	e := c.s.entry(schemaKey{pkg, version, url})
	select {
	case <-e.ready:
		return e.pkg, nil
	case <-c.ctx.Done():
		return nil, c.ctx.Err()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
