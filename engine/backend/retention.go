package backend

import (
	"fmt"
	"strconv"
	"strings"
)

// RemoveOptions say how RemoveStack removes a stack.
type RemoveOptions struct {
	// Force removes a stack that still has resources or pending operations.
	Force bool
	// Purge removes the states kept of the stack as well, which
	// `cairn stack restore` could otherwise bring back. On a stack removed
	// earlier, it removes what that removal kept.
	Purge bool
}

// Removed says what RemoveStack left behind.
type Removed struct {
	// Kept counts the states of the stack that are kept, for `cairn stack
	// restore`; Where says where.
	Kept  int
	Where string
	// Purged counts the kept states that Purge removed.
	Purged int
}

// PruneOptions say what PruneHistory keeps.
type PruneOptions struct {
	// Keep is the number of newest operations to keep, with the states they
	// wrote; at least 1, so that the current state is always kept.
	Keep int
	// DryRun removes nothing: the result says what would go.
	DryRun bool
}

// Pruned says what PruneHistory removed, or with DryRun would remove.
type Pruned struct {
	// Versions are the operations whose history records went, oldest first.
	Versions []int
	// States counts the states that went: those the operations wrote and
	// those kept before them (the first state, a removed stack's).
	States int
	// Kept are the operations kept, oldest first.
	Kept []int
}

// Check refuses a Keep below 1.
func (o PruneOptions) Check() error {
	if o.Keep < 1 {
		return fmt.Errorf("keep %d operations: at least the newest is kept, with the stack's current state", o.Keep)
	}
	return nil
}

// VersionRange renders versions, oldest first, as "3", "1 to 38", or a
// list when they have gaps.
func VersionRange(versions []int) string {
	n := len(versions)
	if n > 1 && versions[n-1]-versions[0] == n-1 {
		return fmt.Sprintf("%d to %d", versions[0], versions[n-1])
	}
	return versionList(versions)
}

func versionList(versions []int) string {
	s := make([]string, len(versions))
	for i, v := range versions {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ", ")
}

// NoVersionError is Restore's error for a version of which the stack keeps
// no state; oldest is the stack's oldest operation still in its history
// (0 if none) and have the versions it keeps states of.
func NoVersionError(ref StackRef, version, oldest int, have []int) error {
	if version > 0 && version < oldest {
		return fmt.Errorf("stack %s no longer has version %d: its versions before %d were pruned (`cairn stack history prune`); "+
			"it has versions %s (see `cairn stack history`)", ref, version, oldest, versionList(have))
	}
	return fmt.Errorf("stack %s has no backup of version %d; it has versions %s (see `cairn stack history`)",
		ref, version, versionList(have))
}

// SplitHistory divides a history of n operations, numbered from first and
// oldest first, between those a prune keeping the newest keep removes and
// those it keeps; cut is how many go.
func SplitHistory(first, n, keep int) (out Pruned, cut int) {
	cut = max(n-keep, 0)
	for i := range n {
		if i < cut {
			out.Versions = append(out.Versions, first+i)
		} else {
			out.Kept = append(out.Kept, first+i)
		}
	}
	return out, cut
}
