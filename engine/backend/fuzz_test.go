package backend

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// FuzzJournalReplay reads journals and replays them over a state of two
// resources, as loading a stack after a crash does: no input panics.
func FuzzJournalReplay(f *testing.F) {
	sm, err := secrets.GeneratePassphraseManager("fuzz")
	if err != nil {
		f.Fatal(err)
	}
	root := &resource.State{URN: resource.NewURN("dev", "proj", "", resource.RootStackType, "proj-dev"), Type: resource.RootStackType}
	thing := &resource.State{URN: resource.NewURN("dev", "proj", "", "kv:index:Item", "a"), Type: "kv:index:Item", Custom: true,
		ID: "a", Parent: root.URN, Inputs: resource.Map{"pw": resource.MakeSecret(resource.String("x"))}}
	base := &snapshot.Snapshot{Resources: []*resource.State{root, thing}}
	if err := base.VerifyIntegrity(); err != nil {
		f.Fatal(err)
	}
	enc := state.NewEncoder(state.EncodeOptions{Secrets: sm})
	created := &resource.State{URN: resource.NewURN("dev", "proj", "", "kv:index:Item", "b"), Type: "kv:index:Item", Custom: true,
		ID: "b", Parent: root.URN, Inputs: resource.Map{"v": resource.Number(1)}}
	zero, one := 0, 1
	lines := []JournalLine{{Header: &JournalHeader{Version: JournalVersion, Kind: KindUpdate,
		Started: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), SecretsProviders: &state.SecretsProvidersV1{Type: sm.Type(), State: sm.State()}}}}
	for _, e := range []snapshot.JournalEntry{
		{Kind: snapshot.EntryBegin, Sequence: 1, OperationID: 1, Operation: &resource.Operation{Resource: created, Type: resource.OpCreating}},
		{Kind: snapshot.EntrySuccess, Sequence: 2, OperationID: 1, State: created},
		{Kind: snapshot.EntryBegin, Sequence: 3, OperationID: 2, Operation: &resource.Operation{Resource: thing, Type: resource.OpUpdating}},
		{Kind: snapshot.EntrySuccess, Sequence: 4, OperationID: 2, State: thing, RemoveOld: &one},
		{Kind: snapshot.EntryRefresh, Sequence: 5, OperationID: 3, RemoveOld: &zero},
	} {
		je, err := enc.JournalEntry(e)
		if err != nil {
			f.Fatal(err)
		}
		lines = append(lines, JournalLine{Entry: je})
	}
	var seed []byte
	for i, l := range lines {
		data, err := json.Marshal(l)
		if err != nil {
			f.Fatal(err)
		}
		seed = append(seed, data...)
		seed = append(seed, '\n')
		if i == 2 {
			f.Add(seed) // a journal cut after the first create
		}
	}
	f.Add(seed)
	f.Add(append(append([]byte(nil), seed...), `{"compacted":"abc"}`+"\n"...))
	f.Fuzz(func(t *testing.T, data []byte) {
		j, err := ParseJournal("fuzz", data)
		if err != nil {
			return
		}
		_, _ = j.Replay(base, sm)
	})
}
