package hcl_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/eval"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
	"github.com/cairn-iac/cairn/plugins/random"
)

// Load reads every *.hcl file of a project's folder into one program.
// Terraform-style type names resolve through the providers' schemas, and a
// mistake is reported at its file and line before anything runs.
func ExampleLoad() {
	dir, err := os.MkdirTemp("", "hcl-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "main.hcl"), []byte(`
resource "random_pet" "pet" {
  length = 2
}

output "name" {
  value = random_pet.pet.id
}
`), 0o644)
	os.WriteFile(filepath.Join(dir, "outputs.hcl"), []byte(`
output "size" {
  value = random_pet.pet.lenght
}
`), 0o644)

	host := provider.Factories{random.Factory()}
	prog, diags := langhcl.Load(dir, langhcl.Options{Project: "pets", Schemas: eval.ProviderSchemas(host)})
	if !diags.HasErrors() {
		diags = append(diags, prog.Check(context.Background(), "pets", nil)...)
	}
	w := &eval.DiagnosticWriter{Files: prog.Files}
	w.WriteDiagnostics(os.Stdout, diags)
	// Output:
	// Error: Property lenght does not exist on resource "random_pet" "pet"
	//
	//   on outputs.hcl line 3, in output "size":
	//    3:   value = random_pet.pet.lenght
	//
	// resource "random_pet" "pet" has no output lenght. Did you mean "length"? Existing properties are: id, keepers, length, prefix, separator, urn.
}
