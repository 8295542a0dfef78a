package backend

import (
	"fmt"
	"time"
)

// LockInfo says who holds a stack's lock. Its JSON form is Pulumi's
// DIY lock file.
type LockInfo struct {
	Pid       int       `json:"pid"`
	Username  string    `json:"username"`
	Hostname  string    `json:"hostname"`
	Timestamp time.Time `json:"timestamp"`
	// Operation is the kind of operation the holder runs, if a backend
	// records it.
	Operation OperationKind `json:"operation,omitempty"`
}

func (l LockInfo) String() string {
	s := fmt.Sprintf("pid %d on host %s (user %s) since %s", l.Pid, l.Hostname, l.Username, l.Timestamp.Format(time.RFC3339))
	if l.Operation != "" {
		s += ", operation " + string(l.Operation)
	}
	return s
}

// LockedError is returned when another process holds a stack's lock.
type LockedError struct {
	Stack  StackRef
	Holder LockInfo
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("stack %s is locked by %s: another operation is running on it; "+
		"wait for it to finish, or if that process is gone, run `cairn stack unlock`", e.Stack, e.Holder)
}

// LiveLockError is Unlock's refusal to break a lock that a live process
// holds.
func LiveLockError(ref StackRef, holder LockInfo) error {
	return fmt.Errorf("stack %s is locked by %s, which is still running: a live lock is not broken; "+
		"wait for its operation to finish, or stop that process first", ref, holder)
}
