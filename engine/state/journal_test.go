package state_test

import (
	"encoding/json"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

func intp(i int) *int       { return &i }
func int64p(i int64) *int64 { return &i }

func TestJournalEntryRoundTrip(t *testing.T) {
	full := fullSnapshot().Resources[3]
	tests := []snapshot.JournalEntry{
		{Kind: snapshot.EntryBegin, Sequence: 1, OperationID: 7, Operation: &resource.Operation{Resource: full, Type: resource.OpCreating}},
		{Kind: snapshot.EntrySuccess, Sequence: 2, OperationID: 7, State: full, RemoveOld: intp(3), MarkDeleteOld: intp(4), PendingReplacementOld: intp(5), RemoveNew: int64p(2)},
		{Kind: snapshot.EntryFailure, Sequence: 3, OperationID: 8},
		{Kind: snapshot.EntryRefresh, Sequence: 4, OperationID: 9, RemoveOld: intp(0)},
		{Kind: snapshot.EntryOutputs, Sequence: 5, OperationID: 7, TargetNew: int64p(7), State: full},
		{Kind: snapshot.EntrySuccess, Sequence: 6, OperationID: 10, ClearPending: intp(1)},
	}
	for _, want := range tests {
		je, err := testEncoder(false).JournalEntry(want)
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(je)
		if err != nil {
			t.Fatal(err)
		}
		var back state.JournalEntryV1
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		got, err := state.NewDecoder(b64Manager{}).JournalEntry(&back, &state.SecretsProvidersV1{Type: "b64"})
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if got.Kind != want.Kind || got.Sequence != want.Sequence || got.OperationID != want.OperationID ||
			!equalIntp(got.RemoveOld, want.RemoveOld) || !equalIntp(got.MarkDeleteOld, want.MarkDeleteOld) ||
			!equalIntp(got.PendingReplacementOld, want.PendingReplacementOld) ||
			!equalInt64p(got.RemoveNew, want.RemoveNew) || !equalInt64p(got.TargetNew, want.TargetNew) ||
			!equalIntp(got.ClearPending, want.ClearPending) {
			t.Errorf("entry %s decoded as %+v, want %+v", data, got, want)
		}
		if (got.State == nil) != (want.State == nil) || want.State != nil && diffStates(got.State, want.State) != "" {
			t.Errorf("entry %d: state changed: %s", want.Sequence, diffStates(got.State, want.State))
		}
		if (got.Operation == nil) != (want.Operation == nil) ||
			want.Operation != nil && (got.Operation.Type != want.Operation.Type || diffStates(got.Operation.Resource, want.Operation.Resource) != "") {
			t.Errorf("entry %d: operation changed: %+v", want.Sequence, got.Operation)
		}
	}
	if _, err := state.NewDecoder(nil).JournalEntry(&state.JournalEntryV1{Kind: "explode"}, nil); err == nil {
		t.Error("an entry of unknown kind decoded")
	}
}

func TestReplay(t *testing.T) {
	a := &resource.State{URN: urn("pkg:index:T", "a"), Type: "pkg:index:T", Inputs: resource.Map{}, Outputs: resource.Map{}}
	b := &resource.State{URN: urn("pkg:index:T", "b"), Type: "pkg:index:T", Inputs: resource.Map{}, Outputs: resource.Map{}}
	c := &resource.State{URN: urn("pkg:index:T", "c"), Type: "pkg:index:T", Inputs: resource.Map{}, Outputs: resource.Map{}}
	base := &snapshot.Snapshot{
		Resources: []*resource.State{a},
		PendingOperations: []resource.Operation{
			{Resource: c, Type: resource.OpCreating}, // kept until a refresh resolves it
			{Resource: a, Type: resource.OpDeleting}, // resolved by the next operation
		},
	}
	// Given out of order: b was created, a's delete began and never ended.
	entries := []snapshot.JournalEntry{
		{Kind: snapshot.EntryBegin, Sequence: 3, OperationID: 2, Operation: &resource.Operation{Resource: a, Type: resource.OpDeleting}},
		{Kind: snapshot.EntrySuccess, Sequence: 2, OperationID: 1, State: b},
		{Kind: snapshot.EntryBegin, Sequence: 1, OperationID: 1, Operation: &resource.Operation{Resource: b, Type: resource.OpCreating}},
	}
	got := state.Replay(base, entries)
	var urns []string
	for _, r := range got.Resources {
		urns = append(urns, r.URN.Name())
	}
	if len(urns) != 2 || urns[0] != "b" || urns[1] != "a" {
		t.Errorf("resources = %v, want [b a]", urns)
	}
	var pending []string
	for _, op := range got.PendingOperations {
		pending = append(pending, string(op.Type)+" "+op.Resource.URN.Name())
	}
	if len(pending) != 2 || pending[0] != "creating c" || pending[1] != "deleting a" {
		t.Errorf("pending = %v, want [creating c, deleting a]", pending)
	}
}

// A journal replayed after a crash resolves the base's pending creates as
// the operation itself did: by creating the resource again, or by clearing
// the create (refresh --clear-pending-creates).
func TestReplayResolvesPendingCreates(t *testing.T) {
	thing := func(name string) *resource.State {
		return &resource.State{URN: urn("pkg:index:T", name), Type: "pkg:index:T", Inputs: resource.Map{}, Outputs: resource.Map{}}
	}
	base := &snapshot.Snapshot{PendingOperations: []resource.Operation{
		{Resource: thing("made"), Type: resource.OpCreating},
		{Resource: thing("cleared"), Type: resource.OpCreating},
		{Resource: thing("left"), Type: resource.OpCreating},
	}}
	entries := []snapshot.JournalEntry{
		{Kind: snapshot.EntryBegin, Sequence: 1, OperationID: 1, Operation: &resource.Operation{Resource: thing("made"), Type: resource.OpCreating}},
		{Kind: snapshot.EntrySuccess, Sequence: 2, OperationID: 1, State: thing("made")},
		{Kind: snapshot.EntrySuccess, Sequence: 3, OperationID: 2, ClearPending: intp(1)},
	}
	var lines []state.JournalEntryV1
	for _, e := range entries {
		je, err := testEncoder(false).JournalEntry(e)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, *je)
	}
	var decoded []snapshot.JournalEntry
	for i := range lines {
		e, err := state.NewDecoder(b64Manager{}).JournalEntry(&lines[i], &state.SecretsProvidersV1{Type: "b64"})
		if err != nil {
			t.Fatal(err)
		}
		decoded = append(decoded, e)
	}
	got := state.Replay(base, decoded)
	if len(got.PendingOperations) != 1 || got.PendingOperations[0].Resource.URN.Name() != "left" {
		t.Errorf("pending operations after replay = %+v, want only the create of left", got.PendingOperations)
	}
	if got.Find(urn("pkg:index:T", "made")) == nil {
		t.Errorf("made is not in the replayed state")
	}
}

func equalIntp(a, b *int) bool     { return a == nil && b == nil || a != nil && b != nil && *a == *b }
func equalInt64p(a, b *int64) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }
