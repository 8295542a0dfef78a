package local

import (
	"os"
	"path/filepath"
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

func TestGroupWriterQueuedLineIsDurableBeforeLaterAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := newGroupWriter(f)
	if err := w.Queue([]byte("queued\n")); err != nil {
		t.Fatal(err)
	}
	if err := w.Append([]byte("appended\n")); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path) // before Close: what Append has made durable
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(data), "queued\nappended\n"; got != want {
		t.Errorf("journal = %q, want %q", got, want)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}
