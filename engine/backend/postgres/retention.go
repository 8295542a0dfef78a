package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/engine/backend"
)

// PruneHistory implements backend.Backend, in one transaction under the
// stack's lock: the history rows of the operations but the newest
// opts.Keep go, with the states kept before the oldest operation kept (the
// states those operations wrote, and those kept without an operation before
// them). The stack's current state is never removed.
func (b *Backend) PruneHistory(ctx context.Context, ref backend.StackRef, opts backend.PruneOptions) (backend.Pruned, error) {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	if err := opts.Check(); err != nil {
		return backend.Pruned{}, err
	}
	if err := b.existingStack(ctx, ref); err != nil {
		return backend.Pruned{}, err
	}
	var out backend.Pruned
	err := b.underLock(ctx, ref, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT version FROM cairn_history WHERE project = $1 AND stack = $2 ORDER BY version`,
			ref.Project, ref.Name)
		if err != nil {
			return b.fail(err)
		}
		versions, err := pgx.CollectRows(rows, pgx.RowTo[int])
		if err != nil {
			return b.fail(err)
		}
		cut := max(len(versions)-opts.Keep, 0)
		out.Versions, out.Kept = versions[:cut], versions[cut:]
		if cut == 0 {
			return nil
		}
		oldest := versions[cut]
		// The states to go: older than the first state of a version kept
		// (or, failing one, than the current state), or of a version that
		// goes; never the current one.
		const doomed = `project = $1 AND stack = $2
			AND (id < coalesce((SELECT min(id) FROM cairn_states WHERE project = $1 AND stack = $2 AND version >= $3),
					(SELECT state FROM cairn_stacks WHERE project = $1 AND stack = $2))
				OR version BETWEEN 1 AND $3 - 1)
			AND id <> (SELECT state FROM cairn_stacks WHERE project = $1 AND stack = $2)`
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM cairn_states WHERE `+doomed, ref.Project, ref.Name, oldest).Scan(&out.States); err != nil {
			return b.fail(err)
		}
		if opts.DryRun {
			return nil
		}
		for _, sql := range []string{
			`DELETE FROM cairn_states WHERE ` + doomed,
			`DELETE FROM cairn_history WHERE project = $1 AND stack = $2 AND version < $3`,
		} {
			if _, err := tx.Exec(ctx, sql, ref.Project, ref.Name, oldest); err != nil {
				return b.fail(fmt.Errorf("pruning the history of stack %s: %w", ref, err))
			}
		}
		return nil
	})
	if err != nil {
		return backend.Pruned{}, err
	}
	return out, nil
}

// purge removes the states kept of a removed stack, under its lock.
func (b *Backend) purge(ctx context.Context, ref backend.StackRef) (backend.Removed, error) {
	var out backend.Removed
	err := b.underLock(ctx, ref, func(tx pgx.Tx) error {
		var err error
		out.Purged, err = b.removeStates(ctx, tx, ref)
		return err
	})
	return out, err
}

// removeStates removes every state of a stack that does not exist (any
// more), and returns how many there were.
func (b *Backend) removeStates(ctx context.Context, tx pgx.Tx, ref backend.StackRef) (int, error) {
	tag, err := tx.Exec(ctx, `DELETE FROM cairn_states WHERE project = $1 AND stack = $2
		AND NOT EXISTS (SELECT 1 FROM cairn_stacks WHERE project = $1 AND stack = $2)`, ref.Project, ref.Name)
	if err != nil {
		return 0, b.fail(fmt.Errorf("removing the states kept of stack %s: %w", ref, err))
	}
	return int(tag.RowsAffected()), nil
}
