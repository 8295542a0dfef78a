package hcl_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/internal/langtest"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

// TestRender checks that diagnostics render in Terraform's manner: the
// summary, the file and line with the block they are in, the source line,
// the values the expression refers to (as hcl's writer shows them), and the
// detail.
func TestRender(t *testing.T) {
	src := `variable "size" {
  type = number
  validation {
    condition     = var.size > 4
    error_message = "size must be more than 4."
  }
}

resource "random_string" "s" {
  length = var.size
}
`
	prog, diags := langhcl.Parse("main.hcl", []byte(src), langhcl.Options{Schemas: eval.ProviderSchemas(langtest.Host)})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	_, err := deploy.Update(context.Background(), deploy.Options{Project: "render", Stack: "dev", Host: langtest.Host, Program: prog,
		Config: map[string]resource.Value{"render:size": resource.String("3")}}, nil)
	var de *eval.DiagnosticsError
	if !errors.As(err, &de) {
		t.Fatalf("want diagnostics, got %v", err)
	}
	want := `Error: Invalid value for variable

  on main.hcl line 4, in variable "size":
   4:     condition     = var.size > 4

with var.size as 3.

size must be more than 4.`
	if got := strings.TrimSpace(de.Error()); got != want {
		t.Errorf("wrong rendering\ngot:\n%s\nwant:\n%s", got, want)
	}
}
