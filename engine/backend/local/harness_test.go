package local_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/local"
	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// wideProgram registers the stack resource and n resources under it, all at
// once as an evaluated document does; props gives each one's inputs.
func wideProgram(n int, props func(name string) resource.Map, outputs resource.Map) deploy.ProgramFunc {
	return func(ctx context.Context, info deploy.RunInfo) error {
		root, err := info.Monitor.RegisterResource(ctx, deploy.RegisterRequest{Type: resource.RootStackType, Name: info.Project + "-" + info.Stack})
		if err != nil {
			return err
		}
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				name := fmt.Sprintf("r%05d", i)
				_, errs[i] = info.Monitor.RegisterResource(ctx, deploy.RegisterRequest{Type: thingType, Name: name,
					Custom: true, Parent: root.URN, Properties: props(name)})
			}()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
		if outputs == nil {
			return nil
		}
		return info.Monitor.RegisterResourceOutputs(ctx, root.URN, outputs)
	}
}

func plainProps(name string) resource.Map {
	return resource.Map{"name": resource.String(name), "size": resource.Number(8)}
}

// run performs one operation through the backend, as the CLI does.
func run(ctx context.Context, b backend.Backend, ref backend.StackRef, kind backend.OperationKind, sm secrets.Manager,
	opts deploy.Options, journal func(snapshot.Journal) snapshot.Journal) (*deploy.Result, error) {
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	op, err := lock.Begin(ctx, backend.OperationInfo{Kind: kind, Secrets: sm})
	if err != nil {
		return nil, err
	}
	opts.Project, opts.Stack, opts.Journal = ref.Project, ref.Name, op.Journal()
	if journal != nil {
		opts.Journal = journal(opts.Journal)
	}
	operation := map[backend.OperationKind]func(context.Context, deploy.Options, *snapshot.Snapshot) (*deploy.Result, error){
		backend.KindUpdate: deploy.Update, backend.KindRefresh: deploy.Refresh, backend.KindDestroy: deploy.Destroy,
	}[kind]
	res, err := operation(ctx, opts, op.Base())
	sum := backend.Summary{Err: err}
	var snap *snapshot.Snapshot
	if res != nil {
		sum.Changes, snap = res.ResourceChanges(), res.Snapshot
	}
	return res, errors.Join(err, op.Finish(ctx, snap, sum))
}

// newStack opens a backend in a temporary directory with one stack, and
// collects its warnings.
func newStack(t testing.TB) (*local.Backend, backend.StackRef, *warnings) {
	t.Helper()
	w := &warnings{}
	b, err := local.New(t.TempDir(), local.Options{Warn: w.add, EngineVersion: "cairn-test"})
	if err != nil {
		t.Fatal(err)
	}
	ref := backend.StackRef{Project: "proj", Name: "dev"}
	if err := b.CreateStack(context.Background(), ref, nil, nil); err != nil {
		t.Fatal(err)
	}
	return b, ref, w
}

// warnings collects a backend's warnings.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) add(msg string) {
	w.mu.Lock()
	w.msgs = append(w.msgs, msg)
	w.mu.Unlock()
}

// take returns the warnings so far and forgets them.
func (w *warnings) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.msgs
	w.msgs = nil
	return out
}

// stateDir returns a local backend's directory.
func stateDir(b *local.Backend) string { return strings.TrimPrefix(b.URL(), "file://") }

// stackPath returns a file of the backend's layout (".pulumi/…").
func stackPath(b *local.Backend, parts ...string) string {
	return filepath.Join(append([]string{stateDir(b), ".pulumi"}, parts...)...)
}

// begin takes the stack's lock and begins an update, as the CLI does; the
// lock is released when the test ends.
func begin(tb testing.TB, b backend.Backend, ref backend.StackRef, sm secrets.Manager) (backend.Lock, backend.Operation) {
	tb.Helper()
	lock, err := b.Lock(context.Background(), ref)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { lock.Release() })
	op, err := lock.Begin(context.Background(), backend.OperationInfo{Kind: backend.KindUpdate, Secrets: sm})
	if err != nil {
		tb.Fatal(err)
	}
	return lock, op
}

// engineUpdate runs the engine's update for op.
func engineUpdate(tb testing.TB, ref backend.StackRef, op backend.Operation, opts deploy.Options) *deploy.Result {
	tb.Helper()
	opts.Project, opts.Stack, opts.Journal = ref.Project, ref.Name, op.Journal()
	res, err := deploy.Update(context.Background(), opts, op.Base())
	if err != nil {
		tb.Fatal(err)
	}
	return res
}
