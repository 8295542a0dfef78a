package eval

import (
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/eval/values"
)

func TestCountOf(t *testing.T) {
	tests := map[string]struct {
		val     cty.Value
		want    int
		known   bool
		wantErr bool
	}{
		"three":    {cty.NumberIntVal(3), 3, true, false},
		"zero":     {cty.NumberIntVal(0), 0, true, false},
		"secret":   {cty.NumberIntVal(2).Mark(values.Secret), 2, true, false},
		"unknown":  {cty.UnknownVal(cty.Number), 0, false, false},
		"dynamic":  {cty.DynamicVal, 0, false, false},
		"negative": {cty.NumberIntVal(-1), 0, true, true},
		"fraction": {cty.NumberFloatVal(1.5), 0, true, true},
		"null":     {cty.NullVal(cty.Number), 0, true, true},
		"string":   {cty.StringVal("3"), 0, true, true},
		"huge":     {cty.NumberIntVal(1e9), 0, true, true},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			got, known, diags := countOf(test.val, hcl.Range{})
			if diags.HasErrors() != test.wantErr || known != test.known || got != test.want {
				t.Errorf("wrong result\ngot:  %d %v %v\nwant: %d %v error=%v", got, known, diags, test.want, test.known, test.wantErr)
			}
		})
	}
}

func TestForEachInstances(t *testing.T) {
	str := cty.StringVal
	tests := map[string]struct {
		val     cty.Value
		want    string // instance names, each=value
		known   bool
		wantErr string
	}{
		"map":              {cty.MapVal(map[string]cty.Value{"b": str("2"), "a": str("1")}), `"a"=1 "b"=2`, true, ""},
		"object":           {cty.ObjectVal(map[string]cty.Value{"x": cty.True}), `"x"=true`, true, ""},
		"set":              {cty.SetVal([]cty.Value{str("p"), str("q")}), `"p"=p "q"=q`, true, ""},
		"list":             {cty.TupleVal([]cty.Value{str("one")}), `"one"=one`, true, ""},
		"empty":            {cty.EmptyObjectVal, ``, true, ""},
		"unknown":          {cty.UnknownVal(cty.Map(cty.String)), ``, false, ""},
		"unknown key":      {cty.SetVal([]cty.Value{cty.UnknownVal(cty.String)}), ``, false, ""},
		"secret value":     {cty.MapVal(map[string]cty.Value{"k": str("v").Mark(values.Secret)}), `"k"=v`, true, ""},
		"secret key":       {cty.TupleVal([]cty.Value{str("k").Mark(values.Secret)}), ``, true, "has a secret key"},
		"secret map":       {cty.MapVal(map[string]cty.Value{"k": str("v")}).Mark(values.Secret), ``, true, "forEach is secret"},
		"secret set":       {cty.SetVal([]cty.Value{str("k").Mark(values.Secret), str("l")}), ``, true, "forEach is secret"},
		"secret object":    {cty.ObjectVal(map[string]cty.Value{"k": str("v")}).Mark(values.Secret), ``, true, "forEach is secret"},
		"secret unknown":   {cty.UnknownVal(cty.Map(cty.String)).Mark(values.Secret), ``, true, "forEach is secret"},
		"output key":       {cty.TupleVal([]cty.Value{str("k").Mark(values.Dep{URN: "urn:pulumi:dev::p::t::a"})}), `"k"=k`, true, ""},
		"secret attribute": {cty.ObjectVal(map[string]cty.Value{"k": str("v").Mark(values.Secret), "l": str("w")}), `"k"=v "l"=w`, true, ""},
		"number":           {cty.NumberIntVal(3), ``, true, "is a number"},
		"numbers":          {cty.TupleVal([]cty.Value{cty.NumberIntVal(3)}), ``, true, "element that is a number"},
		"duplicate":        {cty.TupleVal([]cty.Value{str("a"), str("a")}), ``, true, "twice"},
		"null":             {cty.NullVal(cty.Map(cty.String)), ``, true, "null"},
		"quoted":           {cty.TupleVal([]cty.Value{str(`a"b`)}), `"a\"b"=a"b`, true, ""},
		"unicode order":    {cty.TupleVal([]cty.Value{str("é"), str("e")}), `"é"=é "e"=e`, true, ""},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			insts, known, diags := forEachInstances(test.val, hcl.Range{}, "", Dialect{Unsecret: "unsecret()"})
			if test.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags[0].Detail, test.wantErr) {
					t.Fatalf("wrong diagnostics\ngot:  %v\nwant: %s", diags, test.wantErr)
				}
				return
			}
			var parts []string
			for _, in := range insts {
				parts = append(parts, in.name+"="+text(in.each))
			}
			if known != test.known || diags.HasErrors() {
				t.Fatalf("known %v, diags %v", known, diags)
			}
			if got := strings.Join(parts, " "); got != test.want {
				t.Errorf("wrong result\ngot:  %s\nwant: %s", got, test.want)
			}
		})
	}
}

