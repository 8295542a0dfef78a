package funcs

import (
	"fmt"
	"math/big"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/cairn-iac/cairn/eval/values"
)

// LengthFunc returns the number of elements of a collection, of attributes
// of an object, or of characters (grapheme clusters) of a string. Only a
// secret mark on the value itself makes the result secret, so the length of
// a list of secrets is not secret; the Dep marks anywhere in the value pass
// to the result.
var LengthFunc = function.New(&function.Spec{
	Description: "Returns the number of elements of a collection or tuple, of attributes of an object, or of characters (grapheme clusters) of a string.",
	Params: []function.Parameter{{
		Name:             "value",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowMarked:      true,
	}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if ty == cty.String || ty == cty.DynamicPseudoType || ty.IsCollectionType() || ty.IsTupleType() || ty.IsObjectType() {
			return cty.Number, nil
		}
		return cty.NilType, function.NewArgErrorf(0, "length needs a string, a collection, a tuple or an object, not %s", ty.FriendlyName())
	},
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull().NumberRangeLowerBound(cty.Zero, true)
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v, marks := args[0].Unmark()
		marks = cty.NewValueMarks(marks, depsOf(v))
		ty := v.Type()
		switch {
		case ty == cty.DynamicPseudoType:
			return cty.UnknownVal(cty.Number).WithMarks(marks), nil
		case ty.IsTupleType():
			return cty.NumberIntVal(int64(len(ty.TupleElementTypes()))).WithMarks(marks), nil
		case ty.IsObjectType():
			return cty.NumberIntVal(int64(len(ty.AttributeTypes()))).WithMarks(marks), nil
		case ty == cty.String:
			n, err := stdlib.Strlen(v)
			return n.WithMarks(marks), err
		}
		return v.Length().WithMarks(marks), nil
	},
})

// depsOf returns the Dep marks found anywhere in v.
func depsOf(v cty.Value) cty.ValueMarks {
	marks := cty.ValueMarks{}
	for d := range cty.ValueMarksOfTypeDeep[values.Dep](v) {
		marks[d] = struct{}{}
	}
	return marks
}

// LookupFunc returns the element of a map or object with a given key, or
// the default given as the third argument when there is none (which may
// be null, as in Terraform). Without a default, a missing key is an error.
var LookupFunc = function.New(&function.Spec{
	Description: "Returns the element of a map or object with the given key, or the default value given as the third argument if there is none.",
	Params: []function.Parameter{
		{Name: "inputMap", Type: cty.DynamicPseudoType, AllowMarked: true, AllowUnknown: true, AllowDynamicType: true},
		{Name: "key", Type: cty.String, AllowMarked: true, AllowUnknown: true, AllowDynamicType: true},
	},
	VarParam: &function.Parameter{Name: "default", Type: cty.DynamicPseudoType, AllowMarked: true, AllowUnknown: true, AllowDynamicType: true, AllowNull: true},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) > 3 {
			return cty.NilType, function.NewArgErrorf(3, "lookup takes at most three arguments: a map, a key and a default value")
		}
		return lookupType(args[0].Type(), args[1], args[2:])
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		m, mapMarks := args[0].Unmark()
		key, keyMarks := args[1].Unmark()
		if !m.IsKnown() || !key.IsKnown() {
			return cty.UnknownVal(retType).WithMarks(mapMarks, keyMarks), nil
		}
		k := key.AsString()
		switch {
		case m.Type().IsObjectType() && m.Type().HasAttribute(k):
			return m.GetAttr(k).WithMarks(mapMarks, keyMarks), nil
		case m.Type().IsMapType() && m.HasIndex(key).True():
			return m.Index(key).WithMarks(mapMarks, keyMarks), nil
		case len(args) < 3:
			return cty.NilVal, missingKey(k)
		}
		def, err := convert.Convert(args[2], retType)
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(2, "the default value must have the type of the map's elements, %s", retType.FriendlyName())
		}
		return def.WithMarks(mapMarks, keyMarks), nil
	},
})

