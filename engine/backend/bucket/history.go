package bucket

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/diy"
	"github.com/cairn-iac/cairn/engine/state"
)

// History implements backend.Backend.
func (b *Backend) History(ctx context.Context, ref backend.StackRef) ([]backend.HistoryRecord, error) {
	if err := b.knownStack(ctx, ref); err != nil {
		return nil, err
	}
	keys, err := b.historyKeys(ctx, ref)
	if err != nil {
		return nil, err
	}
	out := make([]backend.HistoryRecord, 0, len(keys))
	first := b.firstVersion(ctx, keys)
	for i := len(keys) - 1; i >= 0; i-- {
		rec, err := b.readRecord(ctx, keys[i])
		if err != nil {
			return nil, err
		}
		if rec.Version == 0 { // Pulumi's records are not numbered
			rec.Version = first + i
		}
		out = append(out, rec)
	}
	return out, nil
}

func (b *Backend) readRecord(ctx context.Context, key string) (backend.HistoryRecord, error) {
	var rec backend.HistoryRecord
	data, err := b.read(ctx, key)
	if err == nil {
		data, err = diy.Decode(key, data)
	}
	if err == nil {
		if err = json.Unmarshal(data, &rec); err != nil {
			err = fmt.Errorf("reading the history record %s in %s: %w", key, b.url, err)
		}
	}
	return rec, err
}

// historyKeys lists the stack's history records, oldest first (their names
// hold the time they were written, in nanoseconds, all of one length).
func (b *Backend) historyKeys(ctx context.Context, ref backend.StackRef) ([]string, error) {
	keys, err := b.keys(ctx, diy.History(ref)+"/"+ref.Name+"-", "/")
	var out []string
	for _, k := range keys {
		if diy.IsHistory(k) {
			out = append(out, k)
		}
	}
	return out, err
}

// firstVersion is the version of the oldest history record (keys, oldest
// first), which numbers the others in order: 1, unless older ones were
// pruned.
func (b *Backend) firstVersion(ctx context.Context, keys []string) int {
	if len(keys) == 0 {
		return 1
	}
	rec, err := b.readRecord(ctx, keys[0])
	if err != nil || rec.Version < 1 {
		return 1
	}
	return rec.Version
}

// record appends a record to the stack's history, numbering it, under the
// time ns.
func (b *Backend) record(ctx context.Context, ref backend.StackRef, rec backend.HistoryRecord, ns int64) error {
	keys, err := b.historyKeys(ctx, ref)
	if err != nil {
		return err
	}
	rec.Version = b.firstVersion(ctx, keys) + len(keys)
	return b.writeRecord(ctx, ref, rec, ns)
}

func (b *Backend) writeRecord(ctx context.Context, ref backend.StackRef, rec backend.HistoryRecord, ns int64) error {
	data, err := json.MarshalIndent(rec, "", "    ")
	if err != nil {
		return err
	}
	if err := b.write(ctx, path.Join(diy.History(ref), diy.HistoryName(ref, ns)), data, false); err != nil {
		return fmt.Errorf("recording the operation in the history of stack %s: %w", ref, err)
	}
	return nil
}

// stateBackup is a state kept among a stack's backups, named by the time
// of the operation that wrote it, which gives it the operation's version.
type stateBackup struct {
	key     string
	ns      int64
	version int // 0 for a state kept without an operation
}

func (s stateBackup) String() string {
	if s.version == 0 {
		return s.key
	}
	return fmt.Sprintf("version %d (%s)", s.version, s.key)
}

// backups lists the stack's backups, oldest first.
func (b *Backend) backups(ctx context.Context, ref backend.StackRef) ([]stateBackup, error) {
	keys, err := b.keys(ctx, diy.Backups(ref)+"/"+ref.Name+".", "/")
	if err != nil {
		return nil, err
	}
	history, err := b.historyKeys(ctx, ref)
	if err != nil {
		return nil, err
	}
	first := b.firstVersion(ctx, history)
	versions := map[int64]int{}
	for i, h := range history {
		versions[diy.HistoryTime(ref, h)] = first + i
	}
	var out []stateBackup
	for _, k := range keys {
		if ns := diy.BackupTime(ref, k); ns != 0 && strings.HasSuffix(k, ".json") {
			out = append(out, stateBackup{key: k, ns: ns, version: versions[ns]})
		}
	}
	return out, nil
}

// keepCurrent backs up the stack's state, kept under key, unless the newest
// backup holds it already (it does unless Pulumi, or `stack init`, wrote
// the state): Cairn records the hash of what it writes in each object's
// metadata.
func (b *Backend) keepCurrent(ctx context.Context, ref backend.StackRef, key string) error {
	if key == "" {
		return nil
	}
	current, err := b.bucket.Attributes(ctx, key)
	if err != nil {
		return nil // no state to keep
	}
	backups, err := b.backups(ctx, ref)
	if err != nil {
		return err
	}
	if n := len(backups); n > 0 && current.Metadata[hashKey] != "" {
		if newest, err := b.bucket.Attributes(ctx, backups[n-1].key); err == nil && newest.Metadata[hashKey] == current.Metadata[hashKey] {
			return nil
		}
	}
	data, err := b.read(ctx, key)
	if err == nil {
		data, err = diy.Decode(key, data)
	}
	if err != nil {
		return fmt.Errorf("backing up the state of stack %s: %w", ref, err)
	}
	backup := path.Join(diy.Backups(ref), diy.BackupName(ref, time.Now().UnixNano()))
	if err := b.writeMeta(ctx, backup, data, false, map[string]string{hashKey: hashOf(data)}); err != nil {
		return fmt.Errorf("backing up the state of stack %s: %w", ref, err)
	}
	return nil
}

