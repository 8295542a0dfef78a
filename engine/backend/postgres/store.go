package postgres

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// querier is what reads and writes go through: the pool, a lock's
// connection, or a transaction of either.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// stored is a stack's state as the database holds it: its current
// checkpoint and the journal of an operation that did not finish, if there
// is one.
type stored struct {
	b    *Backend
	ref  backend.StackRef
	data []byte
	hash string
	// journal was left by an operation that did not finish (or is running);
	// it applies to data.
	journal *backend.Journal
}

// load reads a stack's current state and its journal, in a read-only
// transaction that sees one moment of the database.
func (b *Backend) load(ctx context.Context, ref backend.StackRef) (*stored, error) {
	var s *stored
	var readErr error
	err := pgx.BeginTxFunc(ctx, b.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		s, readErr = b.read(ctx, tx, ref)
		return readErr
	})
	if readErr != nil {
		return nil, readErr
	}
	if err != nil {
		return nil, b.fail(err)
	}
	return s, nil
}

// read reads a stack's current state and its journal through q, which is
// a transaction.
func (b *Backend) read(ctx context.Context, q querier, ref backend.StackRef) (*stored, error) {
	if err := ref.Validate(); err != nil {
		return nil, err
	}
	s := &stored{b: b, ref: ref}
	err := q.QueryRow(ctx, `SELECT s.checkpoint, s.hash FROM cairn_stacks k JOIN cairn_states s ON s.id = k.state
		WHERE k.project = $1 AND k.stack = $2`, ref.Project, ref.Name).Scan(&s.data, &s.hash)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("stack %s: %w", ref, backend.ErrStackNotFound)
	}
	if err != nil {
		return nil, b.fail(err)
	}
	if s.journal, err = b.readJournal(ctx, q, ref); err != nil {
		return nil, err
	}
	if j := s.journal; j != nil && j.Header.Base != s.hash {
		return nil, fmt.Errorf("the journal of a %s of stack %s that did not finish (started %s) does not apply to the stack's state, "+
			"which was changed since; check the resources the journal names, then delete its rows from cairn_operations and cairn_journal",
			j.Header.Kind, ref, j.Header.Started.Format(time.RFC3339))
	}
	return s, nil
}

// readJournal reads the journal of the operation on ref that has not
// finished, or returns nil if there is none.
func (b *Backend) readJournal(ctx context.Context, q querier, ref backend.StackRef) (*backend.Journal, error) {
	var data []byte
	err := q.QueryRow(ctx, `SELECT header FROM cairn_operations WHERE project = $1 AND stack = $2`, ref.Project, ref.Name).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, b.fail(err)
	}
	rows, err := q.Query(ctx, `SELECT lines FROM cairn_journal WHERE project = $1 AND stack = $2 ORDER BY seq`, ref.Project, ref.Name)
	if err != nil {
		return nil, b.fail(err)
	}
	var lines []byte
	for rows.Next() {
		if err := rows.Scan(&lines); err != nil {
			return nil, b.fail(err)
		}
		data = append(data, lines...)
	}
	if err := rows.Err(); err != nil {
		return nil, b.fail(err)
	}
	return backend.ParseJournal(fmt.Sprintf("of stack %s in %s", ref, b.url), data)
}

// snapshot decodes the stored state, with its journal, if any, replayed
// over it.
func (s *stored) snapshot(sm secrets.Manager) (*snapshot.Snapshot, error) {
	snap, err := state.NewDecoder(sm).Checkpoint(s.data)
	if ue := (*state.UnreadableError)(nil); errors.As(err, &ue) {
		return nil, s.b.unreadable(s.ref, ue.Err)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the state of stack %s: %w; earlier states can be restored with `cairn stack restore --version N`", s.ref, err)
	}
	if s.journal == nil {
		return snap, nil
	}
	return s.journal.Replay(snap, sm)
}

// shared is the stored state for the logic every backend shares.
func (s *stored) shared() *backend.Stored {
	return &backend.Stored{Ref: s.ref, Data: s.data, Unfinished: s.journal != nil, Current: s.snapshot,
		Unreadable: func(err error) error { return s.b.unreadable(s.ref, err) }}
}

