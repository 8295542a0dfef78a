package state_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
)

// lookalikeManager is b64Manager with a provider state shaped, once
// indented, like the placeholder Checkpoint splices resources into.
type lookalikeManager struct{ b64Manager }

func (lookalikeManager) State() json.RawMessage {
	return json.RawMessage(`{"urn": "\u0000", "custom": false, "type": ""}`)
}

// populatedSnapshot is fullSnapshot with digests, seeds, and a pending
// operation on a resource that sets every field.
func populatedSnapshot() *snapshot.Snapshot {
	snap := fullSnapshot()
	for i, r := range snap.Resources {
		r.Digest = strings.Repeat(string(rune('a'+i)), 64)
	}
	deleting := snap.Resources[3].Copy()
	deleting.Delete, deleting.External, deleting.PendingReplacement = true, true, true
	snap.PendingOperations = append(snap.PendingOperations, resource.Operation{Resource: deleting, Type: resource.OpDeleting})
	snap.Seeds = snapshot.Seeds{Key: bytes.Repeat([]byte{0xab}, 32), Generation: 7}
	return snap
}

// TestCheckpointIsMarshalIndent checks that Checkpoint and
// EncodeCheckpoint, which encode one resource at a time, write what
// json.MarshalIndent of the whole stored checkpoint writes.
func TestCheckpointIsMarshalIndent(t *testing.T) {
	full := populatedSnapshot()
	tests := []struct {
		name    string
		snap    *snapshot.Snapshot
		secrets bool // the snapshot holds secrets
	}{
		{"full", full, true},
		{"resources only", &snapshot.Snapshot{Resources: full.Resources}, true},
		{"pending operations only", &snapshot.Snapshot{PendingOperations: full.PendingOperations}, true},
		{"one resource", &snapshot.Snapshot{Resources: full.Resources[2:3]}, false},
		{"seeds only", &snapshot.Snapshot{Seeds: full.Seeds}, false},
		{"empty", &snapshot.Snapshot{}, false},
		{"nil", nil, false},
	}
	encoders := []struct {
		name    string
		enc     *state.Encoder
		secrets bool // the encoder can write secrets
	}{
		{"b64", testEncoder(false), true},
		{"plaintext", testEncoder(true), true},
		{"lookalike", state.NewEncoder(state.EncodeOptions{Secrets: lookalikeManager{}, Time: fixedTime, EngineVersion: "cairn-<test>"}), true},
		{"no secrets manager", state.NewEncoder(state.EncodeOptions{Time: fixedTime}), false},
	}
	for _, e := range encoders {
		enc := e.enc
		for _, tt := range tests {
			if tt.secrets && !e.secrets {
				continue
			}
			t.Run(e.name+"/"+tt.name, func(t *testing.T) {
				got, err := enc.Checkpoint("organization/proj/dev", tt.snap)
				if err != nil {
					t.Fatal(err)
				}
				chk := state.StoredCheckpoint{Version: state.DeploymentVersion, Checkpoint: state.CheckpointV3{Stack: "organization/proj/dev"}}
				if tt.snap != nil {
					if chk.Checkpoint.Latest, chk.Version, chk.Features, err = enc.Deployment(tt.snap); err != nil {
						t.Fatal(err)
					}
				}
				want, err := json.MarshalIndent(chk, "", "    ")
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("Checkpoint differs from json.MarshalIndent:\n%s\nwant\n%s", got, want)
				}
				if cap(got) != len(got) {
					t.Errorf("Checkpoint returned %d bytes in a slice of capacity %d, want it exactly sized", len(got), cap(got))
				}
				c, err := enc.EncodeCheckpoint("organization/proj/dev", tt.snap)
				if err != nil {
					t.Fatal(err)
				}
				for range 2 { // WriteTo writes the same each time
					var buf bytes.Buffer
					if n, err := c.WriteTo(&buf); err != nil || n != int64(len(want)) || c.Len() != len(want) {
						t.Errorf("WriteTo wrote %d bytes (%v), Len %d, want %d", n, err, c.Len(), len(want))
					}
					if !bytes.Equal(buf.Bytes(), want) {
						t.Errorf("EncodeCheckpoint wrote\n%s\nwant\n%s", buf.Bytes(), want)
					}
				}
			})
		}
	}
}

// TestPopulatedSnapshotSetsEveryField keeps TestCheckpointIsMarshalIndent
// complete: every field of the deployment it encodes is set, in at least
// one element of each list, so a field added later is compared too.
func TestPopulatedSnapshotSetsEveryField(t *testing.T) {
	d, _, _, err := state.NewEncoder(state.EncodeOptions{Secrets: lookalikeManager{}}).Deployment(populatedSnapshot())
	if err != nil {
		t.Fatal(err)
	}
	// Cairn never writes an integrity error; it only keeps Pulumi's.
	d.Metadata.IntegrityError = &state.IntegrityErrorV1{Version: "v", Command: "c", Error: "e"}
	for _, path := range unsetFields(reflect.ValueOf(d).Elem(), "deployment") {
		t.Errorf("%s is never set by populatedSnapshot; set it there", path)
	}
}

// unsetFields returns the paths of the struct fields under v that are zero
// in every element of the lists they are in.
func unsetFields(v reflect.Value, path string) []string {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return []string{path}
		}
		return unsetFields(v.Elem(), path)
	case reflect.Slice:
		if v.Len() == 0 {
			return []string{path}
		}
		if v.Type().Elem().Kind() != reflect.Struct {
			return nil
		}
		// A field is unset if it is unset in every element.
		count := map[string]int{}
		for i := range v.Len() {
			for _, p := range unsetFields(v.Index(i), path+"[]") {
				count[p]++
			}
		}
		var out []string
		for p, n := range count {
			if n == v.Len() {
				out = append(out, p)
			}
		}
		return out
	case reflect.Struct:
		if v.Type().PkgPath() != reflect.TypeFor[state.DeploymentV3]().PkgPath() {
			if v.IsZero() {
				return []string{path}
			}
			return nil // time.Time and the like
		}
		var out []string
		for i := range v.NumField() {
			out = append(out, unsetFields(v.Field(i), path+"."+v.Type().Field(i).Name)...)
		}
		return out
	}
	if v.IsZero() {
		return []string{path}
	}
	return nil
}
