package local

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/state"
	"github.com/cairn-iac/cairn/internal/atomicfile"
)

// stateBackup is a state file kept in a stack's backups directory. Every
// state an operation writes is kept, named by the same time as the
// operation's history record, which gives it the operation's version.
type stateBackup struct {
	path    string
	ns      int64 // the time it is kept under
	version int   // 0 for a state kept without an operation (the first, a removed stack's)
}

func (s stateBackup) String() string {
	if s.version == 0 {
		return s.path
	}
	return fmt.Sprintf("version %d (%s)", s.version, s.path)
}

// backup keeps the stack's current state file in its backups directory
// under the time ns, by a hard link: no bytes are copied.
func (b *Backend) backup(ref backend.StackRef, ns int64) error {
	dir := b.layout.backups(ref)
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return err
	}
	current := b.layout.stack(ref)
	name := ref.Name + "." + strconv.FormatInt(ns, 10) + stateExt(current)
	if err := os.Link(current, filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("backing up the state of stack %s: %w", ref, err)
	}
	return nil
}

// keepCurrent backs up the stack's current state file unless it is the
// newest backup already (a state written by Pulumi, or by `stack init`).
func (b *Backend) keepCurrent(ref backend.StackRef) error {
	current, err := os.Stat(b.layout.stack(ref))
	if err != nil {
		return nil // no state to keep
	}
	backups, err := b.backups(ref)
	if err != nil {
		return err
	}
	if n := len(backups); n > 0 {
		if newest, err := os.Stat(backups[n-1].path); err == nil && os.SameFile(current, newest) {
			return nil
		}
	}
	return b.backup(ref, time.Now().UnixNano())
}

// backups lists the stack's backups, oldest first.
func (b *Backend) backups(ref backend.StackRef) ([]stateBackup, error) {
	files, err := globStates(filepath.Join(b.layout.backups(ref), ref.Name+".*.json"))
	if err != nil {
		return nil, err
	}
	history, err := b.historyFiles(ref)
	if err != nil {
		return nil, err
	}
	first := firstVersion(history)
	versions := map[int64]int{}
	for i, h := range history {
		versions[historyTime(ref, h)] = first + i
	}
	out := make([]stateBackup, 0, len(files))
	for _, f := range files {
		ns, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), ref.Name+"."), stateExt(f)), 10, 64)
		out = append(out, stateBackup{path: f, ns: ns, version: versions[ns]})
	}
	return out, nil
}

// newestGoodBackup returns the newest backup that reads as a state, if any.
func (b *Backend) newestGoodBackup(ref backend.StackRef) (stateBackup, []byte, bool) {
	backups, _ := b.backups(ref)
	for i := len(backups) - 1; i >= 0; i-- {
		if data, err := readState(backups[i].path); err == nil {
			if _, err := state.ParseCheckpoint(data); err == nil {
				return backups[i], data, true
			}
		}
	}
	return stateBackup{}, nil, false
}

// restoreAdvice says which backup to restore, and how.
func (b *Backend) restoreAdvice(ref backend.StackRef) string {
	good, _, ok := b.newestGoodBackup(ref)
	if !ok {
		return "it has no good backup: import a good export of it with `cairn stack import --force`"
	}
	return fmt.Sprintf("its newest good backup is %s: restore it with `cairn stack restore` "+
		"(or import a good export with `cairn stack import --force`)", good)
}

// unreadable is the error for a state file that cannot be read.
func (b *Backend) unreadable(ref backend.StackRef, path string, err error) error {
	return fmt.Errorf("the state of stack %s (%s) cannot be read, so Cairn will not operate on it: %w; %s",
		ref, path, err, b.restoreAdvice(ref))
}

// Restore implements backend.Backend.
func (b *Backend) Restore(ctx context.Context, ref backend.StackRef, version int) (int, error) {
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		return 0, err
	}
	defer lock.Release()
	if err := b.checkJournalIdle(ref); err != nil {
		return 0, err
	}
	backup, data, err := b.pickBackup(ref, version)
	if err != nil {
		return 0, err
	}
	if j, _ := readJournal(b.layout.journal(ref)); j != nil && j.Compacted == "" {
		b.opts.Warnf("the journal of a %s of stack %s that did not finish (started %s) is dropped: check the resources it names",
			j.Header.Kind, ref, j.Header.Started.Format(time.RFC3339))
	}
	if _, err := b.write(ref, atomicfile.Bytes(data), backend.ImportRecord("restored the backup "+backup.String())); err != nil {
		return 0, err
	}
	return backup.version, nil
}

// pickBackup returns the backup of a version, or the newest good one for 0.
func (b *Backend) pickBackup(ref backend.StackRef, version int) (stateBackup, []byte, error) {
	if version == 0 {
		if good, data, ok := b.newestGoodBackup(ref); ok {
			return good, data, nil
		}
		return stateBackup{}, nil, fmt.Errorf("stack %s has no backup that can be read", ref)
	}
	backups, err := b.backups(ref)
	if err != nil {
		return stateBackup{}, nil, err
	}
	var have []int
	for _, bk := range backups {
		if bk.version == version {
			data, err := readState(bk.path)
			if err == nil {
				_, err = state.ParseCheckpoint(data)
			}
			if err != nil {
				return stateBackup{}, nil, fmt.Errorf("the backup %s of stack %s cannot be read: %w", bk, ref, err)
			}
			return bk, data, nil
		}
		if bk.version > 0 {
			have = append(have, bk.version)
		}
	}
	history, err := b.historyFiles(ref)
	if err != nil {
		return stateBackup{}, nil, err
	}
	oldest := 0
	if len(history) > 0 {
		oldest = firstVersion(history)
	}
	return stateBackup{}, nil, backend.NoVersionError(ref, version, oldest, have)
}
