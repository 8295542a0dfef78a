package funcs

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/ctymarks"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/eval/values"
)

// anyValue is the parameter of the functions that work on marks: any value,
// known or not, null or not, marked or not.
var anyValue = function.Parameter{
	Name:             "value",
	Type:             cty.DynamicPseudoType,
	AllowUnknown:     true,
	AllowNull:        true,
	AllowMarked:      true,
	AllowDynamicType: true,
}

// SensitiveFunc marks a value secret (Pulumi YAML's fn::secret).
var SensitiveFunc = function.New(&function.Spec{
	Description: "Marks a value as secret.",
	Params:      []function.Parameter{anyValue},
	Type:        func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return args[0].Mark(values.Secret), nil
	},
})

// NonsensitiveFunc removes the secret marks of a value and of every value
// inside it (Pulumi YAML's fn::unsecret). Its other marks stay. A value that
// is not secret passes unchanged.
var NonsensitiveFunc = function.New(&function.Spec{
	Description: "Removes the secret marks of a value and of the values inside it, revealing it.",
	Params:      []function.Parameter{anyValue},
	Type:        func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return args[0].WrangleMarksDeep(func(mark any, _ cty.Path) (ctymarks.WrangleAction, error) {
			if mark == values.Secret {
				return ctymarks.WrangleDrop, nil
			}
			return nil, nil
		})
	},
})

// IsSensitiveFunc reports whether a value is secret or holds a secret. It is
// unknown for a value not wholly known and not secret so far, which may yet
// turn out secret.
var IsSensitiveFunc = function.New(&function.Spec{
	Description:  "Reports whether a value is secret or holds a secret value.",
	Params:       []function.Parameter{anyValue},
	Type:         function.StaticReturnType(cty.Bool),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		deps := depsOf(v)
		switch {
		case v.HasMarkDeep(values.Secret):
			return cty.True.WithMarks(deps), nil
		case !v.IsWhollyKnown():
			return cty.UnknownVal(cty.Bool).WithMarks(deps), nil
		}
		return cty.False.WithMarks(deps), nil
	},
})

// EphemeralAsNullFunc replaces the ephemeral values in a value (those
// marked values.Ephemeral) with nulls of their types, so that what is left
// may be kept; the rest passes unchanged, with its other marks.
var EphemeralAsNullFunc = function.New(&function.Spec{
	Description: "Replaces the ephemeral values in a value with nulls.",
	Params:      []function.Parameter{anyValue},
	Type:        func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v, pvms := args[0].UnmarkDeepWithPaths()
		var ephemeral []cty.Path
		kept := pvms[:0:0]
		for _, pvm := range pvms {
			if _, ok := pvm.Marks[values.Ephemeral]; ok {
				ephemeral = append(ephemeral, pvm.Path)
				delete(pvm.Marks, values.Ephemeral)
			}
			if len(pvm.Marks) > 0 {
				kept = append(kept, pvm)
			}
		}
		out, err := cty.Transform(v, func(p cty.Path, v cty.Value) (cty.Value, error) {
			for _, e := range ephemeral {
				if p.Equals(e) {
					return cty.NullVal(v.Type()), nil
				}
			}
			return v, nil
		})
		if err != nil {
			return cty.NilVal, err
		}
		return out.MarkWithPaths(kept), nil
	},
})
