package snapshot_test

import (
	"slices"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// A pending operation of the base snapshot stays until a later step
// creates, reads, imports or deletes its resource, or a refresh finds it
// or finds it gone; an update, a failure or an unfinished step leaves it.
func TestPendingOperationsResolvedByLaterSteps(t *testing.T) {
	const pet = "random:index/randomPet:RandomPet"
	newURN := resource.URN("urn:pulumi:dev::web::" + pet + "::new")
	state := func(urn resource.URN) *resource.State {
		return &resource.State{URN: urn, Type: pet, Custom: true, ID: "id", Parent: stackURN}
	}
	base := func() *snapshot.Snapshot {
		return &snapshot.Snapshot{
			Resources: []*resource.State{{URN: stackURN, Type: resource.RootStackType}, state(petURN), state(loneURN)},
			PendingOperations: []resource.Operation{
				{Resource: state(newURN), Type: resource.OpCreating},
				{Resource: state(petURN), Type: resource.OpCreating}, // a replacement's create
				{Resource: state(loneURN), Type: resource.OpDeleting},
			},
		}
	}
	begin := func(id int64, urn resource.URN, typ resource.OperationType) snapshot.JournalEntry {
		return snapshot.JournalEntry{Kind: snapshot.EntryBegin, OperationID: id, Operation: &resource.Operation{Resource: state(urn), Type: typ}}
	}
	success := func(id int64, e snapshot.JournalEntry) snapshot.JournalEntry {
		e.Kind, e.OperationID = snapshot.EntrySuccess, id
		return e
	}
	at := func(i int) *int { return &i }
	for _, tc := range []struct {
		name    string
		entries []snapshot.JournalEntry
		pending []string // what stays, "type name"
	}{
		{"nothing", nil, []string{"creating new", "creating pet", "deleting lone"}},
		{"created again", []snapshot.JournalEntry{
			begin(1, newURN, resource.OpCreating), success(1, snapshot.JournalEntry{State: state(newURN)}),
		}, []string{"creating pet", "deleting lone"}},
		{"create unfinished", []snapshot.JournalEntry{
			begin(1, newURN, resource.OpCreating),
		}, []string{"creating new", "creating pet", "deleting lone", "creating new"}},
		{"create failed", []snapshot.JournalEntry{
			begin(1, newURN, resource.OpCreating), {Kind: snapshot.EntryFailure, OperationID: 1},
		}, []string{"creating new", "creating pet", "deleting lone"}},
		{"read", []snapshot.JournalEntry{
			begin(1, newURN, resource.OpReading), success(1, snapshot.JournalEntry{State: state(newURN)}),
		}, []string{"creating pet", "deleting lone"}},
		{"imported", []snapshot.JournalEntry{
			begin(1, newURN, resource.OpImporting), success(1, snapshot.JournalEntry{State: state(newURN)}),
		}, []string{"creating pet", "deleting lone"}},
		{"deleted", []snapshot.JournalEntry{
			begin(1, loneURN, resource.OpDeleting), success(1, snapshot.JournalEntry{RemoveOld: at(2)}),
		}, []string{"creating new", "creating pet"}},
		{"updated", []snapshot.JournalEntry{
			begin(1, petURN, resource.OpUpdating), success(1, snapshot.JournalEntry{RemoveOld: at(1), State: state(petURN)}),
		}, []string{"creating new", "creating pet", "deleting lone"}},
		{"same", []snapshot.JournalEntry{
			success(1, snapshot.JournalEntry{RemoveOld: at(1), State: state(petURN)}),
		}, []string{"creating new", "creating pet", "deleting lone"}},
		{"refreshed", []snapshot.JournalEntry{
			{Kind: snapshot.EntryRefresh, OperationID: 1, RemoveOld: at(1), State: state(petURN)},
		}, []string{"creating new", "deleting lone"}},
		{"refreshed gone", []snapshot.JournalEntry{
			{Kind: snapshot.EntryRefresh, OperationID: 1, RemoveOld: at(2)},
		}, []string{"creating new", "creating pet"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := snapshot.NewBuilder(base(), nil)
			for i, e := range tc.entries {
				e.Sequence = int64(i + 1)
				b.Apply(e)
			}
			var got []string
			for _, op := range b.Snapshot().PendingOperations {
				got = append(got, string(op.Type)+" "+op.Resource.URN.Name())
			}
			if !slices.Equal(got, tc.pending) {
				t.Errorf("pending operations = %q, want %q", got, tc.pending)
			}
		})
	}
}
