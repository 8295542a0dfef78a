package state_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/engine/state"
)

// FuzzParseCheckpoint loads stored checkpoints as the local backend does:
// no input panics, ParseSummary reads what ParseCheckpoint reads, and a
// checkpoint that loads is written back and loads again.
func FuzzParseCheckpoint(f *testing.F) {
	for _, name := range []string{"checkpoint-full.json", "checkpoint-plain.json", "checkpoint-empty.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"version":3,"checkpoint":{"stack":"dev"}}`))
	f.Add([]byte(`{"version":9}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		chk, err := state.ParseCheckpoint(data)
		if err != nil {
			return
		}
		sum, err := state.ParseSummary(data)
		switch {
		case err != nil:
			t.Fatalf("ParseSummary fails on a checkpoint ParseCheckpoint reads: %v", err)
		case chk.Latest == nil && sum.Resources != 0, chk.Latest != nil && sum.Resources != len(chk.Latest.Resources):
			t.Fatalf("ParseSummary counts %d resources", sum.Resources)
		}
		if chk.Latest == nil {
			return
		}
		snap, err := state.NewDecoder(b64Manager{}).Deployment(chk.Latest)
		if err != nil {
			return
		}
		again, err := testEncoder(false).Checkpoint(chk.Stack, snap)
		if err != nil {
			return // a state that loads may still be one Cairn refuses to write (an invalid one)
		}
		chk2, err := state.ParseCheckpoint(again)
		if err != nil {
			t.Fatalf("Cairn cannot read the checkpoint it wrote: %v\n%s", err, again)
		}
		if _, err := state.NewDecoder(b64Manager{}).Deployment(chk2.Latest); err != nil {
			t.Fatalf("Cairn cannot decode the checkpoint it wrote: %v\n%s", err, again)
		}
	})
}

// FuzzImportDeployment loads deployments as `cairn stack import` does: no
// input panics.
func FuzzImportDeployment(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "export-show-secrets.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{"version":3,"deployment":{"manifest":{"time":"2026-01-02T03:04:05Z","magic":"","version":""}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var u state.UntypedDeployment
		if json.Unmarshal(data, &u) != nil {
			return
		}
		d, err := state.ParseUntypedDeployment(&u)
		if err != nil {
			return
		}
		_, _ = state.NewDecoder(b64Manager{}).Deployment(d)
	})
}