// lookupType returns the type of lookup's result from a value of type ty
// with a key, given a default (def, at most one) or not.
func lookupType(ty cty.Type, key cty.Value, def []cty.Value) (cty.Type, error) {
	key, _ = key.Unmark()
	switch {
	case ty == cty.DynamicPseudoType:
		return cty.DynamicPseudoType, nil
	case ty.IsMapType():
		if len(def) > 0 {
			if _, err := convert.Convert(def[0], ty.ElementType()); err != nil {
				return cty.NilType, function.NewArgErrorf(2, "the default value must have the type of the map's elements, %s", ty.ElementType().FriendlyName())
			}
		}
		return ty.ElementType(), nil
	case !ty.IsObjectType():
		return cty.NilType, function.NewArgErrorf(0, "lookup needs a map or an object, not %s", ty.FriendlyName())
	case !key.IsKnown():
		return cty.DynamicPseudoType, nil
	case ty.HasAttribute(key.AsString()):
		return ty.AttributeType(key.AsString()), nil
	case len(def) > 0:
		return def[0].Type(), nil
	}
	return cty.NilType, missingKey(key.AsString())
}

func missingKey(key string) error {
	return function.NewArgErrorf(1, "the map has no element with the key %q; give a default value as the third argument to use when the key is missing", key)
}

// CoalesceFunc returns the first of its arguments that is neither null nor
// an empty string, converted to the type all the arguments share.
var CoalesceFunc = function.New(&function.Spec{
	Description: "Returns the first of its arguments that is neither null nor an empty string.",
	VarParam: &function.Parameter{
		Name:             "vals",
		Type:             cty.DynamicPseudoType,
		AllowUnknown:     true,
		AllowDynamicType: true,
		AllowNull:        true,
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) == 0 {
			return cty.NilType, fmt.Errorf("coalesce needs at least one argument")
		}
		types := make([]cty.Type, len(args))
		for i, a := range args {
			types[i] = a.Type()
		}
		ty, _ := convert.UnifyUnsafe(types)
		if ty == cty.NilType {
			return cty.NilType, fmt.Errorf("all arguments must have the same type; convert them with tostring, tonumber and the like")
		}
		return ty, nil
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		for i, a := range args {
			v, err := convert.Convert(a, retType)
			if err != nil {
				return cty.NilVal, function.NewArgError(i, err)
			}
			if !v.IsKnown() {
				return cty.UnknownVal(retType), nil
			}
			if v.IsNull() || (retType == cty.String && v.AsString() == "") {
				continue
			}
			return v, nil
		}
		return cty.NilVal, fmt.Errorf("all arguments are null or empty strings; give a fallback value as the last argument")
	},
})

// IndexFunc returns the position of the first element of a list or tuple
// equal to a value.
var IndexFunc = function.New(&function.Spec{
	Description: "Returns the index of the first element of a list or tuple that equals the given value.",
	Params: []function.Parameter{
		{Name: "list", Type: cty.DynamicPseudoType},
		{Name: "value", Type: cty.DynamicPseudoType},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if !ty.IsListType() && !ty.IsTupleType() {
			return cty.NilType, function.NewArgErrorf(0, "index searches a list or tuple, not %s", ty.FriendlyName())
		}
		return cty.Number, nil
	},
	RefineResult: func(b *cty.RefinementBuilder) *cty.RefinementBuilder {
		return b.NotNull().NumberRangeLowerBound(cty.Zero, true)
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if args[0].LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "cannot search an empty list")
		}
		for it := args[0].ElementIterator(); it.Next(); {
			i, e := it.Element()
			eq := e.Equals(args[1])
			if !eq.IsKnown() {
				return cty.UnknownVal(cty.Number), nil
			}
			if eq.True() {
				return i, nil
			}
		}
		return cty.NilVal, function.NewArgErrorf(1, "the value is not an element of the list")
	},
})

// OneFunc returns the only element of a list, set or tuple, or null if it is
// empty; more elements are an error.
var OneFunc = makeOneFunc("one", func(n int) error {
	return fmt.Errorf("one needs a collection of at most one element, but this one has %d; pick one with an index or element()", n)
})

// SingleOrNoneFunc is Pulumi YAML's fn::singleOrNone: OneFunc with its
// error message.
var SingleOrNoneFunc = makeOneFunc("singleornone", func(n int) error {
	return fmt.Errorf("expected a list of 0 or 1 elements, got %d", n)
})