// unreadable is the error for a state that cannot be read.
func (b *Backend) unreadable(ref backend.StackRef, err error) error {
	return fmt.Errorf("the state of stack %s in %s cannot be read, so Cairn will not operate on it: %w; "+
		"restore an earlier state with `cairn stack restore` (or import a good export with `cairn stack import --force`)", ref, b.url, err)
}

// recover compacts the journal of an operation that did not finish into the
// stack's state, with a warning and a history record, and returns the
// stack's current state and its hash. The caller holds the stack's lock,
// so no live process is writing that journal.
func (b *Backend) recover(ctx context.Context, tx pgx.Tx, s *stored, sm secrets.Manager) (*snapshot.Snapshot, string, error) {
	current, err := s.snapshot(sm)
	if err != nil || s.journal == nil {
		return current, s.hash, err
	}
	warning, rec := backend.Recovered(s.ref, s.journal.Header, current)
	b.opts.Warnf("%s", warning)
	hash, err := b.commit(ctx, tx, s.ref, current, sm, rec)
	return current, hash, err
}

// commit makes snap the stack's state, as write does.
func (b *Backend) commit(ctx context.Context, tx pgx.Tx, ref backend.StackRef, snap *snapshot.Snapshot, sm secrets.Manager, rec backend.HistoryRecord) (string, error) {
	data, err := b.opts.Encoder(sm, false).Checkpoint(ref.Qualified(), snap)
	if err != nil {
		return "", fmt.Errorf("writing the state of stack %s: %w", ref, err)
	}
	return b.write(ctx, tx, ref, data, rec)
}

// write makes data the stack's state in the transaction tx: the state is
// added to the stack's states under the version of its history record,
// becomes the current one, the record is added and the journal removed. It
// returns the hash of the state.
func (b *Backend) write(ctx context.Context, tx pgx.Tx, ref backend.StackRef, data []byte, rec backend.HistoryRecord) (string, error) {
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) + 1 FROM cairn_history WHERE project = $1 AND stack = $2`,
		ref.Project, ref.Name).Scan(&rec.Version); err != nil {
		return "", b.fail(err)
	}
	record, err := json.Marshal(rec)
	if err != nil {
		return "", err
	}
	id, hash, err := b.keep(ctx, tx, ref, rec.Version, data)
	if err != nil {
		return "", err
	}
	for _, stmt := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO cairn_stacks (project, stack, state) VALUES ($1, $2, $3)
			ON CONFLICT (project, stack) DO UPDATE SET state = excluded.state`, []any{id}},
		{`INSERT INTO cairn_history (project, stack, version, record) VALUES ($1, $2, $3, $4)`, []any{rec.Version, record}},
		{`DELETE FROM cairn_journal WHERE project = $1 AND stack = $2`, nil},
		{`DELETE FROM cairn_operations WHERE project = $1 AND stack = $2`, nil},
	} {
		if _, err := tx.Exec(ctx, stmt.sql, append([]any{ref.Project, ref.Name}, stmt.args...)...); err != nil {
			return "", b.fail(fmt.Errorf("writing the state of stack %s: %w", ref, err))
		}
	}
	return hash, nil
}

// keep adds a checkpoint to the stack's states, under version, and returns
// its id and hash.
func (b *Backend) keep(ctx context.Context, q querier, ref backend.StackRef, version int, data []byte) (int64, string, error) {
	sum, err := state.ParseSummary(data)
	if err != nil {
		return 0, "", fmt.Errorf("writing the state of stack %s: %w", ref, err)
	}
	var updated *time.Time
	if !sum.Time.IsZero() {
		updated = &sum.Time
	}
	hash := hashOf(data)
	var id int64
	err = q.QueryRow(ctx, `INSERT INTO cairn_states (project, stack, version, checkpoint, hash, resources, updated)
		VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`, ref.Project, ref.Name, version, data, hash, sum.Resources, updated).Scan(&id)
	if err != nil {
		return 0, "", b.fail(fmt.Errorf("writing the state of stack %s: %w", ref, err))
	}
	return id, hash, nil
}

func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
