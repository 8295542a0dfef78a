package bucket

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"gocloud.dev/gcerrors"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/diy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// CreateStack implements backend.Backend: the state object is created with
// a conditional write, so of two processes creating one stack, one fails.
func (b *Backend) CreateStack(ctx context.Context, ref backend.StackRef, init *snapshot.Snapshot, sm secrets.Manager) error {
	// A stack that lost its state is restored, not created anew.
	if exists, err := b.StackExists(ctx, ref); err != nil || exists {
		if err == nil {
			err = fmt.Errorf("stack %s: %w", ref, backend.ErrStackExists)
		}
		return err
	}
	data, err := b.opts.Encoder(sm, false).Checkpoint(ref.Qualified(), init)
	if err != nil {
		return err
	}
	err = b.writeMeta(ctx, diy.Stack(ref), data, true, map[string]string{hashKey: hashOf(data)})
	if gcerrors.Code(err) == gcerrors.FailedPrecondition {
		return fmt.Errorf("stack %s: %w", ref, backend.ErrStackExists)
	}
	return err
}

// StackExists implements backend.Backend. A stack that lost its state is
// an error naming the backup to restore.
func (b *Backend) StackExists(ctx context.Context, ref backend.StackRef) (bool, error) {
	if err := ref.Validate(); err != nil {
		return false, err
	}
	for _, key := range []string{diy.Stack(ref), diy.Stack(ref) + diy.GzipSuffix} {
		var ok bool
		err := b.retry(ctx, "checking", key, func() (err error) { ok, err = b.bucket.Exists(ctx, key); return err })
		if err != nil || ok {
			return ok, err
		}
	}
	if history, _ := b.historyKeys(ctx, ref); len(history) > 0 {
		return false, fmt.Errorf("the state of stack %s (%s in %s) is missing, though the stack has %d operations in its history; %s",
			ref, diy.Stack(ref), b.url, len(history), b.restoreAdvice(ctx, ref))
	}
	return false, nil
}

// ListStacks implements backend.Backend.
func (b *Backend) ListStacks(ctx context.Context, project string) ([]backend.StackSummary, error) {
	projects := []string{project}
	if project == "" {
		dirs, err := b.keys(ctx, diy.StacksDir+"/", "/")
		if err != nil {
			return nil, err
		}
		projects = projects[:0]
		for _, d := range dirs {
			if strings.HasSuffix(d, "/") {
				projects = append(projects, path.Base(d))
			}
		}
	}
	var out []backend.StackSummary
	for _, p := range projects {
		keys, err := b.keys(ctx, diy.StacksDir+"/"+p+"/", "/")
		if err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		for _, k := range keys {
			name, ok := strings.CutSuffix(path.Base(k), ".json")
			if !ok {
				name, ok = strings.CutSuffix(path.Base(k), ".json"+diy.GzipSuffix)
			}
			if !ok || seen[name] {
				continue
			}
			seen[name] = true
			out = append(out, b.summarize(ctx, backend.StackRef{Project: p, Name: name}))
		}
	}
	return out, nil
}

// summarize describes a stack from its state, as last written.
func (b *Backend) summarize(ctx context.Context, ref backend.StackRef) backend.StackSummary {
	sum := backend.StackSummary{Ref: ref, Lock: b.currentLock(ctx, ref)}
	data, key, err := b.readState(ctx, ref)
	if err == nil {
		var s state.Summary
		if s, err = state.ParseSummary(data); err == nil {
			sum.LastUpdate, sum.Resources = s.Time, s.Resources
			if s.Resources == 0 {
				if history, err := b.historyKeys(ctx, ref); err == nil && len(history) == 0 {
					sum.LastUpdate = time.Time{} // created with its seed key, never updated
				}
			}
			return sum
		}
		sum.Err = b.unreadable(ctx, ref, key, err)
		return sum
	}
	sum.Err = err
	return sum
}

