//go:build unix

package install

import (
	"os"

	"golang.org/x/sys/unix"
)

// flock waits for an exclusive lock on f; closing f releases it.
func flock(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			return err
		}
	}
}
