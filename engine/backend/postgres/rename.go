package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/engine/backend"
)

// RenameStack implements backend.Backend, in one transaction: the stack's
// states, history and tags move to the new name, and its state with the URNs
// renamed becomes the current one.
func (b *Backend) RenameStack(ctx context.Context, ref backend.StackRef, name string) error {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	to, err := backend.RenameTarget(ctx, b, ref, name)
	if err != nil {
		return err
	}
	if err := b.knownStack(ctx, to); err == nil {
		return fmt.Errorf("the states of a removed stack %s are kept (for `cairn stack restore`); choose another name", to)
	}
	return b.underLock(ctx, ref, func(tx pgx.Tx) error {
		s, err := b.read(ctx, tx, ref)
		if err != nil {
			return err
		}
		data, err := s.shared().Renamed(to)
		if err != nil {
			return err
		}
		for _, sql := range []string{
			`UPDATE cairn_states SET stack = $3 WHERE project = $1 AND stack = $2`,
			`UPDATE cairn_history SET stack = $3 WHERE project = $1 AND stack = $2`,
			`UPDATE cairn_tags SET stack = $3 WHERE project = $1 AND stack = $2`,
		} {
			if _, err := tx.Exec(ctx, sql, ref.Project, ref.Name, to.Name); err != nil {
				return b.fail(fmt.Errorf("renaming stack %s: %w", ref, err))
			}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM cairn_stacks WHERE project = $1 AND stack = $2`, ref.Project, ref.Name); err != nil {
			return b.fail(fmt.Errorf("renaming stack %s: %w", ref, err))
		}
		_, err = b.write(ctx, tx, to, data, backend.RenameRecord(ref, to))
		return err
	})
}
