package eval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// TestDiagnosticWriterLayout checks that DiagnosticWriter writes what hcl's
// text writer writes, for subjects on one line and on several, with a
// context, at the end of a file, in files with CRLF line breaks or without
// sources, and with the values of an expression's variables.
func TestDiagnosticWriterLayout(t *testing.T) {
	hclSrc := []byte("resource \"a\" \"b\" {\n  size = var.n + local.s\n}\n")
	hclFile, diags := hclsyntax.ParseConfig(hclSrc, "main.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	expr, _ := hclsyntax.ParseExpression([]byte("var.n + local.s + var.n"), "main.hcl", hcl.Pos{Line: 2, Column: 10, Byte: 29})
	files := map[string]*hcl.File{
		"main.hcl":    hclFile,
		"Pulumi.yaml": {Bytes: []byte("name: x\r\nresources:\r\n  a:\r\n    type: t\r\n")},
	}
	rng := func(file string, l1, c1, b1, l2, c2, b2 int) *hcl.Range {
		return &hcl.Range{Filename: file, Start: hcl.Pos{Line: l1, Column: c1, Byte: b1}, End: hcl.Pos{Line: l2, Column: c2, Byte: b2}}
	}
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"var":   cty.ObjectVal(map[string]cty.Value{"n": cty.NumberIntVal(3)}),
		"local": cty.ObjectVal(map[string]cty.Value{"s": cty.ListVal([]cty.Value{cty.StringVal("x"), cty.StringVal("y")})}),
	}}
	tests := []*hcl.Diagnostic{
		{Severity: hcl.DiagError, Summary: "One line", Detail: "A detail long enough to be wrapped at the width of forty columns.",
			Subject: rng("main.hcl", 2, 3, 22, 2, 7, 26)},
		{Severity: hcl.DiagWarning, Summary: "Several lines", Subject: rng("main.hcl", 1, 1, 0, 3, 2, 46)},
		{Severity: hcl.DiagError, Summary: "With context", Subject: rng("main.hcl", 2, 10, 29, 2, 15, 34),
			Context: rng("main.hcl", 1, 1, 0, 2, 25, 44)},
		{Severity: hcl.DiagError, Summary: "Empty subject at the end", Subject: rng("main.hcl", 4, 1, 46, 4, 1, 46)},
		{Severity: hcl.DiagError, Summary: "CRLF", Subject: rng("Pulumi.yaml", 3, 3, 23, 3, 4, 24)},
		{Severity: hcl.DiagError, Summary: "No sources", Subject: rng("gone.yaml", 7, 1, 80, 7, 2, 81)},
		{Severity: hcl.DiagError, Summary: "Values", Subject: expr.Range().Ptr(), Expression: expr, EvalContext: ctx},
		{Severity: hcl.DiagError, Summary: "No subject", Detail: "Nothing to show."},
	}
	for _, color := range []bool{false, true} {
		for _, d := range tests {
			t.Run(fmt.Sprintf("%s color=%v", d.Summary, color), func(t *testing.T) {
				var got, want strings.Builder
				if err := (&DiagnosticWriter{Files: files, Width: 40, Color: color}).WriteDiagnostic(&got, d); err != nil {
					t.Fatal(err)
				}
				_ = hcl.NewDiagnosticTextWriter(&want, files, 40, color).WriteDiagnostic(d)
				if got.String() != want.String() {
					t.Errorf("got:\n%s\nwant:\n%s", got.String(), want.String())
				}
			})
		}
	}
}

// TestDiagnosticWriterCap checks that WriteDiagnostics shows 20
// diagnostics, then counts the others.
func TestDiagnosticWriterCap(t *testing.T) {
	diag := func(i int, sev hcl.DiagnosticSeverity) *hcl.Diagnostic {
		return &hcl.Diagnostic{Severity: sev, Summary: fmt.Sprintf("Problem %d", i)}
	}
	tests := []struct {
		errors, warnings int
		wantShown        int
		wantMore         string
	}{
		{errors: 3, wantShown: 3},
		{errors: 20, wantShown: 20},
		{errors: 50_000, wantShown: 20, wantMore: "…and 49980 more errors.\n"},
		{errors: 20, warnings: 2, wantShown: 20, wantMore: "…and 2 more diagnostics.\n"},
	}
	for _, test := range tests {
		t.Run(fmt.Sprintf("%d+%d", test.errors, test.warnings), func(t *testing.T) {
			var diags hcl.Diagnostics
			for i := range test.errors {
				diags = append(diags, diag(i, hcl.DiagError))
			}
			for i := range test.warnings {
				diags = append(diags, diag(i, hcl.DiagWarning))
			}
			var b strings.Builder
			if err := (&DiagnosticWriter{}).WriteDiagnostics(&b, diags); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if got := strings.Count(out, ": Problem "); got != test.wantShown {
				t.Errorf("shown %d diagnostics, want %d", got, test.wantShown)
			}
			more := ""
			if i := strings.Index(out, "…"); i >= 0 {
				more = strings.TrimSuffix(out[i:], "\n")
			}
			if more != test.wantMore {
				t.Errorf("got %q after them, want %q", more, test.wantMore)
			}
		})
	}
}

// TestListNamesEachOnce checks that a name given twice (a schema's own id
// beside the id every resource has) is listed once, and counted once in
// "and N others".
func TestListNamesEachOnce(t *testing.T) {
	if got, want := List([]string{"urn", "id", "size", "id"}, 8), "id, size, urn"; got != want {
		t.Errorf("List = %q, want %q", got, want)
	}
	if got, want := List([]string{"c", "b", "a", "b", "a"}, 2), "a, b and 1 others"; got != want {
		t.Errorf("List = %q, want %q", got, want)
	}
}
