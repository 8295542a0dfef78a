// Package backendtest holds tests that every backend.Backend must pass; a
// backend's own tests run them on a backend of their making:
//
//	func TestRetention(t *testing.T) { backendtest.Retention(t, newBackend(t)) }
package backendtest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// Retention checks what a backend keeps of a stack's states and how they
// are removed: PruneHistory keeps the newest operations with their states,
// never the current state less, and versions keep their numbers; Restore
// of a pruned version says so; RemoveStack keeps the states unless Purge,
// which also removes what an earlier removal kept. b must be empty.
func Retention(t *testing.T, b backend.Backend) {
	ctx := context.Background()
	dev := backend.StackRef{Project: "proj", Name: "dev"}
	create(t, b, dev)
	for n := 1; n <= 6; n++ {
		write(t, b, dev, n)
	}

	if _, err := b.PruneHistory(ctx, dev, backend.PruneOptions{Keep: 0}); err == nil {
		t.Error("PruneHistory keeping 0 operations succeeded")
	}
	if p, err := b.PruneHistory(ctx, dev, backend.PruneOptions{Keep: 10}); err != nil || len(p.Versions) != 0 || p.States != 0 {
		t.Errorf("PruneHistory keeping more than there are = %+v, %v; want nothing removed", p, err)
	}
	// The states before version 5: the first state and those of versions 1 to 4.
	want := backend.Pruned{Versions: []int{1, 2, 3, 4}, States: 5, Kept: []int{5, 6}}
	dry, err := b.PruneHistory(ctx, dev, backend.PruneOptions{Keep: 2, DryRun: true})
	if err != nil || !samePruned(dry, want) {
		t.Fatalf("PruneHistory dry run = %+v, %v; want %+v", dry, err, want)
	}
	if got := versions(t, b, dev); !slices.Equal(got, []int{6, 5, 4, 3, 2, 1}) {
		t.Fatalf("after a dry run the history has versions %v, want all 6", got)
	}
	if v, err := b.Restore(ctx, dev, 1); v != 1 || err != nil {
		t.Fatalf("Restore(1) after a dry run = %d, %v", v, err)
	}
	write(t, b, dev, 6) // version 8, as 6 was

	lock, err := b.Lock(ctx, dev)
	if err != nil {
		t.Fatal(err)
	}
	var locked *backend.LockedError
	if _, err := b.PruneHistory(ctx, dev, backend.PruneOptions{Keep: 2}); !errors.As(err, &locked) {
		t.Errorf("PruneHistory of a locked stack = %v, want a *LockedError", err)
	}
	lock.Release()

	want = backend.Pruned{Versions: []int{1, 2, 3, 4, 5, 6}, States: 7, Kept: []int{7, 8}}
	if got, err := b.PruneHistory(ctx, dev, backend.PruneOptions{Keep: 2}); err != nil || !samePruned(got, want) {
		t.Fatalf("PruneHistory = %+v, %v; want %+v", got, err, want)
	}
	if got := versions(t, b, dev); !slices.Equal(got, []int{8, 7}) {
		t.Errorf("after pruning the history has versions %v, want [8 7]", got)
	}
	if n := outputN(t, b, dev); n != 6 {
		t.Errorf("after pruning the current state has n = %d, want 6", n)
	}
	_, err = b.Restore(ctx, dev, 3)
	if err == nil || !strings.Contains(err.Error(), "no longer has version 3: its versions before 7 were pruned") ||
		!strings.Contains(err.Error(), "it has versions 7, 8") {
		t.Errorf("Restore of a pruned version = %v, want an error saying it was pruned", err)
	}
	if v, err := b.Restore(ctx, dev, 7); v != 7 || err != nil || outputN(t, b, dev) != 1 {
		t.Errorf("Restore(7) after pruning = %d, %v; want the state of version 7 (n = 1)", v, err)
	}
	write(t, b, dev, 9)
	if got := versions(t, b, dev); !slices.Equal(got, []int{10, 9, 8, 7}) {
		t.Errorf("operations after pruning are numbered %v, want [10 9 8 7]", got)
	}
	if got, err := b.PruneHistory(ctx, dev, backend.PruneOptions{Keep: 1}); err != nil || !samePruned(got, backend.Pruned{Versions: []int{7, 8, 9}, States: 3, Kept: []int{10}}) {
		t.Errorf("PruneHistory keeping 1 = %+v, %v", got, err)
	}
	if n := outputN(t, b, dev); n != 9 {
		t.Errorf("after pruning all but the newest the current state has n = %d, want 9", n)
	}

	// A pruned stack moves with its versions' numbers.
	if m, ok := b.(backend.Mover); ok {
		moved := backend.StackRef{Project: "proj", Name: "moved"}
		a, err := m.Archive(ctx, dev)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Unarchive(ctx, moved, a); err != nil {
			t.Fatal(err)
		}
		if got := versions(t, b, moved); !slices.Equal(got, []int{10}) {
			t.Errorf("the moved stack has versions %v, want [10]", got)
		}
		if v, err := b.Restore(ctx, moved, 10); v != 10 || err != nil {
			t.Errorf("Restore(10) of the moved stack = %d, %v", v, err)
		}
	}

	// Removal keeps the states, for Restore; Purge removes them.
	removed, err := b.RemoveStack(ctx, dev, backend.RemoveOptions{Force: true})
	if err != nil || removed.Kept == 0 || removed.Where == "" || removed.Purged != 0 {
		t.Fatalf("RemoveStack = %+v, %v; want states kept, and where", removed, err)
	}
	if _, err := b.PruneHistory(ctx, dev, backend.PruneOptions{Keep: 1}); !errors.Is(err, backend.ErrStackNotFound) {
		t.Errorf("PruneHistory of a removed stack = %v, want ErrStackNotFound", err)
	}
	purged, err := b.RemoveStack(ctx, dev, backend.RemoveOptions{Purge: true})
	if err != nil || purged.Purged != removed.Kept {
		t.Errorf("RemoveStack --purge of the removed stack = %+v, %v; want the %d states kept purged", purged, err, removed.Kept)
	}
	if _, err := b.Restore(ctx, dev, 0); err == nil {
		t.Error("Restore of a purged stack succeeded")
	}
	if _, err := b.RemoveStack(ctx, dev, backend.RemoveOptions{Purge: true}); !errors.Is(err, backend.ErrStackNotFound) {
		t.Errorf("RemoveStack --purge of a purged stack = %v, want ErrStackNotFound", err)
	}

	qa := backend.StackRef{Project: "proj", Name: "qa"}
	create(t, b, qa)
	write(t, b, qa, 1)
	purged, err = b.RemoveStack(ctx, qa, backend.RemoveOptions{Force: true, Purge: true})
	if err != nil || purged.Kept != 0 || purged.Purged != 2 {
		t.Errorf("RemoveStack --purge = %+v, %v; want its 2 states purged, none kept", purged, err)
	}
	if _, err := b.Restore(ctx, qa, 0); err == nil {
		t.Error("Restore of a stack removed with --purge succeeded")
	}
	if exists, err := b.StackExists(ctx, qa); exists || err != nil {
		t.Errorf("StackExists after RemoveStack --purge = %v, %v", exists, err)
	}
}

