package backend

import (
	"context"
	"fmt"
)

// Archive is everything a backend keeps of a stack, to move it to another
// backend: its history, each operation with the state it wrote, and its
// current state.
type Archive struct {
	// Versions are the stack's operations, oldest first, each numbered by
	// its record's Version (the oldest is not 1 once the history was
	// pruned).
	Versions []ArchivedVersion
	// State is the stack's current state, a Pulumi checkpoint.
	State []byte
	Tags  Tags
}

// ArchivedVersion is one operation of a stack's history.
type ArchivedVersion struct {
	Record HistoryRecord
	// State is the checkpoint the operation wrote; nil if it was not kept.
	State []byte
}

// VersionNumbers returns the version of each of the archive's operations:
// its record's, or one past the previous where that does not increase (a
// record that Pulumi wrote without one).
func (a *Archive) VersionNumbers() []int {
	out := make([]int, len(a.Versions))
	prev := 0
	for i, v := range a.Versions {
		prev = max(v.Record.Version, prev+1)
		out[i] = prev
	}
	return out
}

// Mover is a backend that stacks can be moved out of and into.
type Mover interface {
	Backend
	// Archive returns the stack's archive, read under its lock. It refuses
	// a stack whose last operation did not finish: the next operation on it
	// recovers its journal first.
	Archive(ctx context.Context, ref StackRef) (*Archive, error)
	// Unarchive creates a stack from an archive, or fails with
	// ErrStackExists.
	Unarchive(ctx context.Context, ref StackRef, a *Archive) error
}

// Move copies a stack, with its history and every state its operations
// wrote, from one backend to another, where it must not exist yet. The
// stack is left as it is in from. It returns the number of operations
// copied.
func Move(ctx context.Context, from, to Mover, ref StackRef) (int, error) {
	a, err := from.Archive(ctx, ref)
	if err != nil {
		return 0, err
	}
	if err := to.Unarchive(ctx, ref, a); err != nil {
		return 0, fmt.Errorf("moving stack %s to %s: %w", ref, to.URL(), err)
	}
	return len(a.Versions), nil
}

// UnfinishedError is returned by Archive and RenameStack for a stack whose
// last operation did not finish.
func UnfinishedError(ref StackRef) error {
	return fmt.Errorf("the last operation on stack %s did not finish; run `cairn refresh` on it first, "+
		"which recovers its journal", ref)
}
