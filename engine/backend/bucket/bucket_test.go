package bucket_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/bucket"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
	"github.com/cairn-iac/cairn/internal/backendtest"
	"github.com/cairn-iac/cairn/internal/objtest"
)

// stores starts each kind of object storage server.
var stores = []struct {
	name  string
	start func(testing.TB) *objtest.Store
}{{"S3", objtest.S3}, {"GCS", objtest.GCS}, {"Azure", objtest.Azure}}

var dev = backend.StackRef{Project: "proj", Name: "dev"}

// warnings collects a backend's warnings.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) add(msg string) { w.mu.Lock(); w.msgs = append(w.msgs, msg); w.mu.Unlock() }

func (w *warnings) all() string { w.mu.Lock(); defer w.mu.Unlock(); return strings.Join(w.msgs, "\n") }

// open opens the backend of the store's bucket, with its credentials set
// for this process.
func open(t testing.TB, st *objtest.Store, w *warnings) *bucket.Backend {
	t.Helper()
	st.Setenv(t)
	b, err := openURL(st.URL, w)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func openURL(url string, w *warnings) (*bucket.Backend, error) {
	opts := bucket.Options{RetryFor: 2 * time.Second}
	if w != nil {
		opts.Warn = w.add
	}
	return bucket.Open(context.Background(), url, opts)
}

func TestRetention(t *testing.T) {
	for _, s := range stores {
		t.Run(s.name, func(t *testing.T) { backendtest.Retention(t, open(t, s.start(t), nil)) })
	}
}

// thing is a resource of the stack, as a step creates it.
func thing(name string) *resource.State {
	return &resource.State{URN: resource.NewURN(dev.Name, dev.Project, "", "test:index:Thing", name), Type: "test:index:Thing",
		Custom: true, ID: resource.ID("id-" + name), Outputs: resource.Map{"name": resource.String(name)}}
}

// beginUpdate locks stack dev and begins an update of it.
func beginUpdate(t *testing.T, b backend.Backend) (backend.Lock, backend.Operation) {
	t.Helper()
	ctx := context.Background()
	lock, err := b.Lock(ctx, dev)
	if err != nil {
		t.Fatal(err)
	}
	op, err := lock.Begin(ctx, backend.OperationInfo{Kind: backend.KindUpdate})
	if err != nil {
		t.Fatal(err)
	}
	return lock, op
}

// beginning is the begin entry of a step that creates r.
func beginning(id int64, r *resource.State) snapshot.JournalEntry {
	return snapshot.JournalEntry{Kind: snapshot.EntryBegin, OperationID: id,
		Operation: &resource.Operation{Resource: r, Type: resource.OpCreating}}
}

// created appends to a journal the entries of a step that creates r.
func created(t *testing.T, j snapshot.Journal, id int64, r *resource.State) {
	t.Helper()
	if err := j.Append(beginning(id, r)); err != nil {
		t.Fatal(err)
	}
	if err := j.Append(snapshot.JournalEntry{Kind: snapshot.EntrySuccess, OperationID: id, State: r}); err != nil {
		t.Fatal(err)
	}
}

// TestInterruptedOperationIsRecovered: an operation that dies after its
// steps were journaled loses none of them. Meanwhile the state object is
// still the valid checkpoint it began from, and only the journal's objects
// were written; the next operation compacts the journal into the state.
func TestInterruptedOperationIsRecovered(t *testing.T) {
	for _, s := range stores {
		t.Run(s.name, func(t *testing.T) {
			ctx := context.Background()
			st := s.start(t)
			var w warnings
			b := open(t, st, &w)
			if err := b.CreateStack(ctx, dev, nil, nil); err != nil {
				t.Fatal(err)
			}
			_, op := beginUpdate(t, b)
			created(t, op.Journal(), 1, thing("a"))
			created(t, op.Journal(), 2, thing("b"))
			// The process dies here: neither Finish nor Release.

			other, err := openURL(st.URL, &w)
			if err != nil {
				t.Fatal(err)
			}
			defer other.Close()
			exp, err := other.Export(ctx, dev, backend.ExportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(string(exp.Deployment), "test:index:Thing::"); n != 2 {
				t.Errorf("the export during the interrupted operation has %d things, want 2 (the journal replayed)", n)
			}
			raw := readObject(t, st, ".pulumi/stacks/proj/dev.json")
			if _, err := state.ParseCheckpoint(raw); err != nil || strings.Contains(string(raw), "Thing") {
				t.Errorf("the state object meanwhile is not the valid checkpoint the operation began from (%v):\n%s", err, raw)
			}
			if _, err := other.Lock(ctx, dev); !errors.As(err, new(*backend.LockedError)) {
				t.Fatalf("Lock while the dead operation's lock is there = %v, want a *LockedError", err)
			}
			if _, err := other.Unlock(ctx, dev); err != nil {
				t.Fatal(err)
			}
			lock2, err := other.Lock(ctx, dev)
			if err != nil {
				t.Fatal(err)
			}
			op2, err := lock2.Begin(ctx, backend.OperationInfo{Kind: backend.KindRefresh})
			if err != nil {
				t.Fatal(err)
			}
			if n := len(op2.Base().Resources); n != 2 {
				t.Errorf("the next operation begins from %d resources, want the 2 the dead one created", n)
			}
			if !strings.Contains(w.all(), "did not finish; its journal was recovered") {
				t.Errorf("no warning that the journal was recovered: %q", w.all())
			}
			if err := op2.Finish(ctx, nil, backend.Summary{}); err != nil {
				t.Fatal(err)
			}
			lock2.Release()
			history, err := other.History(ctx, dev)
			if err != nil || len(history) != 2 || history[1].Result != backend.ResultInterrupted {
				t.Errorf("history = %+v, %v; want the refresh and the interrupted update", history, err)
			}
			if keys := listObjects(t, st, ".pulumi/journals/"); len(keys) != 0 {
				t.Errorf("journal objects left after Finish: %v", keys)
			}
		})
	}
}

// TestLockIsAtomic: of processes racing for a stack's lock exactly one
// gets it, and the others are told who holds it; Pulumi's lock files are
// respected.
func TestLockIsAtomic(t *testing.T) {
	for _, s := range stores {
		t.Run(s.name, func(t *testing.T) {
			ctx := context.Background()
			st := s.start(t)
			b := open(t, st, nil)
			if err := b.CreateStack(ctx, dev, nil, nil); err != nil {
				t.Fatal(err)
			}
			const racers = 6
			var (
				wg     sync.WaitGroup
				mu     sync.Mutex
				won    []backend.Lock
				losers []error
			)
			for range racers {
				other, err := openURL(st.URL, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer other.Close()
				wg.Add(1)
				go func() {
					defer wg.Done()
					l, err := other.Lock(ctx, dev)
					mu.Lock()
					defer mu.Unlock()
					if err == nil {
						won = append(won, l)
					} else {
						losers = append(losers, err)
					}
				}()
			}
			wg.Wait()
			if len(won) != 1 {
				t.Fatalf("%d of %d racers got the lock, want 1; errors: %v", len(won), racers, losers)
			}
			for _, err := range losers {
				var locked *backend.LockedError
				if !errors.As(err, &locked) || locked.Holder.Pid == 0 || !strings.Contains(err.Error(), "is locked by pid") {
					t.Errorf("a racer that lost got %v, want a *LockedError naming the holder", err)
				}
			}
			if err := won[0].Release(); err != nil {
				t.Fatal(err)
			}

			// A lock of Pulumi's (named by a UUID) refuses Cairn.
			writeObject(t, st, ".pulumi/locks/organization/proj/dev/0b5e6a43-60b4-4d86-a3d2-3a1a8f3c7d11.json",
				`{"pid":4242,"username":"pat","hostname":"ci-runner-7","timestamp":"2026-11-29T08:00:00Z"}`)
			_, err := b.Lock(ctx, dev)
			if err == nil || !strings.Contains(err.Error(), "pid 4242 on host ci-runner-7") {
				t.Errorf("Lock with Pulumi's lock there = %v, want it refused naming Pulumi's holder", err)
			}
			if keys := listObjects(t, st, ".pulumi/locks/organization/proj/dev/"); len(keys) != 1 {
				t.Errorf("after the refusal the locks are %v, want Pulumi's alone", keys)
			}
			if info, err := b.Unlock(ctx, dev); err != nil || info == nil || info.Hostname != "ci-runner-7" {
				t.Errorf("Unlock = %+v, %v; want Pulumi's stale lock removed", info, err)
			}
			l, err := b.Lock(ctx, dev)
			if err != nil {
				t.Fatal(err)
			}
			l.Release()
		})
	}
}
