package bucket

import (
	"context"
	"fmt"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/diy"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// operation is an operation running on a stack under its lock.
type operation struct {
	*backend.Running
	lock    *stackLock
	key     string // the key the state was read from
	journal *segments
}

// Begin implements backend.Lock: it recovers the journal of an operation
// that did not finish, then writes the new operation's journal header.
func (l *stackLock) Begin(ctx context.Context, info backend.OperationInfo) (backend.Operation, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.verify(ctx); err != nil {
		return nil, err
	}
	s, err := l.b.load(ctx, l.ref)
	if err != nil {
		return nil, err
	}
	base, hash, err := l.b.recover(ctx, s, info.Secrets)
	if err != nil {
		return nil, err
	}
	key := s.key
	if s.journal != nil {
		key = diy.Stack(l.ref) // recover wrote the state as .json
	}
	started := time.Now()
	w, j, err := l.b.createJournal(ctx, l.ref, backend.NewJournalHeader(info, started, hash))
	if err != nil {
		return nil, fmt.Errorf("starting the %s of stack %s: %w", info.Kind, l.ref, err)
	}
	journal := backend.NewJournalWriter(l.b.opts.Encoder(info.Secrets, false), base.Resources, w)
	return &operation{Running: backend.NewRunning(l.ref, info, started, base, journal), lock: l, key: key, journal: j}, nil
}

// Finish implements backend.Operation.
func (o *operation) Finish(ctx context.Context, snap *snapshot.Snapshot, sum backend.Summary) error {
	journalErr, err := o.Finishing()
	if err != nil {
		return err
	}
	o.lock.mu.Lock()
	defer o.lock.mu.Unlock()
	if err := o.lock.verify(ctx); err != nil {
		return err
	}
	b, ref := o.lock.b, o.lock.ref
	snap, err = o.Final(snap, func() (*backend.Journal, error) { return b.readJournal(ctx, ref) })
	if err != nil {
		return err
	}
	s := &stored{b: b, ref: ref, key: o.key}
	if _, err := b.commit(ctx, s, snap, o.Info().Secrets, o.Record(sum), o.journal.keys()); err != nil {
		return err
	}
	return backend.FinishErrors(ref, snap, journalErr, "the previous state is in "+b.url+" "+diy.Backups(ref))
}
