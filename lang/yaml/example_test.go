package yaml_test

import (
	"context"
	"fmt"
	"os"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/lang/yaml"
	"github.com/cairn-iac/cairn/plugins/random"
)

// Parse reads a program from memory; with the schemas of the providers it
// uses, it checks properties before anything runs. The program is then a
// deploy.Program: here a preview (DryRun) of a new stack.
func ExampleParse() {
	src := []byte(`name: pets
runtime: yaml
resources:
  pet:
    type: random:index/randomPet:RandomPet
    properties:
      length: 2
outputs:
  name: ${pet.id}
`)
	host := provider.Factories{random.Factory()}
	prog, diags := yaml.Parse("Pulumi.yaml", src, yaml.Options{Schemas: eval.ProviderSchemas(host)})
	if diags.HasErrors() {
		fmt.Println(diags)
		return
	}
	res, err := deploy.Update(context.Background(), deploy.Options{
		Project: "pets", Stack: "dev", Host: host, Program: prog, DryRun: true,
	}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The stack, the default random provider and the pet.
	fmt.Println(res.Changes[deploy.OpCreate], "to create")
	// Output: 3 to create
}

// A misspelled property is found before the program runs, at its line and
// column, with a suggestion.
func ExampleParse_diagnostics() {
	src := []byte(`name: pets
runtime: yaml
resources:
  pet:
    type: random:index/randomPet:RandomPet
    properties:
      lenght: 2
`)
	host := provider.Factories{random.Factory()}
	prog, diags := yaml.Parse("Pulumi.yaml", src, yaml.Options{Schemas: eval.ProviderSchemas(host)})
	diags = append(diags, prog.Check(context.Background(), "pets", nil)...)
	w := &eval.DiagnosticWriter{Files: prog.Files}
	w.WriteDiagnostics(os.Stdout, diags)
	// Output:
	// Error: Property lenght does not exist on 'random:index/randomPet:RandomPet'
	//
	//   on Pulumi.yaml line 7:
	//    7:       lenght: 2
	//
	// Did you mean "length"? Existing properties are: keepers, length, prefix, separator.
}
