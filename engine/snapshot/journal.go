package snapshot

import "github.com/cairn-iac/cairn/engine/resource"

// EntryKind is the kind of a journal entry.
type EntryKind int

// The kinds of journal entries.
const (
	// EntryBegin records that an operation is about to call a provider; until
	// its end entry it is a pending operation.
	EntryBegin EntryKind = iota
	// EntrySuccess records a finished step and its effect on the snapshot.
	EntrySuccess
	// EntryFailure records a step that failed without changing the snapshot.
	EntryFailure
	// EntryRefresh replaces (or, with no state, removes) a base resource in
	// place, as a refresh does.
	EntryRefresh
	// EntryOutputs replaces the state of a resource added earlier in this
	// journal, in place (RegisterResourceOutputs).
	EntryOutputs
	// EntrySeeds records the stack's seed key and generation.
	EntrySeeds
)

var entryKindNames = [...]string{"begin", "success", "failure", "refresh", "outputs", "seeds"}

func (k EntryKind) String() string { return entryKindNames[k] }

// JournalEntry is one record of what a deployment did. Resources of the base
// snapshot are named by their index in it; resources added by this journal by
// the operation ID of the entry that added them.
type JournalEntry struct {
	Kind        EntryKind
	Sequence    int64 // assigned by the journal, increasing
	OperationID int64 // shared by a step's begin and end entries

	// Operation is the pending operation a begin entry opens.
	Operation *resource.Operation

	// State is the resource state a success entry adds, or the replacement
	// state of a refresh or outputs entry.
	State *resource.State

	// Seeds is the seed state a seeds entry records.
	Seeds *Seeds

	RemoveOld             *int   // base resource this entry makes obsolete
	RemoveNew             *int64 // added resource this entry makes obsolete
	MarkDeleteOld         *int   // base resource to mark pending deletion
	PendingReplacementOld *int   // base resource to mark deleted-before-replace
	TargetNew             *int64 // for outputs entries: the added resource replaced in place
	ClearPending          *int   // pending operation of the base snapshot this entry resolves
}

// Journal persists a deployment's entries. Append returns once the entry is
// durable; it may be called from many goroutines, and entries must be replayed
// in Sequence order.
type Journal interface {
	Append(e JournalEntry) error
}
