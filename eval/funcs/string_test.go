package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestStringFunctions(t *testing.T) {
	prefixed := cty.UnknownVal(cty.String).Refine().StringPrefix("https://").NewValue()
	runFamily(t, Functions(Options{}), map[string][]callTest{
		"replace": {
			{args: []cty.Value{str("hello"), str("l"), str("L")}, want: str("heLLo")},
			{args: []cty.Value{str("a1b22"), str("/[0-9]+/"), str("#")}, want: str("a#b#")},
			{args: []cty.Value{str("2024-01"), str("/(\\d+)-(\\d+)/"), str("$2/$1")}, want: str("01/2024")},
			{args: []cty.Value{str("/"), str("/"), str("|")}, want: str("|")},
			{args: []cty.Value{str("baﬄe 👍🏽"), str("👍🏽"), str("👎🏿")}, want: str("baﬄe 👎🏿")},
			{args: []cty.Value{str("abc"), str("/[/"), str("")}, err: "error parsing regexp"},
			{args: []cty.Value{secret(str("hunter2")), str("2"), str("3")}, want: secret(str("hunter3"))},
			{args: []cty.Value{cty.UnknownVal(cty.String), str("a"), str("b")}, want: cty.UnknownVal(cty.String).RefineNotNull()},
			{args: []cty.Value{cty.NullVal(cty.String), str("a"), str("b")}, err: "must not be null"},
		},
		"startswith": {
			{args: []cty.Value{str("hello"), str("he")}, want: cty.True},
			{args: []cty.Value{str("hello"), str("lo")}, want: cty.False},
			{args: []cty.Value{str("👍🏽 ok"), str("👍")}, want: cty.True},
			{args: []cty.Value{prefixed, str("https")}, want: cty.True},
			{args: []cty.Value{prefixed, str("http:")}, want: cty.False},
			{args: []cty.Value{prefixed, str("https://example")}, want: cty.UnknownVal(cty.Bool).RefineNotNull()},
			{args: []cty.Value{cty.DynamicVal, str("a")}, want: cty.DynamicVal},
			{args: []cty.Value{secret(str("hello")), str("he")}, want: secret(cty.True)},
			{args: []cty.Value{str("a"), cty.NullVal(cty.String)}, err: "must not be null"},
		},
		"endswith": {
			{args: []cty.Value{str("hello"), str("lo")}, want: cty.True},
			{args: []cty.Value{str("baﬄe"), str("ﬄe")}, want: cty.True},
			{args: []cty.Value{str("hello"), str("he")}, want: cty.False},
			{args: []cty.Value{cty.UnknownVal(cty.String), str("a")}, want: cty.UnknownVal(cty.Bool).RefineNotNull()},
			{args: []cty.Value{str("hello"), secret(str("lo"))}, want: secret(cty.True)},
		},
		"strcontains": {
			{args: []cty.Value{str("hello"), str("ell")}, want: cty.True},
			{args: []cty.Value{str("hello"), str("")}, want: cty.True},
			{args: []cty.Value{str("hello"), str("x")}, want: cty.False},
			{args: []cty.Value{str("i ❤️ cty"), str("❤️")}, want: cty.True},
			{args: []cty.Value{secret(str("hello")), str("x")}, want: secret(cty.False)},
		},
		// Functions from go-cty, with the Unicode behaviour users rely on.
		"strrev": {
			{args: []cty.Value{str("baﬄe")}, want: str("eﬄab")},
			{args: []cty.Value{str("a👍🏽b")}, want: str("b👍🏽a")},
		},
		"substr": {
			{args: []cty.Value{str("👩‍👩‍👧 family"), num(0), num(1)}, want: str("👩‍👩‍👧")},
			{args: []cty.Value{str("hello"), num(-3), num(-1)}, want: str("llo")},
		},
		"upper": {
			{args: []cty.Value{str("ﬁ ǆ")}, want: str("ﬁ Ǆ")},
		},
		"format": {
			{args: []cty.Value{str("%5s|"), str("ﬄ")}, want: str("    ﬄ|")},
			{args: []cty.Value{str("%d"), str("x")}, err: "unsupported value for \"%d\""},
		},
	})
}
