package postgres

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/user"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/cairn-iac/cairn/engine/backend"
)

// Options configure a PostgreSQL backend.
type Options struct {
	backend.Options
	// Hostname is what locks record as the holder's host; empty means the
	// machine's host name.
	Hostname string
	// Timeout bounds each call of the backend (each statement of a
	// journal): a database that does not answer in time is an error, never
	// a hang. Zero means one minute.
	Timeout time.Duration
}

// Timeouts bound how long the backend waits for the database: to connect
// (unless the URL sets connect_timeout), for an unacknowledged write on a
// connection that went silent, and for a call (unless Options.Timeout).
const (
	connectTimeout = 10 * time.Second
	networkTimeout = 30 * time.Second
	callTimeout    = time.Minute
)

// Backend keeps stacks in a PostgreSQL database.
type Backend struct {
	url    string // the URL, password masked
	config *pgx.ConnConfig
	pool   *pgxpool.Pool
	opts   Options
	user   string
}

var _ backend.Backend = (*Backend)(nil)

// IsURL reports whether a backend URL names a PostgreSQL database.
func IsURL(rawURL string) bool {
	return strings.HasPrefix(rawURL, "postgres://") || strings.HasPrefix(rawURL, "postgresql://")
}

// Open connects to the database of a postgres:// URL, creating or migrating
// Cairn's tables.
func Open(ctx context.Context, rawURL string, opts Options) (*Backend, error) {
	if opts.Timeout == 0 {
		opts.Timeout = callTimeout
	}
	b := &Backend{opts: opts}
	b.url, _ = redact(rawURL)
	ctx, cancel := b.bound(ctx)
	defer cancel()
	config, err := pgx.ParseConfig(rawURL)
	if err != nil {
		return nil, fmt.Errorf("backend URL %s: %w", b.url, maskErr(err, rawURL))
	}
	if config.ConnectTimeout == 0 {
		config.ConnectTimeout = connectTimeout
	}
	config.DialFunc = (&net.Dialer{KeepAlive: 10 * time.Second, Control: userTimeout(networkTimeout)}).DialContext
	b.config = config
	pc, err := pgxpool.ParseConfig("")
	if err != nil {
		return nil, err
	}
	pc.ConnConfig, pc.MaxConns = config.Copy(), 4
	if b.pool, err = pgxpool.NewWithConfig(ctx, pc); err != nil {
		return nil, b.fail(err)
	}
	conn, err := b.connect(ctx)
	if err != nil {
		b.pool.Close()
		return nil, err
	}
	defer conn.Close(ctx)
	if err := migrate(ctx, conn); err != nil {
		b.pool.Close()
		return nil, b.fail(err)
	}
	if b.opts.Hostname == "" {
		if b.opts.Hostname, err = os.Hostname(); err != nil {
			return nil, fmt.Errorf("reading the host name, which stack locks record: %w", err)
		}
	}
	b.user = os.Getenv("USER")
	if u, err := user.Current(); err == nil {
		b.user = u.Username
	}
	return b, nil
}

// Close closes the backend's connections.
func (b *Backend) Close() { b.pool.Close() }

// URL implements backend.Backend; the password is masked.
func (b *Backend) URL() string { return b.url }

// bound limits a call to the backend's timeout.
func (b *Backend) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, b.opts.Timeout)
}

// connect opens a connection of its own, for a lock's session.
func (b *Backend) connect(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, b.config.Copy())
	if err != nil {
		return nil, b.fail(err)
	}
	return conn, nil
}
