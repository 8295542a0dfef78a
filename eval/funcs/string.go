package funcs

import (
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// unaryFunc returns a function of one string whose result, of type ty, is
// never null. Its argument may be neither null nor unknown (the result is
// then unknown), and its marks pass to the result. An error of impl is
// reported against the argument.
func unaryFunc(description, param string, ty cty.Type, impl func(string) (cty.Value, error)) function.Function {
	return function.New(&function.Spec{
		Description:  description,
		Params:       []function.Parameter{{Name: param, Type: cty.String}},
		Type:         function.StaticReturnType(ty),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			out, err := impl(args[0].AsString())
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			return out, nil
		},
	})
}

// stringFunc returns a unaryFunc from one string to another.
func stringFunc(description, param string, impl func(string) (string, error)) function.Function {
	return unaryFunc(description, param, cty.String, func(s string) (cty.Value, error) {
		out, err := impl(s)
		return cty.StringVal(out), err
	})
}

// ReplaceFunc replaces each occurrence of a substring in a string. A
// substring written between slashes ("/[0-9]+/") is a regular expression,
// and the replacement may then refer to its capture groups as $1 or ${name}.
var ReplaceFunc = function.New(&function.Spec{
	Description: "Replaces each occurrence of a substring, or of a regular expression written between slashes, in a string.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
		{Name: "substr", Type: cty.String},
		{Name: "replace", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		substr := args[1].AsString()
		if len(substr) > 1 && strings.HasPrefix(substr, "/") && strings.HasSuffix(substr, "/") {
			out, err := stdlib.RegexReplace(args[0], cty.StringVal(substr[1:len(substr)-1]), args[2])
			if err != nil {
				return cty.NilVal, function.NewArgError(1, err)
			}
			return out, nil
		}
		return stdlib.Replace(args[0], args[1], args[2])
	},
})

// StartsWithFunc reports whether a string starts with a prefix. It is known
// even for an unknown string when the string's known prefix decides it.
var StartsWithFunc = function.New(&function.Spec{
	Description: "Reports whether a string starts with the given prefix.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String, AllowUnknown: true},
		{Name: "prefix", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		prefix := args[1].AsString()
		if args[0].IsKnown() {
			return cty.BoolVal(strings.HasPrefix(args[0].AsString(), prefix)), nil
		}
		known := args[0].Range().StringPrefix()
		switch {
		case strings.HasPrefix(known, prefix):
			return cty.True, nil
		case strings.HasPrefix(prefix, known):
			return cty.UnknownVal(cty.Bool), nil
		}
		return cty.False, nil
	},
})

// EndsWithFunc reports whether a string ends with a suffix.
var EndsWithFunc = stringPredicate("Reports whether a string ends with the given suffix.", "suffix", strings.HasSuffix)

// StrContainsFunc reports whether a string contains a substring.
var StrContainsFunc = stringPredicate("Reports whether a string contains the given substring.", "substr", strings.Contains)

// stringPredicate returns a function reporting whether pred holds of a
// string and a second string argument named param.
func stringPredicate(description, param string, pred func(s, arg string) bool) function.Function {
	return function.New(&function.Spec{
		Description: description,
		Params: []function.Parameter{
			{Name: "str", Type: cty.String},
			{Name: param, Type: cty.String},
		},
		Type:         function.StaticReturnType(cty.Bool),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.BoolVal(pred(args[0].AsString(), args[1].AsString())), nil
		},
	})
}
