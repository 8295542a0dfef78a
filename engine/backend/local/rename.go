package local

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/internal/atomicfile"
)

// RenameStack implements backend.Backend: the history records and backups
// are hard-linked under the new name, the tags copied, the renamed state is written as the
// new stack's (recording the rename), then the old stack's files are
// removed.
func (b *Backend) RenameStack(ctx context.Context, ref backend.StackRef, name string) error {
	to, err := backend.RenameTarget(ctx, b, ref, name)
	if err != nil {
		return err
	}
	if kept, _ := b.backups(to); len(kept) > 0 {
		return fmt.Errorf("the backups of a removed stack %s are kept in %s; choose another name, or move them away", to, b.layout.backups(to))
	}
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		return err
	}
	defer lock.Release()
	if err := b.checkJournalIdle(ref); err != nil {
		return err
	}
	s, err := b.read(ref)
	if err != nil {
		return err
	}
	data, err := s.shared().Renamed(to)
	if err != nil {
		return err
	}
	tags, err := b.readTags(ref)
	if err != nil {
		return err
	}
	if err = b.linkRenamed(ref, to); err == nil {
		err = b.writeTags(to, tags)
	}
	if err != nil {
		return fmt.Errorf("renaming stack %s: %w", ref, err)
	}
	if _, err := b.write(to, atomicfile.Bytes(data), backend.RenameRecord(ref, to)); err != nil {
		return err
	}
	for _, remove := range []func() error{
		func() error { return os.Remove(b.layout.stack(ref)) },
		func() error { return os.RemoveAll(b.layout.history(ref)) },
		func() error { return os.RemoveAll(b.layout.backups(ref)) },
		func() error { return b.writeTags(ref, nil) },
	} {
		if err := remove(); err != nil {
			return fmt.Errorf("removing the files of stack %s after renaming it to %s: %w", ref, to.Name, err)
		}
	}
	return nil
}

// linkRenamed hard-links the history records and backups of stack from
// under the names of stack to, keeping the times that number them.
func (b *Backend) linkRenamed(from, to backend.StackRef) error {
	history, err := b.historyFiles(from)
	if err != nil {
		return err
	}
	backups, err := b.backups(from)
	if err != nil {
		return err
	}
	var links [][2]string
	for _, h := range history {
		links = append(links, [2]string{h, filepath.Join(b.layout.history(to), to.Name+strings.TrimPrefix(filepath.Base(h), from.Name))})
	}
	for _, bk := range backups {
		links = append(links, [2]string{bk.path, filepath.Join(b.layout.backups(to), to.Name+strings.TrimPrefix(filepath.Base(bk.path), from.Name))})
	}
	for _, l := range links {
		if err := os.MkdirAll(filepath.Dir(l[1]), dirMode); err != nil {
			return err
		}
		if err := os.Link(l[0], l[1]); err != nil {
			return err
		}
	}
	return nil
}
