package funcs

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/eval/values"
)

func TestSecretFunctions(t *testing.T) {
	dep := values.Dep{URN: "urn:pulumi:dev::web::aws:s3/bucket:Bucket::site"}
	nested := obj(map[string]cty.Value{"user": str("ann"), "password": secret(str("ﬄ"))})
	plain := obj(map[string]cty.Value{"user": str("ann"), "password": str("ﬄ")})
	runFamily(t, Functions(Options{}), map[string][]callTest{
		"sensitive": {
			{args: []cty.Value{str("👍🏽")}, want: secret(str("👍🏽"))},
			{args: []cty.Value{secret(str("a"))}, want: secret(str("a"))},
			{args: []cty.Value{str("a").Mark(dep)}, want: str("a").Mark(dep).Mark(values.Secret)},
			{args: []cty.Value{cty.UnknownVal(cty.String)}, want: secret(cty.UnknownVal(cty.String))},
			{args: []cty.Value{cty.DynamicVal}, want: secret(cty.DynamicVal)},
			{args: []cty.Value{cty.NullVal(cty.String)}, want: secret(cty.NullVal(cty.String))},
		},
		"secret": {
			{args: []cty.Value{plain}, want: secret(plain)},
		},
		"nonsensitive": {
			{args: []cty.Value{secret(str("a"))}, want: str("a")},
			{args: []cty.Value{nested}, want: plain},
			{args: []cty.Value{secret(nested)}, want: plain},
			{args: []cty.Value{secret(str("a")).Mark(dep)}, want: str("a").Mark(dep)},
			{args: []cty.Value{str("a")}, want: str("a")},
			{args: []cty.Value{secret(cty.UnknownVal(cty.String))}, want: cty.UnknownVal(cty.String)},
			{args: []cty.Value{secret(cty.NullVal(cty.String))}, want: cty.NullVal(cty.String)},
		},
		"unsecret": {
			{args: []cty.Value{secret(str("👍🏽"))}, want: str("👍🏽")},
		},
		// ephemeralasnull("a") and ephemeralasnull(null) in OpenTofu
		// 1.12's console: "a" and null; an ephemeral value is null.
		"ephemeralasnull": {
			{args: []cty.Value{str("a")}, want: str("a")},
			{args: []cty.Value{cty.NullVal(cty.String)}, want: cty.NullVal(cty.String)},
			{args: []cty.Value{str("a").Mark(values.Ephemeral)}, want: cty.NullVal(cty.String)},
			{args: []cty.Value{secret(str("a")).Mark(values.Ephemeral)}, want: secret(cty.NullVal(cty.String))},
			{args: []cty.Value{obj(map[string]cty.Value{"token": str("t").Mark(values.Ephemeral), "user": secret(str("ann"))})},
				want: obj(map[string]cty.Value{"token": cty.NullVal(cty.String), "user": secret(str("ann"))})},
			{args: []cty.Value{list(str("a"), str("b").Mark(values.Ephemeral))}, want: list(str("a"), cty.NullVal(cty.String))},
		},
		"issensitive": {
			{args: []cty.Value{secret(str("a"))}, want: cty.True},
			{args: []cty.Value{nested}, want: cty.True},
			{args: []cty.Value{plain}, want: cty.False},
			{args: []cty.Value{str("a").Mark(dep)}, want: cty.False.Mark(dep)},
			{args: []cty.Value{secret(cty.UnknownVal(cty.String))}, want: cty.True},
			{args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.Bool).RefineNotNull()},
			{args: []cty.Value{list(str("a"), cty.UnknownVal(cty.String))}, want: cty.UnknownVal(cty.Bool).RefineNotNull()},
			{args: []cty.Value{cty.DynamicVal}, want: cty.UnknownVal(cty.Bool).RefineNotNull()},
			{args: []cty.Value{cty.NullVal(cty.String)}, want: cty.False},
		},
		"tonumber": {
			{args: []cty.Value{str("1.5")}, want: numf(1.5)},
			{args: []cty.Value{str("ﬄ")}, err: `cannot convert "ﬄ" to number`},
			{args: []cty.Value{secret(str("hunter2"))}, err: "the details are hidden because it is secret"},
			{args: []cty.Value{cty.NullVal(cty.String)}, want: cty.NullVal(cty.Number)},
		},
		"tobool": {
			{args: []cty.Value{str("false")}, want: cty.False},
			{args: []cty.Value{secret(str("yes"))}, err: "the details are hidden because it is secret"},
		},
		"tostring": {
			{args: []cty.Value{cty.True}, want: str("true")},
			{args: []cty.Value{secret(num(1))}, want: secret(str("1"))},
			{args: []cty.Value{strs("a")}, err: "cannot convert list of string to string"},
		},
		"tolist": {
			{args: []cty.Value{tuple(str("a"), num(1))}, want: strs("a", "1")},
		},
		"tomap": {
			{args: []cty.Value{obj(map[string]cty.Value{"ü": num(1), "b": str("2")})}, want: cty.MapVal(map[string]cty.Value{"ü": str("1"), "b": str("2")})},
		},
		"toset": {
			{args: []cty.Value{tuple(str("a"), str("a"))}, want: cty.SetVal(strVals([]string{"a"}))},
		},
	})
}

// try and can take expressions, so they are tested through HCL.
func TestTryAndCan(t *testing.T) {
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{
			"config":  obj(map[string]cty.Value{"name": str("ﬄ"), "password": secret(str("pw"))}),
			"pending": cty.UnknownVal(cty.String),
		},
		Functions: Functions(Options{}),
	}
	runHCL(t, ctx, []hclTest{
		{src: `try(config.size, 3)`, want: num(3)},
		{src: `try(config.name, "default")`, want: str("ﬄ")},
		{src: `try(config.password, "none")`, want: secret(str("pw"))},
		{src: `try(tonumber(config.name), 0)`, want: num(0)},
		{src: `try(pending, "x")`, want: cty.DynamicVal},
		{src: `can(regex("^[a-z]+$", config.name))`, want: cty.False},
		{src: `can(config.size)`, want: cty.False},
		{src: `can(config.name)`, want: cty.True},
		{src: `can(pending)`, want: cty.UnknownVal(cty.Bool)},
	})
}
