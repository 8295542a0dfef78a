package local

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
)

var _ backend.Mover = (*Backend)(nil)

// Archive implements backend.Mover.
func (b *Backend) Archive(ctx context.Context, ref backend.StackRef) (*backend.Archive, error) {
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	if err := b.checkJournalIdle(ref); err != nil {
		return nil, err
	}
	s, err := b.read(ref)
	if err != nil {
		return nil, err
	}
	if s.journal != nil {
		return nil, backend.UnfinishedError(ref)
	}
	history, err := b.History(ctx, ref)
	if err != nil {
		return nil, err
	}
	backups, err := b.backups(ref)
	if err != nil {
		return nil, err
	}
	tags, err := b.readTags(ref)
	if err != nil {
		return nil, err
	}
	a := &backend.Archive{State: s.data, Tags: tags, Versions: make([]backend.ArchivedVersion, len(history))}
	at := map[int]int{} // version → index in Versions
	for i, rec := range history {
		a.Versions[len(history)-1-i].Record = rec
	}
	for i, v := range a.VersionNumbers() {
		at[v] = i
	}
	for _, bk := range backups {
		if i, ok := at[bk.version]; ok && bk.version > 0 {
			if a.Versions[i].State, err = readState(bk.path); err != nil {
				return nil, err
			}
		}
	}
	return a, nil
}

// Unarchive implements backend.Mover: it writes the tags, history records
// and backups, then the state file, which makes the stack exist. The state
// file is the newest backup (a hard link) when it has the same content.
func (b *Backend) Unarchive(ctx context.Context, ref backend.StackRef, a *backend.Archive) error {
	if exists, err := b.StackExists(ctx, ref); err != nil || exists {
		if err == nil {
			err = fmt.Errorf("stack %s: %w", ref, backend.ErrStackExists)
		}
		return err
	}
	if err := b.writeTags(ref, a.Tags); err != nil {
		return err
	}
	start := time.Now().UnixNano()
	newest := ""
	versions := a.VersionNumbers()
	for i, v := range a.Versions {
		ns := start + int64(i)
		v.Record.Version = versions[i]
		if err := b.writeRecord(ref, v.Record, ns); err != nil {
			return err
		}
		if v.State == nil {
			continue
		}
		newest = filepath.Join(b.layout.backups(ref), ref.Name+"."+strconv.FormatInt(ns, 10)+".json")
		if err := writeFileAtomic(newest, v.State); err != nil {
			return err
		}
		if i < len(a.Versions)-1 || !bytes.Equal(v.State, a.State) {
			newest = ""
		}
	}
	var err error
	if newest != "" {
		if err = os.MkdirAll(filepath.Dir(b.layout.stack(ref)), dirMode); err == nil {
			err = os.Link(newest, b.layout.stack(ref))
		}
	} else {
		_, err = linkNew(b.layout.stack(ref), a.State, false)
	}
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("stack %s: %w", ref, backend.ErrStackExists)
	}
	return err
}
