package bucket

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"sync"
	"time"

	"gocloud.dev/gcerrors"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/diy"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// stored is a stack's state as it is in the bucket: the state object and
// the journal of an operation that did not finish, if there is one.
type stored struct {
	b    *Backend
	ref  backend.StackRef
	key  string // the state object's key (.json, or .json.gz)
	data []byte // the state, uncompressed
	hash func() string
	// journal was left by an operation that did not finish; it applies to
	// data.
	journal *backend.Journal
	// doneJournal is set when a journal whose state was written was left
	// behind by a crash; the next operation removes it.
	doneJournal bool
}

// readState returns the stack's state and the key it is kept under: the
// .json object, or the .json.gz one written with Options.Gzip (as Pulumi
// writes it when it compresses).
// A stack whose state is missing though it has a history lost its state:
// that is an error naming the backup to restore, never a new stack.
func (b *Backend) readState(ctx context.Context, ref backend.StackRef) ([]byte, string, error) {
	if err := ref.Validate(); err != nil {
		return nil, "", err
	}
	// The form this backend writes comes first: a crash between writing a
	// state and removing the other form leaves both.
	keys := []string{diy.Stack(ref), diy.Stack(ref) + diy.GzipSuffix}
	if b.opts.Gzip {
		keys[0], keys[1] = keys[1], keys[0]
	}
	var (
		key  string
		data []byte
		err  error
	)
	for _, key = range keys {
		if data, err = b.read(ctx, key); gcerrors.Code(err) != gcerrors.NotFound {
			break
		}
	}
	if err == nil {
		if data, err = diy.Decode(key, data); err != nil {
			return nil, "", b.unreadable(ctx, ref, key, err)
		}
	}
	if gcerrors.Code(err) == gcerrors.NotFound {
		if history, _ := b.historyKeys(ctx, ref); len(history) > 0 {
			return nil, "", fmt.Errorf("the state of stack %s (%s in %s) is missing, though the stack has %d operations in its history; %s",
				ref, diy.Stack(ref), b.url, len(history), b.restoreAdvice(ctx, ref))
		}
		return nil, "", fmt.Errorf("stack %s: %w", ref, backend.ErrStackNotFound)
	}
	if err != nil {
		return nil, "", fmt.Errorf("reading the state of stack %s: %w", ref, err)
	}
	return data, key, nil
}

// knownStack checks that the stack exists, or lost its state but has
// backups to restore.
func (b *Backend) knownStack(ctx context.Context, ref backend.StackRef) error {
	exists, err := b.StackExists(ctx, ref)
	if err == nil && exists {
		return nil
	}
	if err == nil {
		err = fmt.Errorf("stack %s: %w", ref, backend.ErrStackNotFound)
	}
	if ref.Validate() == nil {
		if backups, _ := b.backups(ctx, ref); len(backups) > 0 {
			return nil
		}
	}
	return err
}

// load reads a stack's state and its journal.
func (b *Backend) load(ctx context.Context, ref backend.StackRef) (*stored, error) {
	data, key, err := b.readState(ctx, ref)
	if err != nil {
		return nil, err
	}
	s := &stored{b: b, ref: ref, key: key, data: data, hash: sync.OnceValue(func() string { return hashOf(data) })}
	j, err := b.readJournal(ctx, ref)
	switch {
	case err != nil:
		return nil, err
	case j == nil:
	case j.Compacted != "" && j.Compacted == s.hash():
		s.doneJournal = true
	case j.Header.Version != 0 && j.Header.Base == s.hash():
		s.journal = j
	default:
		return nil, fmt.Errorf("the journal %s of a %s that did not finish (started %s) does not apply to the state %s, "+
			"which was changed since; check the resources the journal names, then remove the journal's objects to use the stack",
			j.Where, j.Header.Kind, j.Header.Started.Format(time.RFC3339), key)
	}
	return s, nil
}

// snapshot decodes the stored state, with its journal, if any, replayed
// over it.
func (s *stored) snapshot(ctx context.Context, sm secrets.Manager) (*snapshot.Snapshot, error) {
	snap, err := state.NewDecoder(sm).Checkpoint(s.data)
	if ue := (*state.UnreadableError)(nil); errors.As(err, &ue) {
		return nil, s.b.unreadable(ctx, s.ref, s.key, ue.Err)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the state of stack %s (%s in %s): %w; backups of earlier states are in %s",
			s.ref, s.key, s.b.url, err, diy.Backups(s.ref))
	}
	if s.journal == nil {
		return snap, nil
	}
	return s.journal.Replay(snap, sm)
}

