package eval_test

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/eval/values"
)

func TestConfigValue(t *testing.T) {
	anyObject := cty.Map(cty.DynamicPseudoType)
	tests := map[string]struct {
		ty      cty.Type
		stored  resource.Value // null: not set
		def     string         // default expression, "" for none
		secret  bool
		tf      bool // TerraformTypes
		want    cty.Value
		wantErr string
	}{
		"string":          {ty: cty.String, stored: resource.String("web"), want: cty.StringVal("web")},
		"integer":         {ty: cty.Number, stored: resource.String("3"), want: cty.NumberIntVal(3)},
		"number":          {ty: cty.Number, stored: resource.String(" 0.5 "), want: cty.NumberFloatVal(0.5)},
		"bool":            {ty: cty.Bool, stored: resource.String("true"), want: cty.True},
		"list from JSON":  {ty: cty.List(cty.String), stored: resource.String(`["a","b"]`), want: cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")})},
		"list of numbers": {ty: cty.List(cty.Number), stored: resource.String(`[1, "2"]`), want: cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)})},
		"object JSON":     {ty: anyObject, stored: resource.String(`{"a": 1}`), want: cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1)})},
		"structured":      {ty: anyObject, stored: resource.Object(resource.Map{"a": resource.Bool(true)}), want: cty.ObjectVal(map[string]cty.Value{"a": cty.True})},
		"any keeps text":  {ty: cty.DynamicPseudoType, stored: resource.String("3"), want: cty.StringVal("3")},
		"stored secret":   {ty: cty.Number, stored: resource.MakeSecret(resource.String("7")), want: cty.NumberIntVal(7).Mark(values.Secret)},
		"declared secret": {ty: cty.String, stored: resource.String("pw"), secret: true, want: cty.StringVal("pw").Mark(values.Secret)},
		"default":         {ty: cty.Number, def: "4", want: cty.NumberIntVal(4)},
		"secret default":  {ty: cty.String, def: `"x"`, secret: true, want: cty.StringVal("x").Mark(values.Secret)},
		"missing":         {ty: cty.String, wantErr: "Missing required configuration proj:key"},
		"not a number":    {ty: cty.Number, stored: resource.String("many"), wantErr: "Invalid value for configuration proj:key"},
		"not a bool":      {ty: cty.Bool, stored: resource.String("yes please"), wantErr: "Invalid value for configuration proj:key"},
		"bad JSON":        {ty: cty.List(cty.String), stored: resource.String(`[`), wantErr: "Invalid value for configuration proj:key"},
		"not an object":   {ty: anyObject, stored: resource.String(`[1]`), wantErr: "Invalid value for configuration proj:key"},
		"bad default":     {ty: cty.Number, def: `"lots"`, wantErr: "Default value has the wrong type"},
		// Terraform's map(any) (or bare map) gives its elements one type.
		"map(any) unifies": {ty: anyObject, tf: true, def: `{ a = 1, b = "x", c = true }`,
			want: cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1"), "b": cty.StringVal("x"), "c": cty.StringVal("true")})},
		"map(any) of lists": {ty: anyObject, tf: true, stored: resource.String(`{"a": [1], "b": [2, 3]}`),
			want: cty.MapVal(map[string]cty.Value{"a": cty.ListVal([]cty.Value{cty.NumberIntVal(1)}), "b": cty.ListVal([]cty.Value{cty.NumberIntVal(2), cty.NumberIntVal(3)})})},
		"map(any) mixed":    {ty: anyObject, tf: true, def: `{ a = [1], b = "x" }`, wantErr: "Default value has the wrong type"},
		"list(any) unifies": {ty: cty.List(cty.DynamicPseudoType), tf: true, def: `[1, "a", false]`, want: cty.ListVal([]cty.Value{cty.StringVal("1"), cty.StringVal("a"), cty.StringVal("false")})},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			c := &eval.Config{Decl: eval.Decl{Name: "key", Noun: "config"}, Key: "key", Type: test.ty, Secret: test.secret, TerraformTypes: test.tf}
			if test.def != "" {
				c.Default = expr(t, test.def)
			}
			cfg := map[string]resource.Value{}
			if !test.stored.IsNull() {
				cfg["proj:key"] = test.stored
			}
			got, diags := eval.ConfigValue(c, "proj", cfg)
			if test.wantErr != "" {
				if !diags.HasErrors() || diags[0].Summary != test.wantErr {
					t.Fatalf("wrong diagnostics\ngot:  %v\nwant: %s", diags, test.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if !got.RawEquals(test.want) {
				t.Errorf("wrong result\ngot:  %#v\nwant: %#v", got, test.want)
			}
		})
	}
}

func TestConfigFullKey(t *testing.T) {
	tests := map[string]string{"key": "proj:key", "aws:region": "aws:region", "proj:other": "proj:other"}
	for key, want := range tests {
		c := &eval.Config{Key: key, Decl: eval.Decl{NameRange: hcl.Range{}}}
		if got := c.FullKey("proj"); got != want {
			t.Errorf("FullKey(%q) = %q, want %q", key, got, want)
		}
	}
}
