//go:build unix

package local

import (
	"errors"
	"syscall"
)

// processExists reports whether a process with the pid runs on this host.
func processExists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
