package funcs

import (
	"errors"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/eval/values"
)

// selfGuarded are the functions that guarded must leave alone: try and can
// take expressions, not values, and the secret functions handle every mark
// and unknown themselves.
var selfGuarded = map[string]bool{
	"can": true, "try": true,
	"issensitive": true, "nonsensitive": true, "secret": true, "sensitive": true, "unsecret": true,
}

// guardAll guards the functions of fns, except the self-guarded ones.
func guardAll(fns map[string]function.Function) {
	for name, f := range fns {
		if !selfGuarded[name] {
			fns[name] = guarded(f)
		}
	}
}

// guarded returns f following three rules of this library that the
// functions of go-cty's and go-cty-yaml's libraries do not all follow, and
// that the table applies to every function so that each need not: an error
// about a secret argument does not repeat it (some messages quote the value
// they could not use); an unknown result from an unknown secret argument is
// secret (for parameters that allow marks, cty returns early unknowns
// without them); and an argument of unknown type gives an unknown result
// rather than an error (the type checks of some functions panic on
// cty.DynamicVal).
func guarded(f function.Function) function.Function {
	params := f.Params()
	for i := range params {
		params[i] = passThrough(params[i])
	}
	var varParam *function.Parameter
	if vp := f.VarParam(); vp != nil {
		p := passThrough(*vp)
		varParam = &p
	}
	return function.New(&function.Spec{
		Description: f.Description(),
		Params:      params,
		VarParam:    varParam,
		Type: func(args []cty.Value) (cty.Type, error) {
			ty, err := f.ReturnTypeForValues(args)
			if isPanic(err) && anyOf(args, isDynamic) {
				return cty.DynamicPseudoType, nil
			}
			return ty, redact(args, err)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			v, err := f.Call(args)
			switch {
			case isPanic(err) && anyOf(args, isDynamic):
				return cty.DynamicVal.WithMarks(marksOf(args)), nil
			case err != nil:
				return cty.NilVal, redact(args, err)
			case anyOf(args, isUnknown):
				return v.WithMarks(marksOf(args)), nil
			}
			return v, nil
		},
	})
}

// passThrough returns p allowing everything, so that every argument reaches
// the wrapped function, which checks it itself.
func passThrough(p function.Parameter) function.Parameter {
	p.AllowMarked = true
	p.AllowUnknown = true
	p.AllowNull = true
	p.AllowDynamicType = true
	return p
}

func isPanic(err error) bool { return errors.As(err, new(function.PanicError)) }

func isDynamic(v cty.Value) bool { return v.Type() == cty.DynamicPseudoType }

func isUnknown(v cty.Value) bool { return !v.IsKnown() }

func anyOf(args []cty.Value, pred func(cty.Value) bool) bool {
	for _, a := range args {
		if pred(a) {
			return true
		}
	}
	return false
}

// marksOf returns the marks of the arguments and of every value in them.
func marksOf(args []cty.Value) cty.ValueMarks {
	var all []any
	for _, a := range args {
		_, marks := a.UnmarkDeep()
		all = append(all, marks)
	}
	return cty.NewValueMarks(all...)
}

// redact replaces err if the argument it is about (or any argument, when it
// is about none) is secret.
func redact(args []cty.Value, err error) error {
	if err == nil {
		return nil
	}
	var argErr function.ArgError
	if errors.As(err, &argErr) && argErr.Index < len(args) {
		if args[argErr.Index].HasMarkDeep(values.Secret) {
			return function.NewArgErrorf(argErr.Index, "the value is not valid here; the details are hidden because it is secret")
		}
		return err
	}
	if anyOf(args, func(a cty.Value) bool { return a.HasMarkDeep(values.Secret) }) {
		return errors.New("the function cannot use its arguments; the details are hidden because an argument is secret")
	}
	return err
}