func makeOneFunc(name string, tooMany func(n int) error) function.Function {
	return function.New(&function.Spec{
		Description: "Returns the only element of a list, set or tuple, or null if it is empty.",
		Params:      []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
		Type: func(args []cty.Value) (cty.Type, error) {
			ty := args[0].Type()
			switch {
			case ty.IsListType() || ty.IsSetType():
				return ty.ElementType(), nil
			case ty.IsTupleType():
				switch elems := ty.TupleElementTypes(); len(elems) {
				case 0:
					return cty.DynamicPseudoType, nil
				case 1:
					return elems[0], nil
				default:
					return cty.NilType, function.NewArgError(0, tooMany(len(elems)))
				}
			}
			return cty.NilType, function.NewArgErrorf(0, "%s needs a list, set or tuple, not %s", name, ty.FriendlyName())
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			v := args[0]
			if v.Type().IsSetType() && !v.IsWhollyKnown() {
				return cty.UnknownVal(retType), nil
			}
			switch n := v.LengthInt(); n {
			case 0:
				return cty.NullVal(retType), nil
			case 1:
				it := v.ElementIterator()
				it.Next()
				_, e := it.Element()
				return e, nil
			default:
				return cty.NilVal, function.NewArgError(0, tooMany(n))
			}
		},
	})
}

// SelectFunc is Pulumi YAML's fn::select: the element of a list or tuple at
// an index, which must be a whole number in range (it does not wrap around
// like element).
var SelectFunc = function.New(&function.Spec{
	Description: "Returns the element of a list or tuple at the given index.",
	Params: []function.Parameter{
		{Name: "index", Type: cty.Number},
		{Name: "list", Type: cty.DynamicPseudoType},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[1].Type()
		switch {
		case ty.IsListType():
			return ty.ElementType(), nil
		case ty.IsTupleType():
			if !args[0].IsKnown() {
				return cty.DynamicPseudoType, nil
			}
			elems := ty.TupleElementTypes()
			i, err := selectIndex(args[0], len(elems))
			if err != nil {
				return cty.NilType, err
			}
			return elems[i], nil
		}
		return cty.NilType, function.NewArgErrorf(1, "select picks from a list or tuple, not %s", ty.FriendlyName())
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		i, err := selectIndex(args[0], args[1].LengthInt())
		if err != nil {
			return cty.NilVal, err
		}
		return args[1].Index(cty.NumberIntVal(int64(i))), nil
	},
})

func selectIndex(index cty.Value, n int) (int, error) {
	bf := index.AsBigFloat()
	i, acc := bf.Int64()
	if acc != big.Exact || i < 0 {
		return 0, function.NewArgErrorf(0, "index must be a whole number and not negative, not %s", bf.Text('g', -1))
	}
	if i >= int64(n) {
		return 0, function.NewArgErrorf(0, "index %d is out of range: the list has %d elements, so the last index is %d", i, n, n-1)
	}
	return int(i), nil
}

// AllTrueFunc reports whether every element of a list is true; it is true
// for an empty list.
var AllTrueFunc = makeBoolReduction("Reports whether every element of a list is true (null counts as false).", false)

// AnyTrueFunc reports whether some element of a list is true; it is false
// for an empty list.
var AnyTrueFunc = makeBoolReduction("Reports whether at least one element of a list is true.", true)

// makeBoolReduction returns a function that is decisive as soon as one
// element of its list is decisive, unknown if an element is unknown and
// none is decisive, and otherwise !decisive.
func makeBoolReduction(description string, decisive bool) function.Function {
	return function.New(&function.Spec{
		Description:  description,
		Params:       []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
		Type:         function.StaticReturnType(cty.Bool),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			unknown := false
			for it := args[0].ElementIterator(); it.Next(); {
				_, e := it.Element()
				if !e.IsKnown() {
					unknown = true
					continue
				}
				if (!e.IsNull() && e.True()) == decisive {
					return cty.BoolVal(decisive), nil
				}
			}
			if unknown {
				return cty.UnknownVal(cty.Bool), nil
			}
			return cty.BoolVal(!decisive), nil
		},
	})
}

