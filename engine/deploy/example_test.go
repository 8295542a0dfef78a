package deploy_test

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/lang/yaml"
	"github.com/cairn-iac/cairn/plugins/random"
)

// Update applies a program to a stack's state and returns the new state;
// the next update starts from it. Here the second update finds nothing to
// do: its resources take the fast path, without Check or Diff calls.
func ExampleUpdate() {
	host := provider.Factories{random.Factory()}
	prog, diags := yaml.Parse("Pulumi.yaml", []byte(`name: pets
runtime: yaml
resources:
  pet:
    type: random:index/randomPet:RandomPet
`), yaml.Options{Schemas: eval.ProviderSchemas(host)})
	if diags.HasErrors() {
		fmt.Println(diags)
		return
	}
	var state *snapshot.Snapshot // a new stack
	for range 2 {
		res, err := deploy.Update(context.Background(), deploy.Options{
			Project: "pets", Stack: "dev", Host: host, Program: prog,
		}, state)
		if err != nil {
			fmt.Println(err)
			return
		}
		state = res.Snapshot
		fmt.Printf("created %d, unchanged %d; the state holds %d resources\n",
			res.Changes[deploy.OpCreate], res.Changes[deploy.OpSame], len(state.Resources))
	}
	// Output:
	// created 3, unchanged 0; the state holds 3 resources
	// created 0, unchanged 3; the state holds 3 resources
}
