package hcl_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/internal/langtest"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

// FuzzParse checks that no document makes the front end or the static
// analysis panic, with the test schemas so that type names, shapes and
// dynamic blocks are exercised. The seeds are the corpus's programs and a
// few hostile documents.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*", "*.hcl"))
	for _, path := range files {
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data)
		}
	}
	for _, seed := range []string{
		"",
		"{",
		`resource "test_widget" "w" { dynamic "ingress_rules" { for_each = [1] content { from_port = 1 } } }`,
		`resource "test_widget" "w" { dynamic "nope" {} }`,
		`resource "test_widget" "w" { dynamic "settings" { for_each = [1] } }`,
		`resource "random_pet" "p" { count = 2  for_each = {} }`,
		`moved { from = a.b[0]  to = a }`,
		`removed { from = module.x }`,
		`import { to = test_thing.t["k"]  id = "x" }`,
		`variable "v" { type = object({ a = optional(string, "x") }) }`,
		`resource "random_pet" "p" { lifecycle { ignore_changes = [all, "x[", length[0]] } }`,
		`module "m" { source = "./" }`,
		`output "o" { value = self.x + count.index + each.key + path.nope }`,
		`pulumi { required_providers { test = { version = 1 } } }`,
	} {
		f.Add([]byte(seed))
	}
	schemas := eval.ProviderSchemas(langtest.Host)
	f.Fuzz(func(t *testing.T, src []byte) {
		prog, _ := langhcl.Parse("main.hcl", src, langhcl.Options{Schemas: schemas, Project: "fuzz"})
		if prog != nil {
			prog.Check(context.Background(), "fuzz", nil)
		}
	})
}