// MatchKeysFunc returns the elements of values whose corresponding elements
// (at the same index) of keys are in searchset.
var MatchKeysFunc = function.New(&function.Spec{
	Description: "Returns the elements of values whose corresponding elements of keys are in searchset.",
	Params: []function.Parameter{
		{Name: "values", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "keys", Type: cty.List(cty.DynamicPseudoType)},
		{Name: "searchset", Type: cty.List(cty.DynamicPseudoType)},
	},
	Type: func(args []cty.Value) (cty.Type, error) {
		if _, err := matchKeyType(args); err != nil {
			return cty.NilType, err
		}
		return args[0].Type(), nil
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		vals, keys, search := args[0], args[1], args[2]
		if vals.LengthInt() != keys.LengthInt() {
			return cty.NilVal, function.NewArgErrorf(1, "keys must have as many elements as values, but it has %d and values %d", keys.LengthInt(), vals.LengthInt())
		}
		if !keys.IsWhollyKnown() || !search.IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		keyType, _ := matchKeyType(args)
		var out []cty.Value
		for it := keys.ElementIterator(); it.Next(); {
			i, k := it.Element()
			if containsConverted(search, k, keyType) {
				out = append(out, vals.Index(i))
			}
		}
		if len(out) == 0 {
			return cty.ListValEmpty(retType.ElementType()), nil
		}
		return cty.ListVal(out), nil
	},
})

// matchKeyType returns the type both keys and searchset of matchkeys
// convert to.
func matchKeyType(args []cty.Value) (cty.Type, error) {
	ty, _ := convert.UnifyUnsafe([]cty.Type{args[1].Type().ElementType(), args[2].Type().ElementType()})
	if ty == cty.NilType {
		return cty.NilType, function.NewArgErrorf(2, "searchset must have the same element type as keys")
	}
	return ty, nil
}

func containsConverted(list, v cty.Value, ty cty.Type) bool {
	v, _ = convert.Convert(v, ty)
	for it := list.ElementIterator(); it.Next(); {
		_, e := it.Element()
		if e, _ = convert.Convert(e, ty); e.Equals(v).True() {
			return true
		}
	}
	return false
}

// TransposeFunc swaps the keys and the values of a map of lists of strings:
// each string becomes a key whose list holds the keys it was listed under.
var TransposeFunc = function.New(&function.Spec{
	Description:  "Swaps the keys and values of a map of lists of strings.",
	Params:       []function.Parameter{{Name: "values", Type: cty.Map(cty.List(cty.String))}},
	Type:         function.StaticReturnType(cty.Map(cty.List(cty.String))),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		if !args[0].IsWhollyKnown() {
			return cty.UnknownVal(retType), nil
		}
		swapped := map[string][]cty.Value{}
		for it := args[0].ElementIterator(); it.Next(); {
			k, list := it.Element()
			if list.IsNull() {
				return cty.NilVal, function.NewArgErrorf(0, "the list of key %q is null; use an empty list instead", k.AsString())
			}
			for it := list.ElementIterator(); it.Next(); {
				_, v := it.Element()
				if v.IsNull() {
					return cty.NilVal, function.NewArgErrorf(0, "the list of key %q has a null element", k.AsString())
				}
				swapped[v.AsString()] = append(swapped[v.AsString()], k)
			}
		}
		if len(swapped) == 0 {
			return cty.MapValEmpty(retType.ElementType()), nil
		}
		out := make(map[string]cty.Value, len(swapped))
		for k, keys := range swapped {
			out[k] = cty.ListVal(keys)
		}
		return cty.MapVal(out), nil
	},
})

// SumFunc adds up the numbers of a list, set or tuple.
var SumFunc = function.New(&function.Spec{
	Description: "Returns the sum of the numbers in a list, set or tuple.",
	Params:      []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		var elems []cty.Type
		switch {
		case ty.IsListType() || ty.IsSetType():
			elems = []cty.Type{ty.ElementType()}
		case ty.IsTupleType():
			elems = ty.TupleElementTypes()
		default:
			return cty.NilType, function.NewArgErrorf(0, "sum needs a list, set or tuple of numbers, not %s", ty.FriendlyName())
		}
		for _, e := range elems {
			if e != cty.Number && e != cty.DynamicPseudoType {
				return cty.NilType, function.NewArgErrorf(0, "sum adds numbers only, not %s; convert the elements with tonumber", e.FriendlyName())
			}
		}
		return cty.Number, nil
	},
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if args[0].LengthInt() == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "cannot sum an empty list")
		}
		total := cty.Zero
		n := 0
		for it := args[0].ElementIterator(); it.Next(); n++ {
			_, e := it.Element()
			switch {
			case !e.IsKnown():
				return cty.UnknownVal(cty.Number), nil
			case e.IsNull():
				return cty.NilVal, function.NewArgErrorf(0, "element %d is null; sum adds numbers only", n)
			}
			total = total.Add(e)
		}
		return total, nil
	},
})