func create(t *testing.T, b backend.Backend, ref backend.StackRef) {
	t.Helper()
	if err := b.CreateStack(context.Background(), ref, nil, nil); err != nil {
		t.Fatal(err)
	}
}

// write runs an operation on the stack that writes a state whose root
// resource has the output n.
func write(t *testing.T, b backend.Backend, ref backend.StackRef, n int) {
	t.Helper()
	ctx := context.Background()
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	op, err := lock.Begin(ctx, backend.OperationInfo{Kind: backend.KindUpdate})
	if err != nil {
		t.Fatal(err)
	}
	root := &resource.State{URN: resource.NewURN(ref.Name, ref.Project, "", resource.RootStackType, ref.Project+"-"+ref.Name),
		Type: resource.RootStackType, Outputs: resource.Map{"n": resource.Number(float64(n))}}
	if err := op.Finish(ctx, &snapshot.Snapshot{Resources: []*resource.State{root}}, backend.Summary{}); err != nil {
		t.Fatal(err)
	}
}

// outputN returns the output n of the stack's current state.
func outputN(t *testing.T, b backend.Backend, ref backend.StackRef) int {
	t.Helper()
	outs, err := b.Outputs(context.Background(), ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	n, _ := outs["n"].ToGo().(float64)
	return int(n)
}

// versions returns the versions of the stack's history, newest first.
func versions(t *testing.T, b backend.Backend, ref backend.StackRef) []int {
	t.Helper()
	history, err := b.History(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, h := range history {
		out = append(out, h.Version)
	}
	return out
}

func samePruned(a, b backend.Pruned) bool {
	return slices.Equal(a.Versions, b.Versions) && a.States == b.States && slices.Equal(a.Kept, b.Kept)
}
