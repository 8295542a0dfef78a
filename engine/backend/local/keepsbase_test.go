package local

import (
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
)

func TestKeepsBase(t *testing.T) {
	old := &resource.State{URN: "urn:pulumi:dev::proj::pkg:index:Thing::a", Type: "pkg:index:Thing", Custom: true, ID: "a-1",
		Inputs: resource.Map{"n": resource.Number(1)}, Outputs: resource.Map{"n": resource.Number(1)}}
	changed := old.Copy()
	changed.Outputs = resource.Map{"n": resource.Number(2)}
	zero, one := 0, 1
	j := &journal{base: []*resource.State{old}}
	for _, c := range []struct {
		name string
		e    deploy.JournalEntry
		want bool
	}{
		{"same state", deploy.JournalEntry{Kind: deploy.EntrySuccess, RemoveOld: &zero, State: old.Copy()}, true},
		{"new outputs", deploy.JournalEntry{Kind: deploy.EntrySuccess, RemoveOld: &zero, State: changed}, false},
		{"a begin", deploy.JournalEntry{Kind: deploy.EntryBegin, RemoveOld: &zero, State: old.Copy()}, false},
		{"another base resource", deploy.JournalEntry{Kind: deploy.EntrySuccess, RemoveOld: &one, State: old.Copy()}, false},
		{"also marks a deletion", deploy.JournalEntry{Kind: deploy.EntrySuccess, RemoveOld: &zero, MarkDeleteOld: &zero, State: old.Copy()}, false},
		{"a create", deploy.JournalEntry{Kind: deploy.EntrySuccess, State: old.Copy()}, false},
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
	j := &journal{base: []*resource.State{old}}
	same := deploy.JournalEntry{Kind: deploy.EntrySuccess, RemoveOld: &zero, State: old.Copy()}
	if !j.unchanged(same) {
		t.Error("a same step that changes nothing is written")
	}
	// Once an entry has changed the resource (here: its outputs), putting
	// it back as it was must be written, or replay would keep the change.
	if j.unchanged(deploy.JournalEntry{Kind: deploy.EntryOutputs, RemoveOld: &zero, State: changed}) {
		t.Error("an outputs entry counts as unchanged")
	}
	if j.unchanged(same) {
		t.Error("restoring a changed base resource is not written")
	}
}
