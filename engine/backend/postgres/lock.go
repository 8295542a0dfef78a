package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-iac/cairn/engine/backend"
)

// holderWait bounds how long Lock waits for the row of a holder that has
// just taken the advisory lock and not yet written its row.
const holderWait = time.Second

// stackLock is a lock this process holds on a stack: the advisory lock of
// its session conn, on which every write under the lock is made.
type stackLock struct {
	b     *Backend
	ref   backend.StackRef
	token string // names this holder's row
	info  backend.LockInfo

	mu       sync.Mutex
	released bool
	// journal is the running operation's journal, if one is running.
	journal *backend.JournalWriter

	connMu sync.Mutex // the connection serves one call at a time
	conn   *pgx.Conn
}

// lockKey is the advisory lock of a stack.
func lockKey(ref backend.StackRef) int64 {
	h := fnv.New64a()
	h.Write([]byte("cairn-stack\x00" + ref.Project + "\x00" + ref.Name))
	return int64(h.Sum64())
}

// Lock implements backend.Backend: it takes the stack's advisory lock on a
// connection of its own, without waiting, and records the holder in
// cairn_locks. A row whose holder no longer holds the advisory lock is
// stale (its process died or lost its connection) and is replaced, with a
// warning.
func (b *Backend) Lock(ctx context.Context, ref backend.StackRef) (backend.Lock, error) {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	conn, ok, err := b.tryLock(ctx, ref)
	if err != nil {
		return nil, err
	}
	if !ok {
		defer conn.Close(ctx)
		return nil, &backend.LockedError{Stack: ref, Holder: b.liveHolder(ctx, conn, ref)}
	}
	l := &stackLock{b: b, ref: ref, token: randomToken(), conn: conn,
		info: backend.LockInfo{Pid: os.Getpid(), Username: b.user, Hostname: b.opts.Hostname, Timestamp: time.Now().UTC().Truncate(time.Second)}}
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if stale, err := holder(ctx, tx, ref); err != nil {
			return err
		} else if stale != nil {
			b.opts.Warnf("broke the lock of stack %s held by %s: that process no longer holds its connection to the database "+
				"(it crashed or lost its connection; its operation's journal, if any, is recovered by the next operation)", ref, stale)
		}
		_, err := tx.Exec(ctx, `INSERT INTO cairn_locks (project, stack, token, pid, username, hostname, locked)
			VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (project, stack) DO UPDATE SET token = excluded.token, pid = excluded.pid, username = excluded.username,
				hostname = excluded.hostname, locked = excluded.locked, operation = ''`,
			ref.Project, ref.Name, l.token, l.info.Pid, l.info.Username, l.info.Hostname, l.info.Timestamp)
		return err
	})
	if err != nil {
		conn.Close(ctx)
		return nil, b.fail(fmt.Errorf("taking the lock of stack %s: %w", ref, err))
	}
	return l, nil
}

// tryLock takes the advisory lock of a stack on a connection of its own,
// without waiting, and reports whether it got it. The connection is the
// caller's to close, which frees the lock.
func (b *Backend) tryLock(ctx context.Context, ref backend.StackRef) (*pgx.Conn, bool, error) {
	if err := b.knownStack(ctx, ref); err != nil {
		return nil, false, err
	}
	conn, err := b.connect(ctx)
	if err != nil {
		return nil, false, err
	}
	var ok bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, lockKey(ref)).Scan(&ok); err != nil {
		conn.Close(ctx)
		return nil, false, b.fail(err)
	}
	return conn, ok, nil
}

