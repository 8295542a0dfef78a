package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// operation is an operation running on a stack under its lock.
type operation struct {
	*backend.Running
	lock *stackLock
}

// Begin implements backend.Lock: in one transaction, it compacts the
// journal of an operation that did not finish into the stack's state and
// records the new operation's journal header. The operation's journal is
// then appended to by group commit, on the lock's connection.
func (l *stackLock) Begin(ctx context.Context, info backend.OperationInfo) (backend.Operation, error) {
	ctx, cancel := l.b.bound(ctx)
	defer cancel()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.journal != nil {
		return nil, fmt.Errorf("an operation on stack %s is already running under this lock", l.ref)
	}
	started := time.Now()
	var base *snapshot.Snapshot
	err := l.tx(ctx, func(tx pgx.Tx) error {
		s, err := l.b.read(ctx, tx, l.ref)
		if err != nil {
			return err
		}
		current, hash, err := l.b.recover(ctx, tx, s, info.Secrets)
		if err != nil {
			return err
		}
		header := backend.NewJournalHeader(info, started, hash)
		line, err := json.Marshal(backend.JournalLine{Header: &header})
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO cairn_operations (project, stack, header) VALUES ($1, $2, $3)`,
			l.ref.Project, l.ref.Name, append(line, '\n')); err != nil {
			return l.b.fail(err)
		}
		if _, err := tx.Exec(ctx, `UPDATE cairn_locks SET operation = $3 WHERE project = $1 AND stack = $2`,
			l.ref.Project, l.ref.Name, string(info.Kind)); err != nil {
			return l.b.fail(err)
		}
		base = current
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("starting the %s of stack %s: %w", info.Kind, l.ref, err)
	}
	l.info.Operation = info.Kind
	w := backend.NewGroupWriter(func(batch []byte) error {
		ctx, cancel := l.b.bound(context.Background())
		defer cancel()
		if err := l.exec(ctx, `INSERT INTO cairn_journal (project, stack, lines) VALUES ($1, $2, $3)`, l.ref.Project, l.ref.Name, batch); err != nil {
			return fmt.Errorf("writing the journal of stack %s: %w", l.ref, err)
		}
		return nil
	}, nil)
	l.journal = backend.NewJournalWriter(l.b.opts.Encoder(info.Secrets, false), base.Resources, w)
	return &operation{Running: backend.NewRunning(l.ref, info, started, base, l.journal), lock: l}, nil
}

// Finish implements backend.Operation: one transaction writes the state,
// records the operation in the history and removes its journal. If it
// fails (the database went away), the stack's state is as it was and the
// journal is left for the next operation to recover.
func (o *operation) Finish(ctx context.Context, snap *snapshot.Snapshot, sum backend.Summary) error {
	ctx, cancel := o.lock.b.bound(ctx)
	defer cancel()
	journalErr, err := o.Finishing()
	if err != nil {
		return err
	}
	l := o.lock
	l.mu.Lock()
	defer l.mu.Unlock()
	l.journal = nil
	b, ref, info := l.b, l.ref, o.Info()
	err = l.tx(ctx, func(tx pgx.Tx) error {
		var err error
		if snap, err = o.Final(snap, func() (*backend.Journal, error) { return b.readJournal(ctx, tx, ref) }); err != nil {
			return err
		}
		_, err = b.commit(ctx, tx, ref, snap, info.Secrets, o.Record(sum))
		return err
	})
	if err != nil {
		return fmt.Errorf("the %s of stack %s could not write its state, which is as it was before the operation; "+
			"its journal is kept for the next operation to recover: %w", info.Kind, ref, err)
	}
	return backend.FinishErrors(ref, snap, journalErr, "restore the previous state with `cairn stack restore`")
}
