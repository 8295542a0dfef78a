package local

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/cairn-iac/cairn/engine/backend"
)

// PruneHistory implements backend.Backend: the history records of the
// operations but the newest opts.Keep are removed, with the backups kept
// before the oldest record kept: the states those operations wrote and the
// states kept without an operation before them. The stack's state file is
// never removed, nor a backup that is the same file.
func (b *Backend) PruneHistory(ctx context.Context, ref backend.StackRef, opts backend.PruneOptions) (backend.Pruned, error) {
	if err := opts.Check(); err != nil {
		return backend.Pruned{}, err
	}
	if _, err := b.statStack(ref); err != nil {
		return backend.Pruned{}, err
	}
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		return backend.Pruned{}, err
	}
	defer lock.Release()
	if err := b.checkJournalIdle(ref); err != nil {
		return backend.Pruned{}, err
	}
	history, err := b.historyFiles(ref)
	if err != nil {
		return backend.Pruned{}, err
	}
	out, cut := backend.SplitHistory(firstVersion(history), len(history), opts.Keep)
	if cut == 0 {
		return out, nil
	}
	doomed, err := b.backupsBefore(ref, historyTime(ref, history[cut]))
	if err != nil {
		return backend.Pruned{}, err
	}
	out.States = len(doomed)
	if opts.DryRun {
		return out, nil
	}
	// The oldest go first, so that a prune cut short leaves the stack's
	// history numbered as it was.
	for _, path := range append(doomed, history[:cut]...) {
		if err := os.Remove(path); err != nil {
			return backend.Pruned{}, fmt.Errorf("pruning the history of stack %s: %w", ref, err)
		}
	}
	return out, nil
}

// backupsBefore lists the stack's backups kept before the time ns, oldest
// first, but any that is the stack's state file.
func (b *Backend) backupsBefore(ref backend.StackRef, ns int64) ([]string, error) {
	backups, err := b.backups(ref)
	if err != nil {
		return nil, err
	}
	current, _ := os.Stat(b.layout.stack(ref))
	var out []string
	for _, bk := range backups {
		if bk.ns >= ns {
			break
		}
		if fi, err := os.Stat(bk.path); err == nil && current != nil && os.SameFile(fi, current) {
			continue
		}
		out = append(out, bk.path)
	}
	return out, nil
}

// purge removes the backups a stack's removal kept, under its lock.
func (b *Backend) purge(ctx context.Context, ref backend.StackRef) (backend.Removed, error) {
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		return backend.Removed{}, err
	}
	defer lock.Release()
	if _, err := b.statStack(ref); !errors.Is(err, backend.ErrStackNotFound) {
		if err == nil {
			err = fmt.Errorf("stack %s was created again meanwhile; its states are left as they are", ref)
		}
		return backend.Removed{}, err
	}
	return b.removeBackups(ref)
}

// removeBackups removes the stack's backups directory.
func (b *Backend) removeBackups(ref backend.StackRef) (backend.Removed, error) {
	backups, err := b.backups(ref)
	if err != nil {
		return backend.Removed{}, err
	}
	if err := os.RemoveAll(b.layout.backups(ref)); err != nil {
		return backend.Removed{}, fmt.Errorf("removing the states kept of stack %s: %w", ref, err)
	}
	return backend.Removed{Purged: len(backups)}, nil
}
