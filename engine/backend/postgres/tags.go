package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/engine/backend"
)

// Tags implements backend.Backend.
func (b *Backend) Tags(ctx context.Context, ref backend.StackRef) (backend.Tags, error) {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	if err := b.existingStack(ctx, ref); err != nil {
		return nil, err
	}
	return b.readTags(ctx, b.pool, ref)
}

// readTags reads the stack's tags through q.
func (b *Backend) readTags(ctx context.Context, q querier, ref backend.StackRef) (backend.Tags, error) {
	rows, err := q.Query(ctx, `SELECT name, value FROM cairn_tags WHERE project = $1 AND stack = $2`, ref.Project, ref.Name)
	if err != nil {
		return nil, b.fail(err)
	}
	defer rows.Close()
	tags := backend.Tags{}
	for rows.Next() {
		var name, value string
		if err := rows.Scan(&name, &value); err != nil {
			return nil, b.fail(err)
		}
		tags[name] = value
	}
	if err := rows.Err(); err != nil {
		return nil, b.fail(err)
	}
	return tags, nil
}

// SetTags implements backend.Backend, in one transaction.
func (b *Backend) SetTags(ctx context.Context, ref backend.StackRef, tags backend.Tags) error {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	if err := b.existingStack(ctx, ref); err != nil {
		return err
	}
	err := pgx.BeginFunc(ctx, b.pool, func(tx pgx.Tx) error { return b.writeTags(ctx, tx, ref, tags) })
	if err != nil {
		return b.fail(err)
	}
	return nil
}

// writeTags replaces the stack's tags in the transaction tx.
func (b *Backend) writeTags(ctx context.Context, tx pgx.Tx, ref backend.StackRef, tags backend.Tags) error {
	for name, value := range tags {
		if err := backend.ValidateTag(name, value); err != nil {
			return err
		}
	}
	if _, err := tx.Exec(ctx, `DELETE FROM cairn_tags WHERE project = $1 AND stack = $2`, ref.Project, ref.Name); err != nil {
		return err
	}
	for name, value := range tags {
		if _, err := tx.Exec(ctx, `INSERT INTO cairn_tags (project, stack, name, value) VALUES ($1, $2, $3, $4)`,
			ref.Project, ref.Name, name, value); err != nil {
			return err
		}
	}
	return nil
}

// existingStack fails with ErrStackNotFound for a stack that does not
// exist.
func (b *Backend) existingStack(ctx context.Context, ref backend.StackRef) error {
	exists, err := b.StackExists(ctx, ref)
	if err == nil && !exists {
		err = fmt.Errorf("stack %s: %w", ref, backend.ErrStackNotFound)
	}
	return err
}
