package state

import (
	"fmt"
	"sort"

	"github.com/cairn-iac/cairn/engine/snapshot"
)

// JournalEntryV1 is the stored form of a snapshot.JournalEntry: one record of
// a step beginning or ending. Base resources are named by their index in the
// snapshot the operation started from, resources the operation added by the
// operation ID of the entry that added them.
type JournalEntryV1 struct {
	Kind                  string       `json:"kind"`
	Sequence              int64        `json:"sequenceID"`
	OperationID           int64        `json:"operationID"`
	RemoveOld             *int         `json:"removeOld,omitempty"`
	RemoveNew             *int64       `json:"removeNew,omitempty"`
	DeleteOld             *int         `json:"deleteOld,omitempty"`
	PendingReplacementOld *int         `json:"pendingReplacementOld,omitempty"`
	TargetNew             *int64       `json:"targetNew,omitempty"`
	ClearPending          *int         `json:"clearPending,omitempty"`
	State                 *ResourceV3  `json:"state,omitempty"`
	Digest                string       `json:"cairn_digest,omitempty"` // the state's resource.State.Digest
	Operation             *OperationV2 `json:"operation,omitempty"`
	Seeds                 *SeedsV1     `json:"seeds,omitempty"`
}

// entryKinds are the kinds of journal entries, found by their stored names.
var entryKinds = []snapshot.EntryKind{snapshot.EntryBegin, snapshot.EntrySuccess, snapshot.EntryFailure, snapshot.EntryRefresh, snapshot.EntryOutputs, snapshot.EntrySeeds}

func parseEntryKind(name string) (snapshot.EntryKind, bool) {
	for _, k := range entryKinds {
		if k.String() == name {
			return k, true
		}
	}
	return 0, false
}

// JournalEntry encodes a journal entry; its states are encoded as in a
// checkpoint, secrets encrypted.
func (e *Encoder) JournalEntry(je snapshot.JournalEntry) (*JournalEntryV1, error) {
	out := &JournalEntryV1{
		Kind:                  je.Kind.String(),
		Sequence:              je.Sequence,
		OperationID:           je.OperationID,
		RemoveOld:             je.RemoveOld,
		RemoveNew:             je.RemoveNew,
		DeleteOld:             je.MarkDeleteOld,
		PendingReplacementOld: je.PendingReplacementOld,
		TargetNew:             je.TargetNew,
		ClearPending:          je.ClearPending,
	}
	var err error
	if je.State != nil {
		if out.State, err = e.Resource(je.State); err != nil {
			return nil, err
		}
		out.Digest = je.State.Digest
	}
	if je.Operation != nil {
		if out.Operation, err = e.Operation(*je.Operation); err != nil {
			return nil, err
		}
	}
	if je.Seeds != nil {
		if out.Seeds, err = encodeSeeds(*je.Seeds, e.values(), e.opts.Secrets); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// JournalEntry decodes a journal entry whose secrets were encrypted by the
// secrets provider sp (nil: d's manager).
func (d *Decoder) JournalEntry(je *JournalEntryV1, sp *SecretsProvidersV1) (snapshot.JournalEntry, error) {
	kind, ok := parseEntryKind(je.Kind)
	if !ok {
		return snapshot.JournalEntry{}, fmt.Errorf("journal entry %d has unknown kind %q", je.Sequence, je.Kind)
	}
	out := snapshot.JournalEntry{
		Kind:                  kind,
		Sequence:              je.Sequence,
		OperationID:           je.OperationID,
		RemoveOld:             je.RemoveOld,
		RemoveNew:             je.RemoveNew,
		MarkDeleteOld:         je.DeleteOld,
		PendingReplacementOld: je.PendingReplacementOld,
		TargetNew:             je.TargetNew,
		ClearPending:          je.ClearPending,
	}
	var err error
	if je.State != nil {
		if out.State, err = d.Resource(je.State, sp); err != nil {
			return snapshot.JournalEntry{}, fmt.Errorf("journal entry %d: %w", je.Sequence, err)
		}
		out.State.Digest = je.Digest
	}
	if je.Operation != nil {
		op, err := d.Operation(je.Operation, sp)
		if err != nil {
			return snapshot.JournalEntry{}, fmt.Errorf("journal entry %d: %w", je.Sequence, err)
		}
		out.Operation = &op
	}
	if je.Seeds != nil {
		seeds := decodeSeeds(je.Seeds, sp)
		out.Seeds = &seeds
	}
	return out, nil
}

// Replay applies journal entries, in sequence order whatever order they are
// given in, to the snapshot the operation started from, and returns the
// snapshot they lead to. Completed steps are kept; steps that began and did
// not end become pending operations; of the base's pending operations only
// the creates are kept, as after any operation, and only until a step
// creates, finds or deletes their resource.
func Replay(base *snapshot.Snapshot, entries []snapshot.JournalEntry) *snapshot.Snapshot {
	sorted := append([]snapshot.JournalEntry(nil), entries...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Sequence < sorted[j].Sequence })
	b := snapshot.NewBuilder(base, snapshot.KeepPendingCreates)
	for _, e := range sorted {
		b.Apply(e)
	}
	return b.Snapshot()
}
