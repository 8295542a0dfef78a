package backend

import (
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

func TestKeepsBase(t *testing.T) {
	old := &resource.State{URN: "urn:pulumi:dev::proj::pkg:index:Thing::a", Type: "pkg:index:Thing", Custom: true, ID: "a-1",
		Inputs: resource.Map{"n": resource.Number(1)}, Outputs: resource.Map{"n": resource.Number(1)}}
	changed := old.Copy()
	changed.Outputs = resource.Map{"n": resource.Number(2)}
	zero, one := 0, 1
	j := &JournalWriter{base: []*resource.State{old}}
	for _, c := range []struct {
		name string
		e    snapshot.JournalEntry
		want bool
	}{
		{"same state", snapshot.JournalEntry{Kind: snapshot.EntrySuccess, RemoveOld: &zero, State: old.Copy()}, true},
		{"new outputs", snapshot.JournalEntry{Kind: snapshot.EntrySuccess, RemoveOld: &zero, State: changed}, false},
		{"a begin", snapshot.JournalEntry{Kind: snapshot.EntryBegin, RemoveOld: &zero, State: old.Copy()}, false},
		{"another base resource", snapshot.JournalEntry{Kind: snapshot.EntrySuccess, RemoveOld: &one, State: old.Copy()}, false},
		{"also marks a deletion", snapshot.JournalEntry{Kind: snapshot.EntrySuccess, RemoveOld: &zero, MarkDeleteOld: &zero, State: old.Copy()}, false},
		{"a create", snapshot.JournalEntry{Kind: snapshot.EntrySuccess, State: old.Copy()}, false},
	} {
		if got := j.keepsBase(c.e); got != c.want {
			t.Errorf("%s: keepsBase = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestUnchangedEntriesAreNotWritten(t *testing.T) {
	old := &resource.State{URN: "urn:pulumi:dev::proj::pkg:index:Thing::a", Type: "pkg:index:Thing", Custom: true, ID: "a-1",
		Inputs: resource.Map{"n": resource.Number(1)}}
	changed := old.Copy()
	changed.Outputs = resource.Map{"n": resource.Number(2)}
	zero := 0
	j := &JournalWriter{base: []*resource.State{old}}
	same := snapshot.JournalEntry{Kind: snapshot.EntrySuccess, RemoveOld: &zero, State: old.Copy()}
	if !j.unchanged(same) {
		t.Error("a same step that changes nothing is written")
	}
	// Once an entry has changed the resource (here: its outputs), putting
	// it back as it was must be written, or replay would keep the change.
	if j.unchanged(snapshot.JournalEntry{Kind: snapshot.EntryOutputs, RemoveOld: &zero, State: changed}) {
		t.Error("an outputs entry counts as unchanged")
	}
	if j.unchanged(same) {
		t.Error("restoring a changed base resource is not written")
	}
}