// TestForEachInstancesTerraform checks for_each where the dialect takes,
// as Terraform, only a map or a set of strings: a list or tuple is refused
// with the way to make a set of it.
func TestForEachInstancesTerraform(t *testing.T) {
	str := cty.StringVal
	tf := Dialect{Unsecret: "nonsensitive()", ForEach: "for_each", ToSet: "toset"}
	tests := map[string]struct {
		val   cty.Value
		want  string // instance names, or the error's detail
		known bool
	}{
		"map":          {cty.MapVal(map[string]cty.Value{"a": str("1")}), `"a"`, true},
		"set":          {cty.SetVal([]cty.Value{str("p"), str("q")}), `"p" "q"`, true},
		"unknown map":  {cty.UnknownVal(cty.Map(cty.String)), ``, false},
		"unknown":      {cty.DynamicVal, ``, false},
		"tuple":        {cty.TupleVal([]cty.Value{str("one")}), `for_each is a tuple; it must be a map, or a set of strings, whose keys name the instances: make it a set with toset(var.names): its strings become the keys.`, true},
		"objects":      {cty.TupleVal([]cty.Value{cty.EmptyObjectVal}), `for_each is a tuple; it must be a map, or a set of strings, whose keys name the instances: make it a map, keyed by a unique attribute of its elements: { for o in var.names : o.<name> => o }.`, true},
		"list":         {cty.ListVal([]cty.Value{str("one")}), `for_each is a list of string; it must be a map, or a set of strings`, true},
		"unknown list": {cty.UnknownVal(cty.List(cty.String)), `for_each is a list of string`, true},
		"numbers":      {cty.SetVal([]cty.Value{cty.NumberIntVal(3)}), `for_each has an element that is a number; it must be a map, or a set of strings`, true},
		"null element": {cty.SetVal([]cty.Value{cty.NullVal(cty.String)}), `for_each has a null element`, true},
		"secret":       {cty.SetVal([]cty.Value{str("k").Mark(values.Secret)}), `for_each is secret, or derived from a secret. Its keys would name the instances, in their URNs, which the state keeps in plain text. If the keys are not secret, make them plain with nonsensitive()`, true},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			insts, known, diags := forEachInstances(test.val, hcl.Range{}, "var.names", tf)
			var got []string
			for _, in := range insts {
				got = append(got, in.name)
			}
			if diags.HasErrors() {
				if diags[0].Summary != "Invalid for_each" {
					t.Errorf("wrong summary %q", diags[0].Summary)
				}
				got = []string{diags[0].Detail}
			}
			if known != test.known || !strings.HasPrefix(strings.Join(got, " "), test.want) || test.want == "" && len(got) > 0 {
				t.Errorf("wrong result\ngot:  %q known=%v\nwant: %q known=%v", got, known, test.want, test.known)
			}
		})
	}
}

// text renders a primitive value without its marks.
func text(v cty.Value) string {
	v, _ = v.Unmark()
	switch v.Type() {
	case cty.String:
		return v.AsString()
	case cty.Bool:
		if v.True() {
			return "true"
		}
		return "false"
	}
	return v.GoString()
}
