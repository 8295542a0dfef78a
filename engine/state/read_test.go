package state_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// twoSteps reads a stored checkpoint with ParseCheckpoint then Deployment.
func twoSteps(data []byte) (*snapshot.Snapshot, error) {
	chk, err := state.ParseCheckpoint(data)
	if err != nil {
		return nil, err
	}
	if chk.Latest == nil {
		return &snapshot.Snapshot{}, nil
	}
	return state.NewDecoder(b64Manager{}).Deployment(chk.Latest)
}

// sameSnapshots fails unless got and want hold the same resources, pending
// operations and seeds.
func sameSnapshots(t *testing.T, got, want *snapshot.Snapshot) {
	t.Helper()
	if d := diffSnapshots(got, want); d != "" {
		t.Fatal(d)
	}
	if !reflect.DeepEqual(got.Seeds, want.Seeds) {
		t.Fatalf("seeds %+v, want %+v", got.Seeds, want.Seeds)
	}
}

// TestCheckpointReadsInOnePass: the checkpoints Cairn writes, with a value
// of every kind, secrets, pending operations, seeds and digests, are read
// by the one-pass reader into what ParseCheckpoint then Deployment give.
func TestCheckpointReadsInOnePass(t *testing.T) {
	for _, name := range []string{"checkpoint-full.json", "checkpoint-plain.json", "checkpoint-empty.json"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			want, err := twoSteps(data)
			if err != nil {
				t.Fatal(err)
			}
			got, err := state.NewDecoder(b64Manager{}).ReadInOnePass(data)
			if err != nil {
				t.Fatalf("the one-pass reader did not read it: %v", err)
			}
			sameSnapshots(t, got, want)
		})
	}
	snap := fullSnapshot()
	for i, r := range snap.Resources {
		r.Digest = strings.Repeat("ab", 16) + string(rune('a'+i))
	}
	data, err := testEncoder(false).Checkpoint("organization/proj/dev", snap)
	if err != nil {
		t.Fatal(err)
	}
	got, err := state.NewDecoder(b64Manager{}).ReadInOnePass(data)
	if err != nil {
		t.Fatal(err)
	}
	want, err := twoSteps(data)
	if err != nil {
		t.Fatal(err)
	}
	sameSnapshots(t, got, want)
	if got.Resources[3].Digest == "" {
		t.Fatal("the digests were not read")
	}
}

// TestCheckpointReadsOtherShapes: escaped names, names in another case and
// invalid UTF-8 are read in one pass as encoding/json reads them; what the
// one-pass reader leaves to the two steps (members it does not know) is
// read by them.
func TestCheckpointReadsOtherShapes(t *testing.T) {
	full, err := os.ReadFile(filepath.Join("testdata", "checkpoint-full.json"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, from, to string
		onePass        bool
	}{
		{"escaped member name", `"protect": true`, `"prot\u0065ct": true`, true},
		{"escaped property name", `"acl": "private"`, `"a\u0063l": "private", "\u00e9\n": 1`, true},
		{"property name not UTF-8", `"acl": "private"`, "\"acl\xff\": \"priv\xfeate\"", true},
		{"secret first in an array", `"array": [`, `"array": [{"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "value": 1},`, true},
		{"unknown resource member", `"custom": true,`, `"custom": true, "viewOf": "x",`, false},
		{"member name in another case", `"type": "aws:s3/bucket:Bucket",`, `"Type": "aws:s3/bucket:Bucket",`, true},
		{"unknown deployment member", `"metadata": {`, `"hooks": {}, "metadata": {`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(strings.Replace(string(full), tt.from, tt.to, 1))
			if string(data) == string(full) {
				t.Fatalf("%q is not in the fixture", tt.from)
			}
			want, err := twoSteps(data)
			if err != nil {
				t.Fatal(err)
			}
			got, err := state.NewDecoder(b64Manager{}).Checkpoint(data)
			if err != nil {
				t.Fatal(err)
			}
			sameSnapshots(t, got, want)
			if tt.onePass {
				if got, err = state.NewDecoder(b64Manager{}).ReadInOnePass(data); err != nil {
					t.Fatalf("the one-pass reader did not read it: %v", err)
				}
				sameSnapshots(t, got, want)
			}
		})
	}
}

// TestCheckpointErrorsAreTheTwoStepOnes: a checkpoint that does not read
// fails with the error ParseCheckpoint (as an UnreadableError) or
// Deployment gives.
func TestCheckpointErrorsAreTheTwoStepOnes(t *testing.T) {
	for _, data := range []string{
		`{"version":9,"checkpoint":{}}`,
		`{"version":3,"checkpoint":{"latest":{"manifest":{"magic":"x"}}}}`,
		`{"version":3,"checkpoint":{"latest":{"resources":[{"urn":"","type":"t"}]}}}`,
		`{"version":3,"checkpoint":{"latest":{"resources":[{"urn":"u","type":"t","inputs":{"a":{"4dabf18193072939515e22adb298388d":"nope"}}}]}}}`,
		`{"version":3} trailing`,
		`not json`,
	} {
		_, want := twoSteps([]byte(data))
		_, got := state.NewDecoder(b64Manager{}).Checkpoint([]byte(data))
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("%s: error %v, want %v", data, got, want)
		}
		_, perr := state.ParseCheckpoint([]byte(data))
		ue := (*state.UnreadableError)(nil)
		if unreadable := errors.As(got, &ue); unreadable != (perr != nil) {
			t.Errorf("%s: %v is an UnreadableError: %v, want %v", data, got, unreadable, perr != nil)
		}
	}
}

// FuzzCheckpoint: whatever the input, Checkpoint reads what ParseCheckpoint
// then Deployment read, or fails as they do.
func FuzzCheckpoint(f *testing.F) {
	for _, name := range []string{"checkpoint-full.json", "checkpoint-plain.json", "checkpoint-empty.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, werr := twoSteps(data)
		got, gerr := state.NewDecoder(b64Manager{}).Checkpoint(data)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("error %v, want %v", gerr, werr)
		}
		if werr == nil {
			sameSnapshots(t, got, want)
		}
	})
}
