//go:build !linux

package postgres

import (
	"syscall"
	"time"
)

// userTimeout is a no-op where TCP_USER_TIMEOUT does not exist; keepalives
// still find a dead server.
func userTimeout(time.Duration) func(network, address string, c syscall.RawConn) error {
	return nil
}
