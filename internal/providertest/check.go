package providertest

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
)

// Expect fails the test unless an operation succeeded with the given steps
// (in Run.Steps' form, "<op> <name>", sorted).
func Expect(t testing.TB, what string, run *Run, err error, steps ...string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !reflect.DeepEqual(run.Steps, steps) {
		t.Fatalf("%s: steps\ngot:  %q\nwant: %q", what, run.Steps, steps)
	}
}

// CheckSchema fails the test unless p's GetSchema returns the schema a
// provider embeds, whole (nothing in it lost to the schema types), at the
// provider's version, and p's plugin info gives that version.
func CheckSchema(t testing.TB, p provider.Provider, embedded []byte, version string) {
	t.Helper()
	data, err := p.GetSchema(context.Background(), provider.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var got, want map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(embedded, &want); err != nil {
		t.Fatal(err)
	}
	if got["version"] != version {
		t.Errorf("schema version %v, want %s", got["version"], version)
	}
	delete(got, "version")
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		w, _ := json.MarshalIndent(want, "", " ")
		t.Errorf("GetSchema loses part of the embedded schema\ngot:  %s\nwant: %s", g, w)
	}
	if info, err := p.GetPluginInfo(context.Background()); err != nil || info.Version != version {
		t.Errorf("plugin info %+v, %v; want version %s", info, err, version)
	}
	if p.Pkg() != got["name"] {
		t.Errorf("package %q, schema %v", p.Pkg(), got["name"])
	}
}
