package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/engine/backend"
)

var _ backend.Mover = (*Backend)(nil)

// Archive implements backend.Mover.
func (b *Backend) Archive(ctx context.Context, ref backend.StackRef) (*backend.Archive, error) {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	a := &backend.Archive{}
	err := b.underLock(ctx, ref, func(tx pgx.Tx) error {
		s, err := b.read(ctx, tx, ref)
		if err != nil {
			return err
		}
		if s.journal != nil {
			return backend.UnfinishedError(ref)
		}
		a.State = s.data
		if a.Tags, err = b.readTags(ctx, tx, ref); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT h.record, s.checkpoint FROM cairn_history h
			LEFT JOIN cairn_states s ON s.project = h.project AND s.stack = h.stack AND s.version = h.version
			WHERE h.project = $1 AND h.stack = $2 ORDER BY h.version`, ref.Project, ref.Name)
		if err != nil {
			return b.fail(err)
		}
		defer rows.Close()
		for rows.Next() {
			var v backend.ArchivedVersion
			var record []byte
			if err := rows.Scan(&record, &v.State); err != nil {
				return b.fail(err)
			}
			if err := json.Unmarshal(record, &v.Record); err != nil {
				return fmt.Errorf("reading the history of stack %s: %w", ref, err)
			}
			a.Versions = append(a.Versions, v)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// Unarchive implements backend.Mover, in one transaction. The current
// state is the newest version's row when it has the same content.
func (b *Backend) Unarchive(ctx context.Context, ref backend.StackRef, a *backend.Archive) error {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	exists, err := b.StackExists(ctx, ref)
	if err == nil && !exists {
		err = pgx.BeginFunc(ctx, b.pool, func(tx pgx.Tx) error { return b.unarchive(ctx, tx, ref, a) })
		exists = errors.Is(err, backend.ErrStackExists)
	}
	if exists {
		return fmt.Errorf("stack %s: %w", ref, backend.ErrStackExists)
	}
	return err
}

// unarchive writes an archive's tags, history and states, then the stack's
// row.
func (b *Backend) unarchive(ctx context.Context, tx pgx.Tx, ref backend.StackRef, a *backend.Archive) error {
	if err := b.writeTags(ctx, tx, ref, a.Tags); err != nil {
		return err
	}
	var current int64
	versions := a.VersionNumbers()
	for i, v := range a.Versions {
		v.Record.Version = versions[i]
		record, err := json.Marshal(v.Record)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO cairn_history (project, stack, version, record) VALUES ($1, $2, $3, $4)`,
			ref.Project, ref.Name, v.Record.Version, record); err != nil {
			return b.fail(err)
		}
		current = 0
		if v.State != nil {
			id, _, err := b.keep(ctx, tx, ref, v.Record.Version, v.State)
			if err != nil {
				return err
			}
			if bytes.Equal(v.State, a.State) {
				current = id
			}
		}
	}
	if current == 0 {
		id, _, err := b.keep(ctx, tx, ref, 0, a.State)
		if err != nil {
			return err
		}
		current = id
	}
	tag, err := tx.Exec(ctx, `INSERT INTO cairn_stacks (project, stack, state) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
		ref.Project, ref.Name, current)
	if err != nil {
		return b.fail(err)
	}
	if tag.RowsAffected() == 0 {
		return backend.ErrStackExists // created meanwhile: roll back
	}
	return nil
}
