package local

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
	"github.com/cairn-iac/cairn/internal/atomicfile"
)

// stored is a stack's state as it is on disk: the state file and the
// journal of an operation that did not finish, if there is one.
type stored struct {
	b       *Backend
	ref     backend.StackRef
	path    string
	backups string // where earlier states are kept
	data    []byte
	hash    func() string // hex SHA-256 of data, computed when first asked for
	// journal was left by an operation that did not finish; it applies to
	// data.
	journal *backend.Journal
	// doneJournal is the path of a journal whose state was written but
	// which a crash left behind; it is removed by the next operation.
	doneJournal string
}

// statStack checks that the stack exists and returns its state file. A
// stack whose state file is missing though it has a history lost its state:
// that is an error naming the backup to restore, never a new stack.
func (b *Backend) statStack(ref backend.StackRef) (string, error) {
	if err := ref.Validate(); err != nil {
		return "", err
	}
	path := b.layout.stack(ref)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if history, _ := b.historyFiles(ref); len(history) > 0 {
			return "", fmt.Errorf("the state of stack %s (%s) is missing, though the stack has %d operations in its history; %s",
				ref, path, len(history), b.restoreAdvice(ref))
		}
		return "", fmt.Errorf("stack %s: %w", ref, backend.ErrStackNotFound)
	} else if err != nil {
		return "", err
	}
	return path, nil
}

// knownStack checks that the stack exists, or lost its state file but has
// backups to restore.
func (b *Backend) knownStack(ref backend.StackRef) error {
	_, err := b.statStack(ref)
	if err != nil && ref.Validate() == nil {
		if backups, _ := b.backups(ref); len(backups) > 0 {
			return nil
		}
	}
	return err
}

// read reads a stack's state file and its journal.
func (b *Backend) read(ref backend.StackRef) (*stored, error) {
	path, err := b.statStack(ref)
	if err != nil {
		return nil, err
	}
	data, err := readState(path)
	if err != nil {
		return nil, fmt.Errorf("reading the state of stack %s: %w", ref, err)
	}
	s := &stored{b: b, ref: ref, path: path, backups: b.layout.backups(ref), data: data,
		hash: sync.OnceValue(func() string { return hashOf(atomicfile.Bytes(data)) })}
	j, err := readJournal(b.layout.journal(ref))
	switch {
	case err != nil:
		return nil, err
	case j == nil:
	case j.Header.Base == s.hash():
		s.journal = j
	case j.Compacted == s.hash():
		s.doneJournal = j.Where
	default:
		return nil, fmt.Errorf("the journal %s of a %s that did not finish (started %s) does not apply to the state %s, "+
			"which was changed since; check the resources the journal names, then move it away to use the stack",
			j.Where, j.Header.Kind, j.Header.Started.Format(time.RFC3339), path)
	}
	return s, nil
}

// snapshot decodes the stored state, with its journal, if any, replayed
// over it.
func (s *stored) snapshot(sm secrets.Manager) (*snapshot.Snapshot, error) {
	snap, err := state.NewDecoder(sm).Checkpoint(s.data)
	if ue := (*state.UnreadableError)(nil); errors.As(err, &ue) {
		return nil, s.b.unreadable(s.ref, s.path, ue.Err)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the state of stack %s (%s): %w; backups of earlier states are in %s",
			s.ref, s.path, err, s.backups)
	}
	if s.journal == nil {
		return snap, nil
	}
	return s.journal.Replay(snap, sm)
}

// shared is the stored state for the logic every backend shares.
func (s *stored) shared() *backend.Stored {
	return &backend.Stored{Ref: s.ref, Data: s.data, Unfinished: s.journal != nil, Current: s.snapshot,
		Unreadable: func(err error) error { return s.b.unreadable(s.ref, s.path, err) }}
}

// checkJournalIdle fails if a live process holds the stack's journal: its
// operation is running, though its lock file is gone.
func (b *Backend) checkJournalIdle(ref backend.StackRef) error {
	if path := b.layout.journal(ref); osLocks && held(path) {
		return fmt.Errorf("an operation on stack %s is running: a live process holds its journal %s, "+
			"though the stack's lock file is gone (removed by hand?); wait for that operation to finish", ref, path)
	}
	return nil
}

// recover compacts the journal of an operation that did not finish into the
// stack's state, with a warning and a history record, and returns the
// stack's current state and the hash of its file.
func (b *Backend) recover(s *stored, sm secrets.Manager) (*snapshot.Snapshot, string, error) {
	current, err := s.snapshot(sm)
	if err != nil {
		return nil, "", err
	}
	if err := b.checkJournalIdle(s.ref); err != nil {
		return nil, "", err
	}
	if s.doneJournal != "" {
		return current, s.hash(), removeJournal(s.doneJournal)
	}
	if s.journal == nil {
		return current, s.hash(), nil
	}
	warning, rec := backend.Recovered(s.ref, s.journal.Header, current)
	b.opts.Warnf("%s", warning)
	hash, err := b.commit(s.ref, current, sm, rec)
	return current, hash, err
}

// commit makes snap the stack's state: the journal, if any, is marked
// compacted, the previous state file is kept as a backup, the new one
// replaces it atomically, the journal is removed and the operation is
// recorded in the history. It returns the hash of the new state file.
func (b *Backend) commit(ref backend.StackRef, snap *snapshot.Snapshot, sm secrets.Manager, rec backend.HistoryRecord) (string, error) {
	// The state is written from its pieces, never whole in memory.
	data, err := b.opts.Encoder(sm, false).EncodeCheckpoint(ref.Qualified(), snap)
	if err != nil {
		return "", fmt.Errorf("writing the state of stack %s: %w", ref, err)
	}
	return b.write(ref, data, rec)
}

// write makes data the stack's state file, as commit does, and returns its
// hash; data is written twice, to hash it and to the file. The new state is
// kept in the backups under the time of its history record, which gives it
// the record's version.
func (b *Backend) write(ref backend.StackRef, data io.WriterTo, rec backend.HistoryRecord) (string, error) {
	hash := hashOf(data)
	journal := b.layout.journal(ref)
	if err := markCompacted(journal, hash); err != nil {
		return "", err
	}
	if err := b.keepCurrent(ref); err != nil {
		return "", err
	}
	// The state is written in the form asked for; a file of another form
	// (Pulumi's, compressed or not) is removed once the new one is in place.
	current, path := b.layout.stack(ref), b.layout.stackFile(ref, b.opts.Gzip)
	if b.opts.Gzip {
		data = gzipped{data}
	}
	if _, err := replaceFile(path, data, false); err != nil {
		return "", fmt.Errorf("writing the state of stack %s: %w", ref, err)
	}
	if current != path {
		if err := os.Remove(current); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("removing the state file %s, replaced by %s: %w", current, path, err)
		}
	}
	ns := time.Now().UnixNano()
	if err := b.backup(ref, ns); err != nil {
		return "", err
	}
	if err := removeJournal(journal); err != nil {
		return "", err
	}
	return hash, b.record(ref, rec, ns)
}

// hashOf is the hex SHA-256 of data.
func hashOf(data io.WriterTo) string {
	h := sha256.New()
	data.WriteTo(h) // a hash never fails to write
	return hex.EncodeToString(h.Sum(nil))
}
