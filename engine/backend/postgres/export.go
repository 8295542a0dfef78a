package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// Snapshot implements backend.Backend.
func (b *Backend) Snapshot(ctx context.Context, ref backend.StackRef, sm secrets.Manager) (*snapshot.Snapshot, error) {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	s, err := b.load(ctx, ref)
	if err != nil {
		return nil, err
	}
	return s.snapshot(sm)
}

// Outputs implements backend.Backend.
func (b *Backend) Outputs(ctx context.Context, ref backend.StackRef, sm secrets.Manager) (resource.Map, error) {
	return backend.StackOutputs(ctx, b, ref, sm)
}

// Export implements backend.Backend.
func (b *Backend) Export(ctx context.Context, ref backend.StackRef, opts backend.ExportOptions) (*state.UntypedDeployment, error) {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	s, err := b.load(ctx, ref)
	if err != nil {
		return nil, err
	}
	return s.shared().Export(b.opts.Encoder(opts.Secrets, opts.ShowSecrets), opts)
}

// Import implements backend.Backend.
func (b *Backend) Import(ctx context.Context, ref backend.StackRef, u *state.UntypedDeployment, opts backend.ImportOptions) error {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	snap, err := backend.CheckImport(ref, u, opts, func(msg string) { b.opts.Warnf("%s", msg) })
	if err != nil {
		return err
	}
	return b.underLock(ctx, ref, func(tx pgx.Tx) error {
		s, err := b.read(ctx, tx, ref)
		if err == nil {
			_, _, err = b.recover(ctx, tx, s, opts.Secrets)
		}
		if err != nil && opts.Force && !errors.Is(err, backend.ErrStackNotFound) {
			b.opts.Warnf("importing anyway (--force) over the current state, which cannot be read: %s", err)
			err = nil
		}
		if err != nil {
			return err
		}
		_, err = b.commit(ctx, tx, ref, snap, opts.Secrets, backend.ImportRecord(""))
		return err
	})
}

// underLock runs f in a transaction under the stack's lock.
func (b *Backend) underLock(ctx context.Context, ref backend.StackRef, f func(tx pgx.Tx) error) error {
	lk, err := b.Lock(ctx, ref)
	if err != nil {
		return err
	}
	l := lk.(*stackLock)
	l.mu.Lock()
	err = l.tx(ctx, f)
	l.mu.Unlock()
	return errors.Join(err, l.Release())
}

// History implements backend.Backend.
func (b *Backend) History(ctx context.Context, ref backend.StackRef) ([]backend.HistoryRecord, error) {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	if err := b.knownStack(ctx, ref); err != nil {
		return nil, err
	}
	rows, err := b.pool.Query(ctx, `SELECT record FROM cairn_history WHERE project = $1 AND stack = $2 ORDER BY version DESC`,
		ref.Project, ref.Name)
	if err != nil {
		return nil, b.fail(err)
	}
	defer rows.Close()
	var out []backend.HistoryRecord
	for rows.Next() {
		var raw []byte
		var rec backend.HistoryRecord
		if err := rows.Scan(&raw); err != nil {
			return nil, b.fail(err)
		}
		if err := json.Unmarshal(raw, &rec); err != nil {
			return nil, fmt.Errorf("reading the history of stack %s: %w", ref, err)
		}
		out = append(out, rec)
	}
	if err := rows.Err(); err != nil {
		return nil, b.fail(err)
	}
	return out, nil
}

// keptState is one of a stack's states, as Restore picks them.
type keptState struct {
	version int // 0 for a state kept without an operation (the first, a removed stack's)
	written time.Time
	data    []byte
}

func (k keptState) String() string {
	if k.version == 0 {
		return "of " + k.written.Format(time.RFC3339)
	}
	return "version " + strconv.Itoa(k.version)
}

// Restore implements backend.Backend. It works on a removed stack, whose
// states are kept.
func (b *Backend) Restore(ctx context.Context, ref backend.StackRef, version int) (int, error) {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	var restored int
	err := b.underLock(ctx, ref, func(tx pgx.Tx) error {
		kept, err := b.pickState(ctx, tx, ref, version)
		if err != nil {
			return err
		}
		if j, _ := b.readJournal(ctx, tx, ref); j != nil {
			b.opts.Warnf("the journal of a %s of stack %s that did not finish (started %s) is dropped: check the resources it names",
				j.Header.Kind, ref, j.Header.Started.Format(time.RFC3339))
		}
		restored = kept.version
		_, err = b.write(ctx, tx, ref, kept.data, backend.ImportRecord("restored the backup "+kept.String()))
		return err
	})
	return restored, err
}

// pickState returns the state of a version, or the newest that can be read
// for 0.
func (b *Backend) pickState(ctx context.Context, q querier, ref backend.StackRef, version int) (keptState, error) {
	rows, err := q.Query(ctx, `SELECT version, coalesce(updated, 'epoch'), checkpoint FROM cairn_states
		WHERE project = $1 AND stack = $2 AND ($3 = 0 OR version = $3) ORDER BY id DESC`, ref.Project, ref.Name, version)
	if err != nil {
		return keptState{}, b.fail(err)
	}
	var kept []keptState
	for rows.Next() {
		var k keptState
		if err := rows.Scan(&k.version, &k.written, &k.data); err != nil {
			return keptState{}, b.fail(err)
		}
		kept = append(kept, k)
	}
	if err := rows.Err(); err != nil {
		return keptState{}, b.fail(err)
	}
	for _, k := range kept {
		_, err := state.ParseCheckpoint(k.data)
		if err == nil {
			return k, nil
		}
		if version != 0 {
			return keptState{}, fmt.Errorf("the backup %s of stack %s cannot be read: %w", k, ref, err)
		}
	}
	if version == 0 {
		return keptState{}, fmt.Errorf("stack %s has no backup that can be read", ref)
	}
	rows, err = q.Query(ctx, `SELECT version FROM cairn_states WHERE project = $1 AND stack = $2 AND version > 0 ORDER BY version`,
		ref.Project, ref.Name)
	if err != nil {
		return keptState{}, b.fail(err)
	}
	have, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		return keptState{}, b.fail(err)
	}
	var oldest int
	if err := q.QueryRow(ctx, `SELECT coalesce(min(version), 0) FROM cairn_history WHERE project = $1 AND stack = $2`,
		ref.Project, ref.Name).Scan(&oldest); err != nil {
		return keptState{}, b.fail(err)
	}
	return keptState{}, backend.NoVersionError(ref, version, oldest, have)
}
