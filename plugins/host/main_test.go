package host_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/internal/locate"
	"github.com/cairn-iac/cairn/internal/plugintest"
	"github.com/cairn-iac/cairn/plugins/host"
)

func TestMain(m *testing.M) {
	plugintest.Main(m,
		plugintest.ProviderRole("kv", false),
		plugintest.ProviderRole("kvhs", true),
		plugintest.BareRole,
		plugintest.ServeRole(append(builtins, plugintest.Factory("kvb", "2.0.0", false))...),
	)
}

const (
	project = "proj"
	stack   = "dev"
	itemKV  = "kv:index:Item"
)

// env is a stack whose providers are plugin processes: pulumi-resource-kv
// and pulumi-resource-kvhs (the test binary) in a plugin folder, keeping
// their items in a cloud folder.
type env struct {
	t        *testing.T
	dir      string
	cloud    string
	plugins  string
	resolver *host.Resolver
	snap     *snapshot.Snapshot
	journal  *recorder
}

func newEnv(t *testing.T, opts host.ResolverOptions) *env {
	t.Helper()
	e := &env{t: t, dir: t.TempDir(), journal: &recorder{}}
	e.cloud = filepath.Join(e.dir, "cloud")
	e.plugins = filepath.Join(e.dir, "plugins")
	if err := os.MkdirAll(e.cloud, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(plugintest.DirEnv, e.cloud)
	plugintest.Link(t, filepath.Join(e.plugins, "resource-kv-v1.0.0"), "pulumi-resource-kv")
	plugintest.Link(t, filepath.Join(e.plugins, "resource-kvhs-v1.0.0"), "pulumi-resource-kvhs")
	opts.Dirs = locate.Dirs{Plugins: []string{e.plugins}}
	e.resolver = host.NewResolver(opts)
	t.Cleanup(func() { _ = e.resolver.Close() })
	return e
}

func (e *env) options(prog deploy.Program, dryRun bool) deploy.Options {
	return deploy.Options{Project: project, Stack: stack, Host: e.resolver, Program: prog, DryRun: dryRun, Journal: e.journal}
}

// run runs an operation on the current snapshot, keeps its snapshot and
// checks its integrity.
func (e *env) run(op func(context.Context, deploy.Options, *snapshot.Snapshot) (*deploy.Result, error), opts deploy.Options) (*deploy.Result, error) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := op(ctx, opts, e.snap)
	if res != nil && !opts.DryRun {
		e.snap = res.Snapshot
		if ierr := e.snap.VerifyIntegrity(); ierr != nil {
			e.t.Fatalf("integrity: %v", ierr)
		}
	}
	return res, err
}

func (e *env) up(prog deploy.Program) *deploy.Result {
	e.t.Helper()
	res, err := e.run(deploy.Update, e.options(prog, false))
	if err != nil {
		e.t.Fatalf("update: %v", err)
	}
	return res
}

func (e *env) find(name string) *resource.State {
	for _, r := range e.snap.Resources {
		if r.URN.Name() == name && !r.Delete {
			return r
		}
	}
	return nil
}

func (e *env) mustFind(name string) *resource.State {
	e.t.Helper()
	r := e.find(name)
	if r == nil {
		e.t.Fatalf("resource %s is not in the state", name)
	}
	return r
}

// recorder is a journal that keeps its entries.
type recorder struct {
	mu      sync.Mutex
	entries []snapshot.JournalEntry
}

func (r *recorder) Append(e snapshot.JournalEntry) error {
	r.mu.Lock()
	r.entries = append(r.entries, e)
	r.mu.Unlock()
	return nil
}

// outcome returns the kinds of the entries of the operation that began on
// urn with typ: a begin entry and the one that ended it.
func (r *recorder) outcome(urn resource.URN, typ resource.OperationType) []snapshot.EntryKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	var op int64 = -1
	var kinds []snapshot.EntryKind
	for _, e := range r.entries {
		if e.Kind == snapshot.EntryBegin && e.Operation != nil && e.Operation.Resource.URN == urn && e.Operation.Type == typ {
			op, kinds = e.OperationID, append(kinds, e.Kind)
			continue
		}
		if op >= 0 && e.OperationID == op {
			kinds = append(kinds, e.Kind)
		}
	}
	return kinds
}

// registrar declares resources of one program run.
type registrar struct {
	ctx  context.Context
	info deploy.RunInfo
	root resource.URN
}

// program runs body after registering the root stack resource.
func program(body func(r *registrar) error) deploy.Program {
	return deploy.ProgramFunc(func(ctx context.Context, info deploy.RunInfo) error {
		root, err := info.Monitor.RegisterResource(ctx, deploy.RegisterRequest{Type: resource.RootStackType, Name: project + "-" + stack})
		if err != nil {
			return err
		}
		return body(&registrar{ctx: ctx, info: info, root: root.URN})
	})
}

// item registers a custom resource under the root.
func (r *registrar) item(typ, name string, inputs resource.Map, opts ...func(*deploy.RegisterRequest)) (*deploy.RegisterResponse, error) {
	req := deploy.RegisterRequest{Type: typ, Name: name, Custom: true, Parent: r.root, Properties: inputs}
	for _, o := range opts {
		o(&req)
	}
	return r.info.Monitor.RegisterResource(r.ctx, req)
}

func str(s string) resource.Value { return resource.String(s) }