// newestGoodBackup returns the newest backup that reads as a state, if any.
func (b *Backend) newestGoodBackup(ctx context.Context, ref backend.StackRef) (stateBackup, []byte, bool) {
	backups, _ := b.backups(ctx, ref)
	for i := len(backups) - 1; i >= 0; i-- {
		if data, err := b.read(ctx, backups[i].key); err == nil {
			if _, err := state.ParseCheckpoint(data); err == nil {
				return backups[i], data, true
			}
		}
	}
	return stateBackup{}, nil, false
}

// restoreAdvice says which backup to restore, and how.
func (b *Backend) restoreAdvice(ctx context.Context, ref backend.StackRef) string {
	good, _, ok := b.newestGoodBackup(ctx, ref)
	if !ok {
		return "it has no good backup: import a good export of it with `cairn stack import --force`"
	}
	return fmt.Sprintf("its newest good backup is %s: restore it with `cairn stack restore` "+
		"(or import a good export with `cairn stack import --force`)", good)
}

// unreadable is the error for a state that cannot be read.
func (b *Backend) unreadable(ctx context.Context, ref backend.StackRef, key string, err error) error {
	return fmt.Errorf("the state of stack %s (%s in %s) cannot be read, so Cairn will not operate on it: %w; %s",
		ref, key, b.url, err, b.restoreAdvice(ctx, ref))
}

// Restore implements backend.Backend.
func (b *Backend) Restore(ctx context.Context, ref backend.StackRef, version int) (int, error) {
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		return 0, err
	}
	defer lock.Release()
	backup, data, err := b.pickBackup(ctx, ref, version)
	if err != nil {
		return 0, err
	}
	if j, _ := b.readJournal(ctx, ref); j != nil && j.Compacted == "" {
		b.opts.Warnf("the journal of a %s of stack %s that did not finish (started %s) is dropped: check the resources it names",
			j.Header.Kind, ref, j.Header.Started.Format(time.RFC3339))
	}
	_, key, _ := b.readState(ctx, ref)
	if _, err := b.writeState(ctx, ref, key, data, backend.ImportRecord("restored the backup "+backup.String()), nil); err != nil {
		return 0, err
	}
	return backup.version, nil
}

// pickBackup returns the backup of a version, or the newest good one for 0.
func (b *Backend) pickBackup(ctx context.Context, ref backend.StackRef, version int) (stateBackup, []byte, error) {
	if version == 0 {
		if good, data, ok := b.newestGoodBackup(ctx, ref); ok {
			return good, data, nil
		}
		return stateBackup{}, nil, fmt.Errorf("stack %s has no backup that can be read", ref)
	}
	backups, err := b.backups(ctx, ref)
	if err != nil {
		return stateBackup{}, nil, err
	}
	var have []int
	for _, bk := range backups {
		if bk.version == version {
			data, err := b.read(ctx, bk.key)
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
	history, err := b.historyKeys(ctx, ref)
	if err != nil {
		return stateBackup{}, nil, err
	}
	oldest := 0
	if len(history) > 0 {
		oldest = b.firstVersion(ctx, history)
	}
	return stateBackup{}, nil, backend.NoVersionError(ref, version, oldest, have)
}

// PruneHistory implements backend.Backend: the history records of the
// operations but the newest opts.Keep are removed, with the backups kept
// before the oldest record kept. The stack's state is never removed, nor a
// backup that holds it.
func (b *Backend) PruneHistory(ctx context.Context, ref backend.StackRef, opts backend.PruneOptions) (backend.Pruned, error) {
	if err := opts.Check(); err != nil {
		return backend.Pruned{}, err
	}
	if _, _, err := b.readState(ctx, ref); err != nil {
		return backend.Pruned{}, err
	}
	lock, err := b.Lock(ctx, ref)
	if err != nil {
		return backend.Pruned{}, err
	}
	defer lock.Release()
	history, err := b.historyKeys(ctx, ref)
	if err != nil {
		return backend.Pruned{}, err
	}
	out, cut := backend.SplitHistory(b.firstVersion(ctx, history), len(history), opts.Keep)
	if cut == 0 {
		return out, nil
	}
	doomed, err := b.backupsBefore(ctx, ref, diy.HistoryTime(ref, history[cut]))
	if err != nil {
		return backend.Pruned{}, err
	}
	out.States = len(doomed)
	if opts.DryRun {
		return out, nil
	}
	// The oldest go first, so that a prune cut short leaves the stack's
	// history numbered as it was.
	for _, key := range append(doomed, history[:cut]...) {
		if err := b.remove(ctx, key); err != nil {
			return backend.Pruned{}, fmt.Errorf("pruning the history of stack %s: %w", ref, err)
		}
	}
	return out, nil
}

// backupsBefore lists the stack's backups kept before the time ns, oldest
// first, but any that holds the stack's current state.
func (b *Backend) backupsBefore(ctx context.Context, ref backend.StackRef, ns int64) ([]string, error) {
	backups, err := b.backups(ctx, ref)
	if err != nil {
		return nil, err
	}
	var current string
	if attrs, err := b.bucket.Attributes(ctx, diy.Stack(ref)); err == nil {
		current = attrs.Metadata[hashKey]
	}
	var out []string
	for _, bk := range backups {
		if bk.ns >= ns {
			break
		}
		if attrs, err := b.bucket.Attributes(ctx, bk.key); err == nil && current != "" && attrs.Metadata[hashKey] == current {
			continue
		}
		out = append(out, bk.key)
	}
	return out, nil
}
