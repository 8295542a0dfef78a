package tfstate_test

import (
	"os"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/tfstate"
)

// FuzzRead reads Terraform states and moves them into the test program's
// stack: no state panics, and every snapshot built passes the integrity
// check the engine applies to the state it saves. The seeds are the test
// state and the states TestReadVersions refuses.
func FuzzRead(f *testing.F) {
	data, err := os.ReadFile("testdata/terraform.tfstate")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	for _, seed := range []string{`{"version": 3, "modules": []}`, `{"version": 5}`, `{"serial": 1}`, `not json`,
		`{"version": 4, "resources": [{"module": "module.a[\"x\"].module.b[0]", "mode": "managed", "type": "tfx_thing", "name": "page", "instances": [{"index_key": 1.5}]}]}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := tfstate.Read(data)
		if err != nil {
			return
		}
		snap, _, err := tfstate.Build(st, tfstate.Target{Planned: planned(), Schema: tfxSchema, NewID: func() resource.ID { return "prov-id" }})
		if err != nil {
			return
		}
		if err := snap.VerifyIntegrity(); err != nil {
			t.Fatalf("the snapshot built from the state fails its integrity check: %v", err)
		}
	})
}
