package local

import (
	"context"
	"fmt"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// operation is an operation running on a stack under its lock.
type operation struct {
	*backend.Running
	lock *stackLock
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
	journal := backend.NewJournalWriter(l.b.opts.Encoder(info.Secrets, false), base.Resources, w)
	return &operation{Running: backend.NewRunning(l.ref, info, started, base, journal), lock: l}, nil
}

// Finish implements backend.Operation.
func (o *operation) Finish(ctx context.Context, snap *snapshot.Snapshot, sum backend.Summary) error {
	journalErr, err := o.Finishing()
	if err != nil {
		return err
	}
	o.lock.mu.Lock()
	defer o.lock.mu.Unlock()
	if err := o.lock.verify(); err != nil {
		return err
	}
	b, ref := o.lock.b, o.lock.ref
	snap, err = o.Final(snap, func() (*backend.Journal, error) { return readJournal(b.layout.journal(ref)) })
	if err != nil {
		return err
	}
	if _, err := b.commit(ref, snap, o.Info().Secrets, o.Record(sum)); err != nil {
		return err
	}
	o.lock.closeJournal()
	return backend.FinishErrors(ref, snap, journalErr, "the previous state is in "+b.layout.backups(ref))
}
