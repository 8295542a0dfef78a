package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// fail says why a database call failed, naming the database (once): the
// cause first, as PostgreSQL or the network gave it, then the backend,
// then what to do. Errors of a statement keep their context.
func (b *Backend) fail(err error) error {
	var named *dbError
	if errors.As(err, &named) {
		return err
	}
	cause, advice := diagnose(err)
	if cause == "" {
		return &dbError{fmt.Sprintf("the PostgreSQL backend %s: %v", b.url, err), err}
	}
	return &dbError{fmt.Sprintf("%s (the PostgreSQL backend %s): %s", cause, b.url, advice), err}
}

// dbError is an error of the database that names it.
type dbError struct {
	msg string
	err error
}

func (e *dbError) Error() string { return e.msg }
func (e *dbError) Unwrap() error { return e.err }

// diagnose returns the cause of a failure that is not the statement's own
// (the server refused the connection or the session, or the network
// failed) and what to do about it; "" for the errors of a statement.
func diagnose(err error) (cause, advice string) {
	var pg *pgconn.PgError
	var timeout net.Error
	var dns *net.DNSError
	var op *net.OpError
	var connect *pgconn.ConnectError
	switch {
	case errors.As(err, &pg):
		switch pg.Code {
		case "28P01": // invalid_password
			return pg.Message, "check the user and password in the backend URL"
		case "28000": // invalid_authorization_specification: no such role, or no pg_hba.conf entry
			return pg.Message, "check the user in the backend URL, and that the server's pg_hba.conf lets it connect from this host"
		case "3D000": // invalid_catalog_name
			return pg.Message, "create the database, or name one that exists in the backend URL"
		case "53300": // too_many_connections
			return pg.Message, "close other connections to the server, or raise its max_connections"
		case "57P01", "57P02", "57P03": // shutting down, crashed, starting up
			return pg.Message, "the server is restarting or shutting down: run the command again once it is up"
		}
		if errors.As(err, &connect) {
			return fmt.Sprintf("%s (SQLSTATE %s)", pg.Message, pg.Code), "check the backend URL and the server's log"
		}
		return "", ""
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &timeout) && timeout.Timeout():
		return "the database did not answer in time", "check that it is up and reachable from this host (a network or server problem)"
	case errors.As(err, &dns) && dns.IsNotFound:
		return "the host " + dns.Name + " cannot be found", "check the host in the backend URL"
	case errors.As(err, &dns):
		return "looking up the host " + dns.Name + " failed: " + dns.Err, "check the host in the backend URL and this host's DNS settings"
	case errors.Is(err, syscall.ECONNREFUSED) && errors.As(err, &op) && op.Addr != nil:
		return "connection refused by " + op.Addr.String(), "check that the PostgreSQL server is running and listens at that host and port"
	case isConnectionError(err):
		return fmt.Sprintf("the connection to the database failed or broke (%v)", innermost(err)), "check that the database is up and reachable, then run the command again"
	}
	return "", ""
}

// isConnectionError reports whether err is a connection that could not be
// made or broke, rather than an error of the statement.
func isConnectionError(err error) bool {
	var connect *pgconn.ConnectError
	var netErr net.Error
	return errors.As(err, &connect) || errors.As(err, &netErr) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) || errors.Is(err, pgconn.ErrConnClosed) || pgconn.SafeToRetry(err)
}

// innermost is the error at the end of err's chain: the cause without the
// context each layer added.
func innermost(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}
