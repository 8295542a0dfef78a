package state_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with the file testdata/name, or rewrites the file
// with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./engine/state -update` to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what was written (run with -update if the change is intended)\ngot:\n%s", path, got)
	}
}

func testEncoder(showSecrets bool) *state.Encoder {
	return state.NewEncoder(state.EncodeOptions{Secrets: b64Manager{}, ShowSecrets: showSecrets, Time: fixedTime, EngineVersion: "cairn-test"})
}

func TestCheckpointGolden(t *testing.T) {
	tests := []struct {
		file        string
		snap        *snapshot.Snapshot
		wantVersion int
	}{
		{"checkpoint-full.json", fullSnapshot(), 4},
		{"checkpoint-plain.json", &snapshot.Snapshot{Resources: fullSnapshot().Resources[:3]}, 3},
		{"checkpoint-empty.json", nil, 3},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			if err := tt.snap.VerifyIntegrity(); err != nil {
				t.Fatalf("the fixture is not a valid snapshot: %v", err)
			}
			data, err := testEncoder(false).Checkpoint("organization/proj/dev", tt.snap)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tt.file, append(data, '\n'))

			var vc state.VersionedCheckpoint
			if err := json.Unmarshal(data, &vc); err != nil {
				t.Fatal(err)
			}
			if vc.Version != tt.wantVersion {
				t.Errorf("version = %d, want %d (features %v)", vc.Version, tt.wantVersion, vc.Features)
			}
			chk, err := state.ParseCheckpoint(data)
			if err != nil {
				t.Fatal(err)
			}
			if chk.Stack != "organization/proj/dev" {
				t.Errorf("stack = %q", chk.Stack)
			}
			if tt.snap == nil {
				if chk.Latest != nil {
					t.Errorf("an empty stack's checkpoint has a deployment: %+v", chk.Latest)
				}
				return
			}
			got, err := state.NewDecoder(b64Manager{}).Deployment(chk.Latest)
			if err != nil {
				t.Fatal(err)
			}
			if d := diffSnapshots(got, tt.snap); d != "" {
				t.Errorf("snapshot → checkpoint → snapshot changed it: %s", d)
			}
		})
	}
}

func TestCheckpointFeatures(t *testing.T) {
	data, err := testEncoder(false).Checkpoint("organization/proj/dev", fullSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	var vc state.VersionedCheckpoint
	if err := json.Unmarshal(data, &vc); err != nil {
		t.Fatal(err)
	}
	want := []string{"byteString", "refreshBeforeUpdate", "replaceWith", "taint"}
	if !slices.Equal(vc.Features, want) {
		t.Errorf("features = %v, want %v", vc.Features, want)
	}
}

func TestExportShowSecretsGolden(t *testing.T) {
	u, err := testEncoder(true).UntypedDeployment(fullSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.MarshalIndent(u, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "export-show-secrets.json", append(data, '\n'))

	// Plaintext secrets read back without any secrets manager.
	d, err := state.ParseUntypedDeployment(u)
	if err != nil {
		t.Fatal(err)
	}
	got, err := state.NewDecoder(nil).Deployment(d)
	if err != nil {
		t.Fatal(err)
	}
	if diff := diffSnapshots(got, fullSnapshot()); diff != "" {
		t.Errorf("export --show-secrets → import changed the snapshot: %s", diff)
	}
}
