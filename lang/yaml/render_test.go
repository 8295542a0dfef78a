package yaml_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/lang/yaml"
)

// TestRender checks that YAML diagnostics render with hcl's text writer as
// HCL's do: file, line, the source line and the detail.
func TestRender(t *testing.T) {
	src := `name: render
runtime: yaml
resources:
  password:
    type: random:RandomString
    properties:
      length: 8
      buzz: fizz
`
	prog, diags := yaml.Parse("Pulumi.yaml", []byte(src), yaml.Options{Schemas: eval.ProviderSchemas(testHost)})
	diags = append(diags, prog.Check(context.Background(), "render", nil)...)
	var b strings.Builder
	if err := hcl.NewDiagnosticTextWriter(&b, prog.Files, 0, false).WriteDiagnostics(diags); err != nil {
		t.Fatal(err)
	}
	want := `Error: Property buzz does not exist on 'random:index/randomString:RandomString'

  on Pulumi.yaml line 8:
   8:       buzz: fizz

Existing properties are: keepers, length, lower, minLower, minNumeric, minSpecial, minUpper, number and 4 others.

`
	if got := b.String(); got != want {
		t.Errorf("wrong rendering\ngot:\n%s\nwant:\n%s", got, want)
	}
}
