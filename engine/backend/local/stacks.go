package local

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// CreateStack implements backend.Backend. Without init, the new stack's
// state file is a checkpoint without a deployment, as Pulumi writes one.
func (b *Backend) CreateStack(ctx context.Context, ref backend.StackRef, init *snapshot.Snapshot, sm secrets.Manager) error {
	// A stack that lost its state is restored, not created anew.
	if _, err := b.statStack(ref); err != nil && !errors.Is(err, backend.ErrStackNotFound) {
		return err
	}
	data, err := b.opts.Encoder(sm, false).Checkpoint(ref.Qualified(), init)
	if err != nil {
		return err
	}
	_, err = linkNew(b.layout.stack(ref), data, false)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("stack %s: %w", ref, backend.ErrStackExists)
	}
	return err
}

// StackExists implements backend.Backend. A stack that lost its state
// file is an error naming the backup to restore.
func (b *Backend) StackExists(ctx context.Context, ref backend.StackRef) (bool, error) {
	_, err := b.statStack(ref)
	if errors.Is(err, backend.ErrStackNotFound) {
		return false, nil
	}
	return err == nil, err
}

// ListStacks implements backend.Backend.
func (b *Backend) ListStacks(ctx context.Context, project string) ([]backend.StackSummary, error) {
	projects := []string{project}
	if project == "" {
		entries, err := os.ReadDir(b.layout.stacksDir())
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		projects = projects[:0]
		for _, e := range entries {
			if e.IsDir() {
				projects = append(projects, e.Name())
			}
		}
	}
	var out []backend.StackSummary
	for _, p := range projects {
		entries, err := os.ReadDir(filepath.Join(b.layout.stacksDir(), p))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		for _, e := range entries { // sorted by name: <stack>.json before <stack>.json.gz
			name := strings.TrimSuffix(strings.TrimSuffix(e.Name(), gzipExt), zstdExt)
			name, ok := strings.CutSuffix(name, ".json")
			if ref := (backend.StackRef{Project: p, Name: name}); ok && name != "" && !e.IsDir() &&
				(len(out) == 0 || out[len(out)-1].Ref != ref) {
				out = append(out, b.summarize(ref, b.layout.stack(ref)))
			}
		}
	}
	return out, nil
}

// summarize describes a stack from its state file, as last written.
func (b *Backend) summarize(ref backend.StackRef, path string) backend.StackSummary {
	sum := backend.StackSummary{Ref: ref, Lock: currentLock(b.layout.locks(ref))}
	data, err := readState(path)
	if err == nil {
		var s state.Summary
		if s, err = state.ParseSummary(data); err == nil {
			sum.LastUpdate, sum.Resources = s.Time, s.Resources
			if s.Resources == 0 && !b.hasHistory(ref) {
				sum.LastUpdate = time.Time{} // created with its seed key, never updated
			}
			return sum
		}
	}
	sum.Err = b.unreadable(ref, path, err)
	return sum
}

// hasHistory reports whether any operation on the stack was recorded.
func (b *Backend) hasHistory(ref backend.StackRef) bool {
	files, err := b.historyFiles(ref)
	return err != nil || len(files) > 0
}

// RemoveStack implements backend.Backend. The stack's backups, its last
// state among them, are kept in its backups directory unless opts.Purge.
func (b *Backend) RemoveStack(ctx context.Context, ref backend.StackRef, opts backend.RemoveOptions) (backend.Removed, error) {
	if _, err := b.statStack(ref); opts.Purge && errors.Is(err, backend.ErrStackNotFound) {
		return b.purge(ctx, ref)
	}
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		return backend.Removed{}, err
	}
	defer lock.Release()
	if err := b.checkJournalIdle(ref); err != nil {
		return backend.Removed{}, err
	}
	s, err := b.read(ref)
	if err != nil && !opts.Force {
		return backend.Removed{}, err
	}
	if !opts.Force {
		if err := s.shared().CheckEmpty(); err != nil {
			return backend.Removed{}, err
		}
	}
	if err := b.keepCurrent(ref); err != nil {
		return backend.Removed{}, err
	}
	for _, remove := range []func() error{
		func() error { return os.Remove(b.layout.stack(ref)) },
		func() error { return removeJournal(b.layout.journal(ref)) },
		func() error { return os.RemoveAll(b.layout.history(ref)) },
		func() error { return b.writeTags(ref, nil) },
	} {
		if err := remove(); err != nil {
			return backend.Removed{}, fmt.Errorf("removing stack %s: %w", ref, err)
		}
	}
	if opts.Purge {
		return b.removeBackups(ref)
	}
	kept, err := b.backups(ref)
	return backend.Removed{Kept: len(kept), Where: b.layout.backups(ref)}, err
}