// liveHolder returns what the row of the stack's lock says, waiting a
// little for a holder that has just taken the advisory lock to write it.
func (b *Backend) liveHolder(ctx context.Context, q querier, ref backend.StackRef) backend.LockInfo {
	deadline := time.Now().Add(holderWait)
	for {
		h, err := holder(ctx, q, ref)
		if h != nil {
			return *h
		}
		if err != nil || time.Now().After(deadline) {
			return backend.LockInfo{Hostname: "(unknown: the holder has not recorded itself)"}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// holder reads the row of the stack's lock, or returns nil if there is none.
func holder(ctx context.Context, q querier, ref backend.StackRef) (*backend.LockInfo, error) {
	var info backend.LockInfo
	var op string
	err := q.QueryRow(ctx, `SELECT pid, username, hostname, locked, operation FROM cairn_locks WHERE project = $1 AND stack = $2`,
		ref.Project, ref.Name).Scan(&info.Pid, &info.Username, &info.Hostname, &info.Timestamp, &op)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	info.Timestamp, info.Operation = info.Timestamp.UTC(), backend.OperationKind(op)
	return &info, nil
}

// Unlock implements backend.Backend: it removes the row of a stack's lock,
// after checking with the advisory lock that no live process holds it.
func (b *Backend) Unlock(ctx context.Context, ref backend.StackRef) (*backend.LockInfo, error) {
	ctx, cancel := b.bound(ctx)
	defer cancel()
	conn, free, err := b.tryLock(ctx, ref)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx) // which frees the advisory lock
	if !free {
		return nil, fmt.Errorf("stack %s is locked by %s, which is still connected to the database: a live lock is not broken; "+
			"wait for its operation to finish, or stop that process first", ref, b.liveHolder(ctx, conn, ref))
	}
	info, err := holder(ctx, conn, ref)
	if err == nil && info != nil {
		_, err = conn.Exec(ctx, `DELETE FROM cairn_locks WHERE project = $1 AND stack = $2`, ref.Project, ref.Name)
	}
	if err != nil {
		return nil, b.fail(err)
	}
	return info, nil
}

// Info implements backend.Lock.
func (l *stackLock) Info() backend.LockInfo { return l.info }

// Release implements backend.Lock: it removes the lock's row, frees the
// advisory lock and closes its session. (Closing alone frees the advisory
// lock only once the server has seen the session end, which a Lock of this
// process that follows at once could beat.) An unfinished operation's
// journal stays, to be recovered by the next operation.
func (l *stackLock) Release() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.released {
		return nil
	}
	l.released = true
	l.stopJournal()
	l.connMu.Lock()
	defer l.connMu.Unlock()
	ctx, cancel := l.b.bound(context.Background())
	defer cancel()
	_, err := l.conn.Exec(ctx, `DELETE FROM cairn_locks WHERE project = $1 AND stack = $2 AND token = $3`, l.ref.Project, l.ref.Name, l.token)
	if err == nil {
		_, err = l.conn.Exec(ctx, `SELECT pg_advisory_unlock($1)`, lockKey(l.ref))
	}
	broken := l.conn.IsClosed()
	l.conn.Close(ctx)
	if err != nil && !broken {
		// A broken connection has freed the lock already; its row is stale.
		return l.b.fail(fmt.Errorf("releasing the lock of stack %s: %w", l.ref, err))
	}
	return nil
}

// stopJournal stops the running operation's journal, if any.
func (l *stackLock) stopJournal() {
	if l.journal != nil {
		l.journal.Close()
		l.journal = nil
	}
}

// tx runs f in a transaction on the lock's connection, once it has checked
// that the lock's row is still this holder's.
func (l *stackLock) tx(ctx context.Context, f func(tx pgx.Tx) error) error {
	if l.released {
		return fmt.Errorf("the lock of stack %s was released", l.ref)
	}
	l.connMu.Lock()
	defer l.connMu.Unlock()
	var inner error
	err := pgx.BeginFunc(ctx, l.conn, func(tx pgx.Tx) error {
		var mine bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM cairn_locks WHERE project = $1 AND stack = $2 AND token = $3)`,
			l.ref.Project, l.ref.Name, l.token).Scan(&mine); err != nil {
			return err
		}
		if !mine {
			inner = fmt.Errorf("this process no longer holds the lock of stack %s: its row in cairn_locks was removed while the operation ran; "+
				"nothing more was written, and the operation's journal is left for the next operation to recover", l.ref)
			return inner
		}
		inner = f(tx)
		return inner
	})
	if inner != nil {
		return inner
	}
	if err != nil {
		return l.b.fail(err)
	}
	return nil
}

// exec runs one statement on the lock's connection.
func (l *stackLock) exec(ctx context.Context, sql string, args ...any) error {
	l.connMu.Lock()
	defer l.connMu.Unlock()
	if _, err := l.conn.Exec(ctx, sql, args...); err != nil {
		return l.b.fail(err)
	}
	return nil
}

// randomToken names a lock holder uniquely.
func randomToken() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}
