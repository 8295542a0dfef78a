package funcs

import (
	"math"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/eval/values"
)

func TestCollectionFunctions(t *testing.T) {
	dep := values.Dep{URN: "urn:pulumi:dev::web::aws:s3/bucket:Bucket::site"}
	unknownCount := cty.UnknownVal(cty.Number).Refine().NotNull().NumberRangeLowerBound(cty.Zero, true).NewValue()
	unknownListCount := unknownCount.Refine().NumberRangeUpperBound(cty.NumberIntVal(math.MaxInt64), true).NewValue()
	m := cty.MapVal(map[string]cty.Value{"a": str("x"), "ü": str("y")})
	runFamily(t, Functions(Options{}), map[string][]callTest{
		"length": {
			{args: []cty.Value{str("baﬄe")}, want: num(4)},
			{args: []cty.Value{str("👍🏽")}, want: num(1)},
			{args: []cty.Value{str("👩‍👩‍👧")}, want: num(1)},
			{args: []cty.Value{str("e\u0301")}, want: num(1)},
			{args: []cty.Value{str("")}, want: num(0)},
			{args: []cty.Value{strs("a", "b", "c")}, want: num(3)},
			{args: []cty.Value{tuple(str("a"), num(1))}, want: num(2)},
			{args: []cty.Value{obj(map[string]cty.Value{"a": num(1)})}, want: num(1)},
			{args: []cty.Value{m}, want: num(2)},
			{args: []cty.Value{cty.SetVal(strVals([]string{"a", "b"}))}, want: num(2)},
			{args: []cty.Value{cty.UnknownVal(cty.String)}, want: unknownCount},
			{args: []cty.Value{cty.UnknownVal(cty.Tuple([]cty.Type{cty.String, cty.String}))}, want: num(2)},
			{args: []cty.Value{cty.UnknownVal(cty.List(cty.String))}, want: unknownListCount},
			{args: []cty.Value{cty.DynamicVal}, want: unknownCount},
			{args: []cty.Value{secret(str("abc"))}, want: secret(num(3))},
			{args: []cty.Value{list(secret(str("a")), str("b"))}, want: num(2)},
			{args: []cty.Value{tuple(str("a").Mark(dep))}, want: num(1).Mark(dep)},
			{args: []cty.Value{cty.NullVal(cty.String)}, err: "must not be null"},
			{args: []cty.Value{num(1)}, err: "length needs a string, a collection, a tuple or an object, not number"},
		},
		"lookup": {
			{args: []cty.Value{m, str("ü"), str("d")}, want: str("y")},
			{args: []cty.Value{m, str("z"), str("d")}, want: str("d")},
			{args: []cty.Value{m, str("a")}, want: str("x")},
			{args: []cty.Value{m, str("z")}, err: `the map has no element with the key "z"; give a default value`},
			{args: []cty.Value{m, secret(str("z"))}, err: "the details are hidden because it is secret"},
			{args: []cty.Value{obj(map[string]cty.Value{"a": num(1)}), str("b")}, err: `the map has no element with the key "b"`},
			{args: []cty.Value{m, cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String)},
			{args: []cty.Value{obj(map[string]cty.Value{"a": num(1)}), str("a")}, want: num(1)},
			{args: []cty.Value{obj(map[string]cty.Value{"a": num(1)}), str("b"), num(2)}, want: num(2)},
			{args: []cty.Value{cty.UnknownVal(cty.Map(cty.String)), str("a"), str("d")}, want: cty.UnknownVal(cty.String)},
			{args: []cty.Value{secret(cty.UnknownVal(cty.Map(cty.String))), str("a"), str("d")}, want: secret(cty.UnknownVal(cty.String))},
			{args: []cty.Value{secret(m), str("a"), str("d")}, want: secret(str("x"))},
			{args: []cty.Value{m, str("a"), str("b"), str("c")}, err: "at most three arguments"},
			{args: []cty.Value{str("a"), str("a"), str("b")}, err: "lookup needs a map or an object, not string"},
			// A null default, as Terraform allows.
			{args: []cty.Value{m, str("z"), cty.NullVal(cty.DynamicPseudoType)}, want: cty.NullVal(cty.String)},
			{args: []cty.Value{m, str("a"), cty.NullVal(cty.DynamicPseudoType)}, want: str("x")},
			{args: []cty.Value{obj(map[string]cty.Value{"a": num(1)}), str("b"), cty.NullVal(cty.DynamicPseudoType)}, want: cty.NullVal(cty.DynamicPseudoType)},
			{args: []cty.Value{m, str("z"), secret(str("d"))}, want: secret(str("d"))},
			{args: []cty.Value{m, str("z"), strs("d")}, err: "the default value must have the type of the map's elements, string"},
			{args: []cty.Value{str("a"), str("a")}, err: "lookup needs a map or an object, not string"},
		},
		"coalesce": {
			{args: []cty.Value{str(""), str("b")}, want: str("b")},
			{args: []cty.Value{cty.NullVal(cty.String), str("ﬄ")}, want: str("ﬄ")},
			{args: []cty.Value{num(1), str("2")}, want: str("1")},
			{args: []cty.Value{str("a"), cty.UnknownVal(cty.String)}, want: str("a")},
			{args: []cty.Value{cty.UnknownVal(cty.String), str("a")}, want: cty.UnknownVal(cty.String).RefineNotNull()},
			{args: []cty.Value{str(""), secret(str("s"))}, want: secret(str("s"))},
			{args: []cty.Value{cty.NullVal(cty.String), str("")}, err: "all arguments are null or empty strings"},
			{args: []cty.Value{num(1), strs("a")}, err: "all arguments must have the same type"},
		},
		"index": {
			{args: []cty.Value{strs("a", "b"), str("b")}, want: num(1)},
			{args: []cty.Value{tuple(str("👍🏽"), num(2)), num(2)}, want: num(1)},
			{args: []cty.Value{list(cty.UnknownVal(cty.String), str("b")), str("b")}, want: cty.UnknownVal(cty.Number).Refine().NotNull().NumberRangeLowerBound(cty.Zero, true).NewValue()},
			{args: []cty.Value{list(str("b"), cty.UnknownVal(cty.String)), str("b")}, want: num(0)},
			{args: []cty.Value{strs("a"), str("z")}, err: "the value is not an element of the list"},
			{args: []cty.Value{cty.ListValEmpty(cty.String), str("z")}, err: "cannot search an empty list"},
			{args: []cty.Value{m, str("x")}, err: "index searches a list or tuple, not map of string"},
			{args: []cty.Value{strs("a", "b"), secret(str("b"))}, want: secret(num(1))},
		},
		"one": {
			{args: []cty.Value{strs("a")}, want: str("a")},
			{args: []cty.Value{cty.ListValEmpty(cty.String)}, want: cty.NullVal(cty.String)},
			{args: []cty.Value{cty.EmptyTupleVal}, want: cty.NullVal(cty.DynamicPseudoType)},
			{args: []cty.Value{cty.SetVal(strVals([]string{"a"}))}, want: str("a")},
			{args: []cty.Value{cty.SetVal([]cty.Value{cty.UnknownVal(cty.String)})}, want: cty.UnknownVal(cty.String)},
			{args: []cty.Value{strs("a", "b")}, err: "one needs a collection of at most one element, but this one has 2"},
			{args: []cty.Value{tuple(str("a"), str("b"))}, err: "but this one has 2"},
			{args: []cty.Value{str("a")}, err: "one needs a list, set or tuple, not string"},
		},
		"singleornone": {
			{args: []cty.Value{strs("ﬄ")}, want: str("ﬄ")},
			{args: []cty.Value{cty.ListValEmpty(cty.String)}, want: cty.NullVal(cty.String)},
			{args: []cty.Value{strs("a", "b", "c")}, err: "expected a list of 0 or 1 elements, got 3"},
			{args: []cty.Value{secret(strs("a"))}, want: secret(str("a"))},
		},
		"select": {
			{args: []cty.Value{num(0), strs("a", "b")}, want: str("a")},
			{args: []cty.Value{num(1), tuple(str("a"), num(2))}, want: num(2)},
			{args: []cty.Value{num(-1), strs("a")}, err: "index must be a whole number and not negative, not -1"},
			{args: []cty.Value{numf(0.5), strs("a")}, err: "not 0.5"},
			{args: []cty.Value{num(2), strs("a", "b")}, err: "index 2 is out of range: the list has 2 elements, so the last index is 1"},
			{args: []cty.Value{num(2), tuple(str("a"))}, err: "index 2 is out of range"},
			{args: []cty.Value{cty.UnknownVal(cty.Number), tuple(str("a"))}, want: cty.DynamicVal},
			{args: []cty.Value{num(0), str("a")}, err: "select picks from a list or tuple, not string"},
		},
		"alltrue": {
			{args: []cty.Value{cty.ListValEmpty(cty.Bool)}, want: cty.True},
			{args: []cty.Value{list(cty.True, cty.False)}, want: cty.False},
			{args: []cty.Value{list(cty.True, cty.NullVal(cty.Bool))}, want: cty.False},
			{args: []cty.Value{list(cty.True, cty.UnknownVal(cty.Bool))}, want: cty.UnknownVal(cty.Bool).RefineNotNull()},
			{args: []cty.Value{list(cty.UnknownVal(cty.Bool), cty.False)}, want: cty.False},
		},
		"anytrue": {
			{args: []cty.Value{cty.ListValEmpty(cty.Bool)}, want: cty.False},
			{args: []cty.Value{list(cty.False, cty.NullVal(cty.Bool))}, want: cty.False},
			{args: []cty.Value{list(cty.UnknownVal(cty.Bool), cty.True)}, want: cty.True},
			{args: []cty.Value{list(cty.False, cty.UnknownVal(cty.Bool))}, want: cty.UnknownVal(cty.Bool).RefineNotNull()},
			{args: []cty.Value{list(secret(cty.True))}, want: secret(cty.True)},
		},
		"matchkeys": {
			{args: []cty.Value{strs("i-1", "i-2", "i-3"), strs("us", "eu", "us"), strs("us")}, want: strs("i-1", "i-3")},
			{args: []cty.Value{strs("a"), list(num(1)), strs("1")}, want: strs("a")},
			{args: []cty.Value{strs("a"), strs("x"), strs("y")}, want: cty.ListValEmpty(cty.String)},
			{args: []cty.Value{strs("a"), list(cty.UnknownVal(cty.String)), strs("y")}, want: cty.UnknownVal(cty.List(cty.String)).RefineNotNull()},
			{args: []cty.Value{strs("a", "b"), strs("x"), strs("x")}, err: "keys must have as many elements as values, but it has 1 and values 2"},
			{args: []cty.Value{strs("a"), strs("x"), list(strs("x"))}, err: "searchset must have the same element type as keys"},
		},
		"transpose": {
			{args: []cty.Value{cty.MapVal(map[string]cty.Value{"a": strs("1", "2"), "b": strs("2", "3")})}, want: cty.MapVal(map[string]cty.Value{"1": strs("a"), "2": strs("a", "b"), "3": strs("b")})},
			{args: []cty.Value{cty.MapValEmpty(cty.List(cty.String))}, want: cty.MapValEmpty(cty.List(cty.String))},
			{args: []cty.Value{cty.MapVal(map[string]cty.Value{"ü": strs("👍🏽")})}, want: cty.MapVal(map[string]cty.Value{"👍🏽": strs("ü")})},
			{args: []cty.Value{cty.MapVal(map[string]cty.Value{"a": cty.NullVal(cty.List(cty.String))})}, err: `the list of key "a" is null`},
			{args: []cty.Value{cty.MapVal(map[string]cty.Value{"a": list(cty.UnknownVal(cty.String))})}, want: cty.UnknownVal(cty.Map(cty.List(cty.String))).RefineNotNull()},
		},
		"sum": {
			{args: []cty.Value{list(num(1), numf(2.5))}, want: numf(3.5)},
			{args: []cty.Value{tuple(num(1), num(2))}, want: num(3)},
			{args: []cty.Value{cty.SetVal([]cty.Value{num(1), num(2)})}, want: num(3)},
			{args: []cty.Value{list(num(1), cty.UnknownVal(cty.Number))}, want: cty.UnknownVal(cty.Number).RefineNotNull()},
			{args: []cty.Value{list(num(1), secret(num(2)))}, want: secret(num(3))},
			{args: []cty.Value{cty.ListValEmpty(cty.Number)}, err: "cannot sum an empty list"},
			{args: []cty.Value{list(num(1), cty.NullVal(cty.Number))}, err: "element 1 is null"},
			{args: []cty.Value{strs("1")}, err: "sum adds numbers only, not string; convert the elements with tonumber"},
			{args: []cty.Value{num(1)}, err: "sum needs a list, set or tuple of numbers, not number"},
		},
	})
}
