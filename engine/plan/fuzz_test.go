package plan_test

import (
	"testing"

	"github.com/cairn-iac/cairn/engine/plan"
	"github.com/cairn-iac/cairn/engine/resource"
)

// FuzzDecode loads plan files as `up --plan` does: no input panics, and a
// plan that loads is written back and loads again, the same.
func FuzzDecode(f *testing.F) {
	sm := manager(f)
	seed, err := plan.Encode(&plan.Plan{Stack: "dev", Project: "web", SeedKey: []byte{7},
		Resources: map[resource.URN]plan.Step{urn: {Op: "create", Inputs: resource.Map{"s": resource.MakeSecret(resource.String("x"))}}}}, sm)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"version": 1, "stack": "dev", "project": "web", "resources": [{"urn": "u", "op": "delete", "inputs": null}]}`))
	f.Add([]byte(`{"version": 1, "stack": "dev", "project": "web", "base": {"resources": {"u": "h"}}, "resources": [{"urn": "u", "op": "same", "inputs": {"a": [1, {"b": null}]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := plan.Decode(data, "dev", "web", sm)
		if err != nil {
			return
		}
		again, err := plan.Encode(p, sm)
		if err != nil {
			t.Fatalf("cannot write a plan that loaded: %v", err)
		}
		p2, err := plan.Decode(again, "dev", "web", sm)
		if err != nil {
			t.Fatalf("cannot load the plan written back: %v\n%s", err, again)
		}
		if len(p2.Resources) != len(p.Resources) || p2.Base.Hash != p.Base.Hash || string(p2.SeedKey) != string(p.SeedKey) {
			t.Fatalf("the plan changed when written back:\n%s", again)
		}
		for u, s := range p.Resources {
			if s2 := p2.Resources[u]; s2.Op != s.Op || !s2.Inputs.Equal(s.Inputs) || !s2.Outputs.Equal(s.Outputs) {
				t.Fatalf("%s changed when written back: %+v, then %+v", u, s, s2)
			}
		}
	})
}
