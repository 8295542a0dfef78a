package state_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/state"
)

func TestReadVersionsAndFeatures(t *testing.T) {
	const deployment = `{"manifest":{"time":"2024-01-01T00:00:00Z","magic":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","version":""}}`
	tests := []struct {
		version  int
		features []string
		want     string // "" for success, else part of the error
	}{
		{3, nil, ""},
		{3, []string{"views"}, ""}, // features are only looked at from version 4
		{4, nil, ""},
		{4, []string{"taint", "refreshBeforeUpdate", "replaceWith", "byteString"}, ""},
		{4, []string{"taint", "views", "hooks"}, "needs support for the following features: views, hooks"},
		{4, []string{"snippets-prototype"}, "snippets-prototype"},
		{5, nil, "newer than Cairn reads"},
		{2, nil, "older than Cairn reads"},
	}
	for _, tt := range tests {
		u := &state.UntypedDeployment{Version: tt.version, Features: tt.features, Deployment: json.RawMessage(deployment)}
		_, err := state.ParseUntypedDeployment(u)
		chk, _ := json.Marshal(state.CheckpointV3{Stack: "s"})
		data, _ := json.Marshal(state.VersionedCheckpoint{Version: tt.version, Features: tt.features, Checkpoint: chk})
		_, cerr := state.ParseCheckpoint(data)
		for _, got := range []error{err, cerr} {
			switch {
			case tt.want == "" && got != nil:
				t.Errorf("version %d features %v: %v", tt.version, tt.features, got)
			case tt.want != "" && (got == nil || !strings.Contains(got.Error(), tt.want)):
				t.Errorf("version %d features %v: got %v, want an error containing %q", tt.version, tt.features, got, tt.want)
			}
		}
	}
	var unsupported *state.UnsupportedFeaturesError
	_, err := state.ParseUntypedDeployment(&state.UntypedDeployment{Version: 4, Features: []string{"views"}, Deployment: json.RawMessage(deployment)})
	if !errors.As(err, &unsupported) || unsupported.Features[0] != "views" {
		t.Errorf("error %v is not an UnsupportedFeaturesError naming views", err)
	}
}

func TestManifestMagic(t *testing.T) {
	d := &state.DeploymentV3{Manifest: state.ManifestV1{Version: "v3.139.0", Magic: "0000"}}
	if _, err := state.NewDecoder(nil).Deployment(d); err == nil || !strings.Contains(err.Error(), "magic") {
		t.Errorf("a manifest with a wrong magic decoded: %v", err)
	}
	d.Manifest.Magic = state.Magic("v3.139.0")
	if _, err := state.NewDecoder(nil).Deployment(d); err != nil {
		t.Errorf("a manifest with the right magic: %v", err)
	}
	// A Pulumi CLI built without a version writes neither; Pulumi accepts
	// that, and an empty magic or version alone is still a mismatch.
	for _, m := range []state.ManifestV1{{}, {Version: "v3.139.0"}, {Magic: state.Magic("v3.139.0")}} {
		err := state.CheckManifest(m)
		if want := m.Version == "" && m.Magic == ""; (err == nil) != want {
			t.Errorf("manifest with magic %q and version %q: error %v, want accepted %v", m.Magic, m.Version, err, want)
		}
	}
}
