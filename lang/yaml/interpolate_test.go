package yaml

import (
	"fmt"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// scalar parses a one-line document `v: <text>` and returns its value node.
func scalar(t *testing.T, text string) *node {
	t.Helper()
	root, diags := parseDocument(newSource("f.yaml", []byte("v: "+text)))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return root.pairs[0].value
}

// template parses a scalar's template, which must have no errors.
func template(t *testing.T, text string) hcl.Expression {
	t.Helper()
	p := &parser{}
	e := p.template(scalar(t, text))
	if p.diags.HasErrors() {
		t.Fatal(p.diags)
	}
	return e
}

func TestTemplate(t *testing.T) {
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"a":          cty.ObjectVal(map[string]cty.Value{"b": cty.TupleVal([]cty.Value{cty.StringVal("zero")})}),
		"my-bucket":  cty.ObjectVal(map[string]cty.Value{"arn": cty.StringVal("arn:1")}),
		"aws:region": cty.StringVal("eu"),
		"n":          cty.NumberIntVal(2),
		"$odd":       cty.StringVal("dollar"),
		"root key":   cty.ObjectVal(map[string]cty.Value{"x": cty.True}),
	}}
	tests := map[string]struct {
		text string
		want cty.Value
	}{
		"literal":             {`plain text`, cty.StringVal("plain text")},
		"escape":              {`'$${x} costs $$5'`, cty.StringVal("${x} costs $5")},
		"substitution typed":  {`${n}`, cty.NumberIntVal(2)},
		"property access":     {`${a.b[0]}`, cty.StringVal("zero")},
		"quoted key":          {`'${a["b"][0]}'`, cty.StringVal("zero")},
		"hyphenated name":     {`${my-bucket.arn}`, cty.StringVal("arn:1")},
		"namespaced config":   {`${aws:region}`, cty.StringVal("eu")},
		"dollar name":         {`${$odd}`, cty.StringVal("dollar")},
		"root subscript":      {`'${["root key"].x}'`, cty.True},
		"interpolation":       {`"n is ${n}!"`, cty.StringVal("n is 2!")},
		"hcl operators":       {`${n * 3 + 1}`, cty.NumberIntVal(7)},
		"hcl conditional":     {`'${n > 1 ? "big" : "small"}'`, cty.StringVal("big")},
		"hcl nested template": {`'${"x-${n}"}'`, cty.StringVal("x-2")},
		"hcl braces":          {`'${ {k = "}"}.k }'`, cty.StringVal("}")},
		"hcl for":             {`'${[for i in [1, 2] : i * n]}'`, cty.TupleVal([]cty.Value{cty.NumberIntVal(2), cty.NumberIntVal(4)})},
		"two parts":           {`${n}${n}`, cty.StringVal("22")},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			got, diags := template(t, test.text).Value(ctx)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if !got.RawEquals(test.want) {
				t.Errorf("wrong result\ngot:  %#v\nwant: %#v", got, test.want)
			}
		})
	}
}

// TestTemplatePositions checks that the ranges of expressions inside a
// string point into the file.
func TestTemplatePositions(t *testing.T) {
	tests := map[string]struct {
		text string
		want string // range of the first traversal
	}{
		"plain":         {`x ${aa.bb} y`, "f.yaml:1:8-1:13"},
		"hcl":           {`x ${aa + 1}`, "f.yaml:1:8-1:10"},
		"double quoted": {`"q ${aa}"`, "f.yaml:1:9-1:11"},
		"after escape":  {`"\t ${aa}"`, "f.yaml:1:10-1:12"},
		"single quoted": {`'it''s ${aa}'`, "f.yaml:1:13-1:15"},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			r := template(t, test.text).Variables()[0].SourceRange()
			got := fmt.Sprintf("%s:%d:%d-%d:%d", r.Filename, r.Start.Line, r.Start.Column, r.End.Line, r.End.Column)
			if got != test.want {
				t.Errorf("wrong range\ngot:  %s\nwant: %s", got, test.want)
			}
		})
	}
}

func TestTemplateErrors(t *testing.T) {
	tests := map[string]string{
		"unterminated": `'${a'`,
		"empty":        `'${}'`,
		"bad hcl":      `'${1 +}'`,
		"bad access":   `'${a.}'`,
	}
	for name, text := range tests {
		t.Run(name, func(t *testing.T) {
			p := &parser{}
			e := p.template(scalar(t, text))
			if !p.diags.HasErrors() {
				t.Errorf("no error for %s; got %#v", text, e)
			}
			if e == nil {
				t.Errorf("no expression for %s", text)
			}
		})
	}
}

// FuzzTemplate checks that no string makes the interpolation parser panic,
// and that the ranges it gives stay inside the file.
func FuzzTemplate(f *testing.F) {
	for _, seed := range []string{
		"plain", "${a}", "$${a}", "${a.b[0][\"k\"]}", "x ${a + 1} y", "${", "${}", "${a.}",
		"${[\"k\\\"q\"].x}", "${ {a = \"}\"}.a }", "${\"${b}\"}", "é ${ä} ü", "${a[\n0]}", "\"\\u00e9 ${x}\"",
		"${%{if true}x%{endif}}", "${<<EOT\nx\nEOT\n}",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		src := newSource("f.yaml", []byte(text))
		n := &node{value: text, src: src, rng: src.rng(0, len(text))}
		p := &parser{}
		e := p.template(n)
		for _, tr := range e.Variables() {
			if r := tr.SourceRange(); r.End.Byte > len(text) || r.Start.Byte < 0 {
				t.Fatalf("range %v outside the text %q", r, text)
			}
		}
	})
}
