package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// CreateStack implements backend.Backend. Without init, the new stack's
// state is a checkpoint without a deployment, as Pulumi writes one.
func (b *Backend) CreateStack(ctx context.Context, ref backend.StackRef, init *snapshot.Snapshot, sm secrets.Manager) error {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	if err := ref.Validate(); err != nil {
		return err
	}
	data, err := b.opts.Encoder(sm, false).Checkpoint(ref.Qualified(), init)
	if err != nil {
		return err
	}
	exists := false
	err = pgx.BeginFunc(ctx, b.pool, func(tx pgx.Tx) error {
		id, _, err := b.keep(ctx, tx, ref, 0, data)
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO cairn_stacks (project, stack, state) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
			ref.Project, ref.Name, id)
		if err == nil && tag.RowsAffected() == 0 {
			exists = true
			return backend.ErrStackExists // rolls back
		}
		return err
	})
	if exists {
		return fmt.Errorf("stack %s: %w", ref, backend.ErrStackExists)
	}
	if err != nil {
		return b.fail(err)
	}
	return nil
}

// StackExists implements backend.Backend.
func (b *Backend) StackExists(ctx context.Context, ref backend.StackRef) (bool, error) {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	if err := ref.Validate(); err != nil {
		return false, err
	}
	var exists bool
	err := b.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM cairn_stacks WHERE project = $1 AND stack = $2)`,
		ref.Project, ref.Name).Scan(&exists)
	if err != nil {
		return false, b.fail(err)
	}
	return exists, nil
}

// knownStack checks that the stack exists, or was removed but has states
// kept to restore.
func (b *Backend) knownStack(ctx context.Context, ref backend.StackRef) error {
	if err := ref.Validate(); err != nil {
		return err
	}
	var known bool
	err := b.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM cairn_states WHERE project = $1 AND stack = $2)`,
		ref.Project, ref.Name).Scan(&known)
	if err != nil {
		return b.fail(err)
	}
	if !known {
		return fmt.Errorf("stack %s: %w", ref, backend.ErrStackNotFound)
	}
	return nil
}

// ListStacks implements backend.Backend. It reads no state: each state's
// time and resource count are columns of its row. A lock whose row is left
// by a holder that died is not listed.
func (b *Backend) ListStacks(ctx context.Context, project string) ([]backend.StackSummary, error) {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	live, err := b.heldLocks(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := b.pool.Query(ctx, `SELECT k.project, k.stack, s.updated, s.resources,
			l.pid, l.username, l.hostname, l.locked, l.operation
		FROM cairn_stacks k JOIN cairn_states s ON s.id = k.state
		LEFT JOIN cairn_locks l ON l.project = k.project AND l.stack = k.stack
		WHERE $1 = '' OR k.project = $1
		ORDER BY k.project COLLATE "C", k.stack COLLATE "C"`, project)
	if err != nil {
		return nil, b.fail(err)
	}
	defer rows.Close()
	var out []backend.StackSummary
	for rows.Next() {
		var sum backend.StackSummary
		var updated, locked *time.Time
		var pid *int
		var username, hostname, op *string
		if err := rows.Scan(&sum.Ref.Project, &sum.Ref.Name, &updated, &sum.Resources, &pid, &username, &hostname, &locked, &op); err != nil {
			return nil, b.fail(err)
		}
		if updated != nil {
			sum.LastUpdate = *updated
		}
		if pid != nil && live[lockKey(sum.Ref)] {
			sum.Lock = &backend.LockInfo{Pid: *pid, Username: *username, Hostname: *hostname, Timestamp: locked.UTC(), Operation: backend.OperationKind(*op)}
		}
		out = append(out, sum)
	}
	if err := rows.Err(); err != nil {
		return nil, b.fail(err)
	}
	return out, nil
}

// heldLocks returns the advisory locks of stacks that sessions of the
// database hold.
func (b *Backend) heldLocks(ctx context.Context) (map[int64]bool, error) {
	// pg_locks shows a bigint key as its high and low 32 bits.
	rows, err := b.pool.Query(ctx, `SELECT (classid::bigint << 32) | objid::bigint FROM pg_locks
		WHERE locktype = 'advisory' AND objsubid = 1 AND granted
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)
	if err != nil {
		return nil, b.fail(err)
	}
	keys, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, b.fail(err)
	}
	held := make(map[int64]bool, len(keys))
	for _, k := range keys {
		held[k] = true
	}
	return held, nil
}

// RemoveStack implements backend.Backend. The stack's states are kept, for
// `cairn stack restore`, unless opts.Purge.
func (b *Backend) RemoveStack(ctx context.Context, ref backend.StackRef, opts backend.RemoveOptions) (backend.Removed, error) {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	if err := b.existingStack(ctx, ref); err != nil {
		if opts.Purge && errors.Is(err, backend.ErrStackNotFound) {
			return b.purge(ctx, ref)
		}
		return backend.Removed{}, err
	}
	var out backend.Removed
	err := b.underLock(ctx, ref, func(tx pgx.Tx) error {
		s, err := b.read(ctx, tx, ref)
		if err != nil && !opts.Force {
			return err
		}
		if !opts.Force {
			if err := s.shared().CheckEmpty(); err != nil {
				return err
			}
		}
		for _, sql := range []string{
			`DELETE FROM cairn_stacks WHERE project = $1 AND stack = $2`,
			`DELETE FROM cairn_history WHERE project = $1 AND stack = $2`,
			`DELETE FROM cairn_journal WHERE project = $1 AND stack = $2`,
			`DELETE FROM cairn_operations WHERE project = $1 AND stack = $2`,
			`DELETE FROM cairn_tags WHERE project = $1 AND stack = $2`,
			// The kept states no longer belong to an operation of the history.
			`UPDATE cairn_states SET version = 0 WHERE project = $1 AND stack = $2`,
		} {
			if _, err := tx.Exec(ctx, sql, ref.Project, ref.Name); err != nil {
				return b.fail(fmt.Errorf("removing stack %s: %w", ref, err))
			}
		}
		if opts.Purge {
			out.Purged, err = b.removeStates(ctx, tx, ref)
			return err
		}
		out.Where = b.url
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM cairn_states WHERE project = $1 AND stack = $2`,
			ref.Project, ref.Name).Scan(&out.Kept); err != nil {
			return b.fail(err)
		}
		return nil
	})
	if err != nil {
		return backend.Removed{}, err
	}
	return out, nil
}
