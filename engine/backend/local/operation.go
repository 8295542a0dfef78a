package local

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// operation is an operation running on a stack under its lock.
type operation struct {
	lock    *stackLock
	info    backend.OperationInfo
	started time.Time
	base    *snapshot.Snapshot
	journal *backend.JournalWriter

	mu       sync.Mutex
	finished bool
}

// Begin implements backend.Lock: it recovers the journal of an operation
// that did not finish, then starts the new operation's journal.
func (l *stackLock) Begin(ctx context.Context, info backend.OperationInfo) (backend.Operation, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.verify(); err != nil {
		return nil, err
	}
	s, err := l.b.read(l.ref)
	if err != nil {
		return nil, err
	}
	base, hash, err := l.b.recover(s, info.Secrets)
	if err != nil {
		return nil, err
	}
	started := time.Now()
	l.closeJournal()
	w, held, err := createJournal(l.b.layout.journal(l.ref), backend.NewJournalHeader(info, started, hash))
	if err != nil {
		return nil, fmt.Errorf("starting the %s of stack %s: %w", info.Kind, l.ref, err)
	}
	l.journal = held
	return &operation{lock: l, info: info, started: started, base: base,
		journal: backend.NewJournalWriter(l.b.encoder(info.Secrets, false), base.Resources, w)}, nil
}

// Base implements backend.Operation.
func (o *operation) Base() *snapshot.Snapshot { return o.base }

// Journal implements backend.Operation.
func (o *operation) Journal() snapshot.Journal { return o.journal }

// Finish implements backend.Operation.
func (o *operation) Finish(ctx context.Context, snap *snapshot.Snapshot, sum backend.Summary) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.finished {
		return fmt.Errorf("the %s of stack %s has already finished", o.info.Kind, o.lock.ref)
	}
	o.finished = true
	// A journal that failed to write has already failed the engine's
	// appends; the engine's snapshot is still the truth to write.
	journalErr := o.journal.Close()
	o.lock.mu.Lock()
	defer o.lock.mu.Unlock()
	if err := o.lock.verify(); err != nil {
		return err
	}
	b, ref := o.lock.b, o.lock.ref
	if snap == nil {
		j, err := readJournal(b.layout.journal(ref))
		if err == nil && j == nil {
			err = fmt.Errorf("the journal of the %s of stack %s is gone, so its state cannot be rebuilt", o.info.Kind, ref)
		}
		if err != nil {
			return err
		}
		if snap, err = j.Replay(o.base, o.info.Secrets); err != nil {
			return err
		}
	}
	if _, err := b.commit(ref, snap, o.info.Secrets, backend.NewRecord(o.info, o.started, sum)); err != nil {
		return err
	}
	o.lock.closeJournal()
	return backend.FinishErrors(ref, snap, journalErr, "the previous state is in "+b.layout.backups(ref))
}
