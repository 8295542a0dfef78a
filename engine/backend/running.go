package backend

import (
	"fmt"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/engine/snapshot"
)

// Running is what every backend keeps of a running operation: it answers
// Operation's Base and Journal, and does the part of Finish that does not
// depend on where the state is stored.
type Running struct {
	ref     StackRef
	info    OperationInfo
	started time.Time
	base    *snapshot.Snapshot
	journal *JournalWriter

	mu       sync.Mutex
	finished bool
}

// NewRunning returns the running operation of info on stack ref, started
// at started from base, journaled by journal.
func NewRunning(ref StackRef, info OperationInfo, started time.Time, base *snapshot.Snapshot, journal *JournalWriter) *Running {
	return &Running{ref: ref, info: info, started: started, base: base, journal: journal}
}

// Base implements Operation.
func (r *Running) Base() *snapshot.Snapshot { return r.base }

// Journal implements Operation.
func (r *Running) Journal() snapshot.Journal { return r.journal }

// Finishing marks the operation finished, which it may be once, and closes
// its journal. journalErr is the journal's failure, if it had one: it has
// already failed the engine's appends, and the engine's snapshot is still
// the truth to write.
func (r *Running) Finishing() (journalErr, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.finished {
		return nil, fmt.Errorf("the %s of stack %s has already finished", r.info.Kind, r.ref)
	}
	r.finished = true
	return r.journal.Close(), nil
}

// Final returns the snapshot to write: snap, or, when the engine has none,
// the base with the stored journal (which read returns) replayed.
func (r *Running) Final(snap *snapshot.Snapshot, read func() (*Journal, error)) (*snapshot.Snapshot, error) {
	if snap != nil {
		return snap, nil
	}
	j, err := read()
	if err == nil && j == nil {
		err = fmt.Errorf("the journal of the %s of stack %s is gone, so its state cannot be rebuilt", r.info.Kind, r.ref)
	}
	if err != nil {
		return nil, err
	}
	return j.Replay(r.base, r.info.Secrets)
}

// Record is the operation's history record, ending now.
func (r *Running) Record(sum Summary) HistoryRecord { return NewRecord(r.info, r.started, sum) }

// Info is what the operation is.
func (r *Running) Info() OperationInfo { return r.info }
