package state_test

import (
	"encoding/json"
	"testing"

	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// The fast path's digests live in Cairn's part of the deployment metadata,
// by URN, and in journal entries; a resource pending deletion has none.
func TestDigestsRoundTrip(t *testing.T) {
	snap := fullSnapshot()
	live := snap.Resources[2]
	live.Digest = "0123456789abcdef0123456789abcdef"
	dead := live.Copy()
	dead.Delete, dead.Digest = true, "ffff"
	snap.Resources = append(snap.Resources, dead)

	dep, _, _, err := testEncoder(false).Deployment(snap)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(dep)
	if err != nil {
		t.Fatal(err)
	}
	var back state.DeploymentV3
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if got := back.Metadata.Digests; len(got) != 1 || got[string(live.URN)] != live.Digest {
		t.Errorf("stored digests = %v", got)
	}
	got, err := state.NewDecoder(b64Manager{}).Deployment(&back)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got.Resources {
		want := ""
		if r.URN == live.URN && !r.Delete {
			want = live.Digest
		}
		if r.Digest != want {
			t.Errorf("resource #%d %s (delete %v): digest %q, want %q", i, r.URN, r.Delete, r.Digest, want)
		}
	}

	e := snapshot.JournalEntry{Kind: snapshot.EntrySuccess, Sequence: 1, OperationID: 1, State: live}
	je, err := testEncoder(false).JournalEntry(e)
	if err != nil {
		t.Fatal(err)
	}
	if data, err = json.Marshal(je); err != nil {
		t.Fatal(err)
	}
	var jback state.JournalEntryV1
	if err := json.Unmarshal(data, &jback); err != nil {
		t.Fatal(err)
	}
	ge, err := state.NewDecoder(b64Manager{}).JournalEntry(&jback, &state.SecretsProvidersV1{Type: "b64"})
	if err != nil {
		t.Fatal(err)
	}
	if ge.State.Digest != live.Digest {
		t.Errorf("journal entry digest %q, want %q", ge.State.Digest, live.Digest)
	}
}
