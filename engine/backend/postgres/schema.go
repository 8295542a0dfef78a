package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// migrations are the schema's versions, in order: migrations[i] takes the
// schema from version i to i+1. Never edit one that was released; append.
var migrations = []string{
	`CREATE TABLE cairn_states (
		id         bigserial PRIMARY KEY,
		project    text NOT NULL,
		stack      text NOT NULL,
		version    integer NOT NULL DEFAULT 0,
		checkpoint bytea NOT NULL,
		hash       text NOT NULL,
		resources  integer NOT NULL,
		updated    timestamptz
	);
	CREATE INDEX cairn_states_stack ON cairn_states (project, stack, id);
	CREATE TABLE cairn_stacks (
		project text NOT NULL,
		stack   text NOT NULL,
		state   bigint NOT NULL REFERENCES cairn_states (id),
		PRIMARY KEY (project, stack)
	);
	CREATE TABLE cairn_history (
		project text NOT NULL,
		stack   text NOT NULL,
		version integer NOT NULL,
		record  jsonb NOT NULL,
		PRIMARY KEY (project, stack, version)
	);
	CREATE TABLE cairn_operations (
		project text NOT NULL,
		stack   text NOT NULL,
		header  bytea NOT NULL,
		PRIMARY KEY (project, stack)
	);
	CREATE TABLE cairn_journal (
		project text NOT NULL,
		stack   text NOT NULL,
		seq     bigserial,
		lines   bytea NOT NULL,
		PRIMARY KEY (project, stack, seq)
	);
	CREATE TABLE cairn_locks (
		project   text NOT NULL,
		stack     text NOT NULL,
		token     text NOT NULL,
		pid       integer NOT NULL,
		username  text NOT NULL,
		hostname  text NOT NULL,
		locked    timestamptz NOT NULL,
		operation text NOT NULL DEFAULT '',
		PRIMARY KEY (project, stack)
	);`,
	`CREATE TABLE cairn_tags (
		project text NOT NULL,
		stack   text NOT NULL,
		name    text NOT NULL,
		value   text NOT NULL,
		PRIMARY KEY (project, stack, name)
	);`,
}

// migrationLock is the advisory lock that serializes migrations, so that
// processes opening a new database at once do not race.
const migrationLock = 0x636169726e // "cairn"

// migrate brings the database's schema to the newest version, refusing one
// newer than this Cairn knows.
func migrate(ctx context.Context, conn *pgx.Conn) error {
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS cairn_schema (
			version integer PRIMARY KEY,
			applied timestamptz NOT NULL DEFAULT now()
		)`); err != nil {
			return err
		}
		var current int
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM cairn_schema`).Scan(&current); err != nil {
			return err
		}
		if current > len(migrations) {
			return fmt.Errorf("the database's Cairn schema has version %d, newer than this Cairn knows (%d): "+
				"it was migrated by a newer Cairn; upgrade Cairn to use it", current, len(migrations))
		}
		for v := current + 1; v <= len(migrations); v++ {
			if _, err := tx.Exec(ctx, migrations[v-1]); err != nil {
				return fmt.Errorf("migrating the schema to version %d: %w", v, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO cairn_schema (version) VALUES ($1)`, v); err != nil {
				return err
			}
		}
		return nil
	})
}