// RemoveStack implements backend.Backend. The stack's backups, its last
// state among them, are kept unless opts.Purge.
func (b *Backend) RemoveStack(ctx context.Context, ref backend.StackRef, opts backend.RemoveOptions) (backend.Removed, error) {
	if exists, err := b.StackExists(ctx, ref); opts.Purge && err == nil && !exists {
		return b.purge(ctx, ref)
	}
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		return backend.Removed{}, err
	}
	defer lock.Release()
	s, err := b.load(ctx, ref)
	if err != nil && !opts.Force {
		return backend.Removed{}, err
	}
	oldKey := diy.Stack(ref)
	if s != nil {
		oldKey = s.key
		if !opts.Force {
			if err := s.shared(ctx).CheckEmpty(); err != nil {
				return backend.Removed{}, err
			}
		}
	}
	if err := b.keepCurrent(ctx, ref, oldKey); err != nil {
		return backend.Removed{}, err
	}
	history, err := b.historyKeys(ctx, ref)
	if err != nil {
		return backend.Removed{}, err
	}
	for _, remove := range []func() error{
		func() error { return b.removeAll(ctx, []string{diy.Stack(ref), diy.Stack(ref) + diy.GzipSuffix}) },
		func() error { return b.removeJournal(ctx, ref, nil) },
		func() error { return b.removeAll(ctx, history) },
		func() error { return b.remove(ctx, diy.Tags(ref)) },
	} {
		if err := remove(); err != nil {
			return backend.Removed{}, fmt.Errorf("removing stack %s: %w", ref, err)
		}
	}
	if opts.Purge {
		return b.removeBackups(ctx, ref)
	}
	kept, err := b.backups(ctx, ref)
	return backend.Removed{Kept: len(kept), Where: b.url + " " + diy.Backups(ref)}, err
}

// purge removes the backups a stack's removal kept, under its lock.
func (b *Backend) purge(ctx context.Context, ref backend.StackRef) (backend.Removed, error) {
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		return backend.Removed{}, err
	}
	defer lock.Release()
	if exists, err := b.StackExists(ctx, ref); err != nil || exists {
		if err == nil {
			err = fmt.Errorf("stack %s was created again meanwhile; its states are left as they are", ref)
		}
		return backend.Removed{}, err
	}
	return b.removeBackups(ctx, ref)
}

// removeBackups removes the stack's backups.
func (b *Backend) removeBackups(ctx context.Context, ref backend.StackRef) (backend.Removed, error) {
	backups, err := b.backups(ctx, ref)
	if err != nil {
		return backend.Removed{}, err
	}
	keys := make([]string, len(backups))
	for i, bk := range backups {
		keys[i] = bk.key
	}
	if err := b.removeAll(ctx, keys); err != nil {
		return backend.Removed{}, fmt.Errorf("removing the states kept of stack %s: %w", ref, err)
	}
	return backend.Removed{Purged: len(backups)}, nil
}

// Snapshot implements backend.Backend.
func (b *Backend) Snapshot(ctx context.Context, ref backend.StackRef, sm secrets.Manager) (*snapshot.Snapshot, error) {
	s, err := b.load(ctx, ref)
	if err != nil {
		return nil, err
	}
	return s.snapshot(ctx, sm)
}

// Outputs implements backend.Backend.
func (b *Backend) Outputs(ctx context.Context, ref backend.StackRef, sm secrets.Manager) (resource.Map, error) {
	return backend.StackOutputs(ctx, b, ref, sm)
}

// Export implements backend.Backend.
func (b *Backend) Export(ctx context.Context, ref backend.StackRef, opts backend.ExportOptions) (*state.UntypedDeployment, error) {
	s, err := b.load(ctx, ref)
	if err != nil {
		return nil, err
	}
	return s.shared(ctx).Export(b.opts.Encoder(opts.Secrets, opts.ShowSecrets), opts)
}

// Import implements backend.Backend.
func (b *Backend) Import(ctx context.Context, ref backend.StackRef, u *state.UntypedDeployment, opts backend.ImportOptions) error {
	snap, err := backend.CheckImport(ref, u, opts, func(msg string) { b.opts.Warnf("%s", msg) })
	if err != nil {
		return err
	}
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		return err
	}
	s, err := b.load(ctx, ref)
	if err == nil {
		_, _, err = b.recover(ctx, s, opts.Secrets)
	}
	if err != nil && opts.Force {
		b.opts.Warnf("importing anyway (--force) over the current state, which cannot be read: %s", err)
		s, err = &stored{b: b, ref: ref, key: diy.Stack(ref)}, nil
	}
	if err == nil {
		_, err = b.commit(ctx, s, snap, opts.Secrets, backend.ImportRecord(""), nil)
	}
	return errors.Join(err, lock.Release())
}
