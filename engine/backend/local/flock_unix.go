//go:build unix

package local

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// osLocks says that tryFlock locks: a lock file or journal that no open
// file holds locked belongs to no live process.
const osLocks = true

// tryFlock takes an exclusive flock on f without waiting; it reports false
// when another open file holds one. The OS drops the lock when f is closed
// or its process ends, however it ends.
func tryFlock(f *os.File) (bool, error) {
	err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