// shared is the stored state for the logic every backend shares.
func (s *stored) shared(ctx context.Context) *backend.Stored {
	return &backend.Stored{Ref: s.ref, Data: s.data, Unfinished: s.journal != nil,
		Current:    func(sm secrets.Manager) (*snapshot.Snapshot, error) { return s.snapshot(ctx, sm) },
		Unreadable: func(err error) error { return s.b.unreadable(ctx, s.ref, s.key, err) }}
}

// recover compacts the journal of an operation that did not finish into the
// stack's state, with a warning and a history record, and returns the
// stack's current state and its hash.
func (b *Backend) recover(ctx context.Context, s *stored, sm secrets.Manager) (*snapshot.Snapshot, string, error) {
	current, err := s.snapshot(ctx, sm)
	if err != nil {
		return nil, "", err
	}
	if s.doneJournal {
		return current, s.hash(), b.removeJournal(ctx, s.ref, nil)
	}
	if s.journal == nil {
		return current, s.hash(), nil
	}
	warning, rec := backend.Recovered(s.ref, s.journal.Header, current)
	b.opts.Warnf("%s", warning)
	hash, err := b.commit(ctx, s, current, sm, rec, nil)
	return current, hash, err
}

// commit makes snap the stack's state, as writeState does.
func (b *Backend) commit(ctx context.Context, s *stored, snap *snapshot.Snapshot, sm secrets.Manager, rec backend.HistoryRecord, journal []string) (string, error) {
	var buf bytes.Buffer
	data, err := b.opts.Encoder(sm, false).EncodeCheckpoint(s.ref.Qualified(), snap)
	if err == nil {
		_, err = data.WriteTo(&buf)
	}
	if err != nil {
		return "", fmt.Errorf("writing the state of stack %s: %w", s.ref, err)
	}
	return b.writeState(ctx, s.ref, s.key, buf.Bytes(), rec, journal)
}

// writeState makes data the stack's state and returns its hash: the
// journal, if any, is marked compacted, the previous state is kept as a
// backup unless it is one already, the new state replaces it (one PUT,
// atomic), is kept as a backup too, the journal is removed and the
// operation is recorded in the history. oldKey is the key the previous
// state was read from: a .json.gz that Pulumi wrote is removed once the
// .json is written, as Pulumi does when it stops compressing. journal
// lists the objects of the stack's journal when the caller knows them
// (the operation that wrote it); nil lists them.
func (b *Backend) writeState(ctx context.Context, ref backend.StackRef, oldKey string, data []byte, rec backend.HistoryRecord, journal []string) (string, error) {
	hash := hashOf(data)
	if journal == nil {
		var err error
		if journal, err = b.keys(ctx, journalDir(ref), ""); err != nil {
			return "", err
		}
	}
	if len(journal) > 0 {
		if err := b.markCompacted(ctx, ref, hash); err != nil {
			return "", err
		}
		journal = append(journal, journalDir(ref)+compactedObject)
	}
	if err := b.keepCurrent(ctx, ref, oldKey); err != nil {
		return "", err
	}
	meta := map[string]string{hashKey: hash}
	// As Pulumi's DIY backend, the state is compressed when asked to, and
	// the object of the other form removed once the new one is written.
	key, other, payload := diy.Stack(ref), diy.Stack(ref)+diy.GzipSuffix, data
	if b.opts.Gzip {
		var err error
		if payload, err = diy.Gzip(data); err != nil {
			return "", err
		}
		key, other = other, key
	}
	if err := b.writeMeta(ctx, key, payload, false, meta); err != nil {
		return "", fmt.Errorf("writing the state of stack %s: %w", ref, err)
	}
	if err := b.remove(ctx, other); err != nil {
		return "", err
	}
	ns := time.Now().UnixNano()
	if err := b.writeMeta(ctx, path.Join(diy.Backups(ref), diy.BackupName(ref, ns)), data, false, meta); err != nil {
		return "", fmt.Errorf("backing up the state of stack %s: %w", ref, err)
	}
	if len(journal) > 0 {
		if err := b.removeJournal(ctx, ref, journal); err != nil {
			return "", err
		}
	}
	return hash, b.record(ctx, ref, rec, ns)
}
