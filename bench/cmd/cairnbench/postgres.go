package main

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// database is a new database of the bench's PostgreSQL server, for one run
// of a stack, and a connection to it for measuring.
type database struct {
	url  string
	conn *pgx.Conn
}

func (b *bench) database() (*database, error) {
	ctx := context.Background()
	url, err := b.pg.CreateDatabase(ctx, "bench")
	if err != nil {
		return nil, err
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	return &database{url: url, conn: conn}, nil
}

func (d *database) close() { d.conn.Close(context.Background()) }

// walPosition is how many bytes of write-ahead log the server has written
// so far: everything a transaction makes durable goes through it.
func (d *database) walPosition() (int64, error) {
	var pos int64
	err := d.conn.QueryRow(context.Background(), `SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint`).Scan(&pos)
	return pos, err
}

// stateSize is the size of the stack's current state, as a checkpoint.
func (d *database) stateSize() (int64, error) {
	var n int64
	err := d.conn.QueryRow(context.Background(), `SELECT octet_length(s.checkpoint) FROM cairn_stacks k
		JOIN cairn_states s ON s.id = k.state WHERE k.project = $1 AND k.stack = 'dev'`, project).Scan(&n)
	return n, err
}
