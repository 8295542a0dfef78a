package bucket

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/diy"
)

// RenameStack implements backend.Backend: the history records and backups
// are copied under the new name, with the tags, the renamed state is
// written as the new stack's (recording the rename), then the old stack's
// objects are removed.
func (b *Backend) RenameStack(ctx context.Context, ref backend.StackRef, name string) error {
	to, err := backend.RenameTarget(ctx, b, ref, name)
	if err != nil {
		return err
	}
	if kept, _ := b.backups(ctx, to); len(kept) > 0 {
		return fmt.Errorf("the backups of a removed stack %s are kept in %s %s; choose another name, or remove them", to, b.url, diy.Backups(to))
	}
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		return err
	}
	defer lock.Release()
	s, err := b.load(ctx, ref)
	if err != nil {
		return err
	}
	data, err := s.shared(ctx).Renamed(to)
	if err != nil {
		return err
	}
	tags, err := b.readTags(ctx, ref)
	if err != nil {
		return err
	}
	history, err := b.historyKeys(ctx, ref)
	if err != nil {
		return err
	}
	backups, err := b.backups(ctx, ref)
	if err != nil {
		return err
	}
	copies := map[string]string{}
	for _, h := range history {
		copies[h] = path.Join(diy.History(to), to.Name+strings.TrimPrefix(path.Base(h), ref.Name))
	}
	old := make([]string, 0, len(backups))
	for _, bk := range backups {
		copies[bk.key] = path.Join(diy.Backups(to), to.Name+strings.TrimPrefix(path.Base(bk.key), ref.Name))
		old = append(old, bk.key)
	}
	for from, dst := range copies {
		if err := b.retry(ctx, "copying", from, func() error { return b.bucket.Copy(ctx, dst, from, nil) }); err != nil {
			return fmt.Errorf("renaming stack %s: %w", ref, err)
		}
	}
	if err := b.writeTags(ctx, to, tags); err != nil {
		return fmt.Errorf("renaming stack %s: %w", ref, err)
	}
	if _, err := b.writeState(ctx, to, "", data, backend.RenameRecord(ref, to), nil); err != nil {
		return err
	}
	for _, remove := range []func() error{
		func() error { return b.removeAll(ctx, []string{diy.Stack(ref), diy.Stack(ref) + diy.GzipSuffix}) },
		func() error { return b.removeAll(ctx, history) },
		func() error { return b.removeAll(ctx, old) },
		func() error { return b.writeTags(ctx, ref, nil) },
	} {
		if err := remove(); err != nil {
			return fmt.Errorf("removing the objects of stack %s after renaming it to %s: %w", ref, to.Name, err)
		}
	}
	return nil
}
