package tfplugin

import (
	"fmt"
	"slices"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	"github.com/zclconf/go-cty/cty/msgpack"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// Values cross between the engine and a provider as cty values of the
// schema's implied type, encoded with msgpack. Unknowns are cty unknowns;
// secrets cannot cross (the protocol has no marks), so the paths of the
// secrets of what goes in are kept, and what comes back is secret there
// and wherever the schema says an attribute is sensitive.

// toCty converts an engine value to a cty value of type ty. The paths of
// the secrets it holds are added to secrets (cut short at a set, whose
// elements have no stable position).
func toCty(v resource.Value, ty cty.Type, path resource.Path, secrets *[]resource.Path) (cty.Value, error) {
	switch {
	case v.IsSecret():
		*secrets = append(*secrets, slices.Clone(path))
		return toCty(v.SecretElement(), ty, path, secrets)
	case v.IsOutput():
		o := v.OutputValue()
		if o.Secret {
			*secrets = append(*secrets, slices.Clone(path))
		}
		if !o.Known {
			return cty.UnknownVal(ty), nil
		}
		return toCty(o.Element, ty, path, secrets)
	case v.IsUnknown():
		return cty.UnknownVal(ty), nil
	case v.IsNull():
		return cty.NullVal(ty), nil
	case v.IsRef():
		return toCty(v.RefValue().ID, ty, path, secrets)
	case v.IsAsset() || v.IsArchive():
		return cty.NilVal, pathError(path, "assets and archives cannot be given to a Terraform provider")
	case ty == cty.DynamicPseudoType:
		return inferCty(v, path, secrets)
	case ty.IsPrimitiveType():
		return primitive(v, ty, path)
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		if !v.IsArray() {
			return cty.NilVal, pathError(path, "a list is required, not %s", describe(v))
		}
		elems := v.ArrayValue()
		if ty.IsTupleType() && len(elems) != len(ty.TupleElementTypes()) {
			return cty.NilVal, pathError(path, "a list of %d elements is required", len(ty.TupleElementTypes()))
		}
		out := make([]cty.Value, len(elems))
		for i, e := range elems {
			var et cty.Type
			switch {
			case ty.IsTupleType():
				et = ty.TupleElementTypes()[i]
			default:
				et = ty.ElementType()
			}
			ep := append(path, i)
			if ty.IsSetType() {
				var inner []resource.Path
				c, err := toCty(e, et, ep, &inner)
				if err != nil {
					return cty.NilVal, err
				}
				if len(inner) > 0 {
					*secrets = append(*secrets, slices.Clone(path))
				}
				out[i] = c
				continue
			}
			c, err := toCty(e, et, ep, secrets)
			if err != nil {
				return cty.NilVal, err
			}
			out[i] = c
		}
		switch {
		case ty.IsTupleType():
			return cty.TupleVal(out), nil
		case len(out) == 0 && ty.IsListType():
			return cty.ListValEmpty(ty.ElementType()), nil
		case len(out) == 0:
			return cty.SetValEmpty(ty.ElementType()), nil
		case ty.IsListType():
			return cty.ListVal(out), nil
		}
		return cty.SetVal(out), nil
	case ty.IsMapType() || ty.IsObjectType():
		if !v.IsObject() {
			return cty.NilVal, pathError(path, "an object is required, not %s", describe(v))
		}
		m := v.ObjectValue()
		out := make(map[string]cty.Value, len(m))
		for _, k := range m.SortedKeys() {
			var et cty.Type
			if ty.IsMapType() {
				et = ty.ElementType()
			} else if ty.HasAttribute(k) {
				et = ty.AttributeType(k)
			} else {
				return cty.NilVal, pathError(append(path, k), "there is no such attribute")
			}
			c, err := toCty(m[k], et, append(path, k), secrets)
			if err != nil {
				return cty.NilVal, err
			}
			out[k] = c
		}
		if ty.IsMapType() {
			if len(out) == 0 {
				return cty.MapValEmpty(ty.ElementType()), nil
			}
			return cty.MapVal(out), nil
		}
		for name, at := range ty.AttributeTypes() {
			if _, ok := out[name]; !ok {
				out[name] = cty.NullVal(at)
			}
		}
		return cty.ObjectVal(out), nil
	}
	return cty.NilVal, pathError(path, "values of type %s are not supported", ty.FriendlyName())
}

// inferCty converts an engine value to cty where the schema takes any type
// (dynamic): lists are tuples and objects objects of their elements' types.
func inferCty(v resource.Value, path resource.Path, secrets *[]resource.Path) (cty.Value, error) {
	switch {
	case v.IsString():
		return cty.StringVal(v.StringValue()), nil
	case v.IsNumber():
		return cty.NumberFloatVal(v.NumberValue()), nil
	case v.IsBool():
		return cty.BoolVal(v.BoolValue()), nil
	case v.IsArray():
		out := make([]cty.Value, len(v.ArrayValue()))
		for i, e := range v.ArrayValue() {
			c, err := toCty(e, cty.DynamicPseudoType, append(path, i), secrets)
			if err != nil {
				return cty.NilVal, err
			}
			out[i] = c
		}
		return cty.TupleVal(out), nil
	case v.IsObject():
		out := map[string]cty.Value{}
		for k, e := range v.ObjectValue() {
			c, err := toCty(e, cty.DynamicPseudoType, append(path, k), secrets)
			if err != nil {
				return cty.NilVal, err
			}
			out[k] = c
		}
		return cty.ObjectVal(out), nil
	}
	return toCty(v, cty.DynamicPseudoType, path, secrets)
}

// primitive converts a string, number or bool to the primitive type ty, as
// Terraform converts configuration values ("3" is a number).
func primitive(v resource.Value, ty cty.Type, path resource.Path) (cty.Value, error) {
	var c cty.Value
	switch {
	case v.IsString():
		c = cty.StringVal(v.StringValue())
	case v.IsNumber():
		c = cty.NumberFloatVal(v.NumberValue())
	case v.IsBool():
		c = cty.BoolVal(v.BoolValue())
	default:
		return cty.NilVal, pathError(path, "a %s is required, not %s", ty.FriendlyName(), describe(v))
	}
	out, err := convert.Convert(c, ty)
	if err != nil {
		return cty.NilVal, pathError(path, "%s", err)
	}
	return out, nil
}

func describe(v resource.Value) string {
	switch {
	case v.IsArray():
		return "a list"
	case v.IsObject():
		return "an object"
	case v.IsString():
		return "a string"
	case v.IsNumber():
		return "a number"
	case v.IsBool():
		return "a bool"
	}
	return v.Kind().String()
}

// pathError is an error about the value at path.
func pathError(path resource.Path, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if len(path) == 0 {
		return fmt.Errorf("%s", msg)
	}
	return &valueError{path: slices.Clone(path), msg: msg}
}

// valueError is an error about one property.
type valueError struct {
	path resource.Path
	msg  string
}

func (e *valueError) Error() string { return e.path.String() + ": " + e.msg }

// fromCty converts a cty value to an engine value: nulls among an object's
// attributes are left out.
func fromCty(v cty.Value) resource.Value {
	switch {
	case !v.IsKnown():
		return resource.Unknown()
	case v.IsNull():
		return resource.Value{}
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return resource.String(v.AsString())
	case ty == cty.Number:
		f, _ := v.AsBigFloat().Float64()
		return resource.Number(f)
	case ty == cty.Bool:
		return resource.Bool(v.True())
	case ty.IsObjectType():
		m := resource.Map{}
		for k, e := range v.AsValueMap() {
			if !e.IsNull() {
				m[k] = fromCty(e)
			}
		}
		return resource.Object(m)
	case ty.IsMapType():
		m := resource.Map{}
		for k, e := range v.AsValueMap() {
			m[k] = fromCty(e)
		}
		return resource.Object(m)
	}
	var elems []resource.Value
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		elems = append(elems, fromCty(e))
	}
	return resource.Array(elems...)
}

// stateToEngine converts an object of a block's type to a property map,
// with the values of sensitive attributes made secret.
func stateToEngine(b *block, v cty.Value) resource.Map {
	out := fromCty(v).ObjectValue()
	markSensitive(b.GetAttributes(), out)
	for _, nb := range b.GetBlockTypes() {
		bv, ok := out[nb.GetTypeName()]
		if !ok {
			continue
		}
		eachEngine(bv, nb.GetNesting() == tfplugin6.Schema_NestedBlock_SINGLE || nb.GetNesting() == tfplugin6.Schema_NestedBlock_GROUP,
			func(m resource.Map) { markBlock(nb.GetBlock(), m) })
	}
	return out
}

// markBlock makes the sensitive attributes of a nested block's object
// secret, in place.
func markBlock(b *block, m resource.Map) {
	markSensitive(b.GetAttributes(), m)
	for _, nb := range b.GetBlockTypes() {
		if bv, ok := m[nb.GetTypeName()]; ok {
			eachEngine(bv, nb.GetNesting() == tfplugin6.Schema_NestedBlock_SINGLE || nb.GetNesting() == tfplugin6.Schema_NestedBlock_GROUP,
				func(m resource.Map) { markBlock(nb.GetBlock(), m) })
		}
	}
}

// markSensitive makes the values of sensitive attributes secret, those
// of nested attributes included, in place.
func markSensitive(attrs []*attr, m resource.Map) {
	for _, a := range attrs {
		v, ok := m[a.GetName()]
		switch {
		case !ok:
		case a.GetSensitive():
			m[a.GetName()] = resource.MakeSecret(v)
		case a.GetNestedType() != nil:
			eachEngine(v, a.GetNestedType().GetNesting() == tfplugin6.Schema_Object_SINGLE,
				func(m resource.Map) { markSensitive(a.GetNestedType().GetAttributes(), m) })
		}
	}
}

// eachEngine calls f with the object of a single nested value, or with
// each object of a collection of them.
func eachEngine(v resource.Value, single bool, f func(resource.Map)) {
	switch {
	case single && v.IsObject():
		f(v.ObjectValue())
	case v.IsArray():
		for _, e := range v.ArrayValue() {
			if e.IsObject() {
				f(e.ObjectValue())
			}
		}
	case v.IsObject():
		for _, e := range v.ObjectValue() {
			if e.IsObject() {
				f(e.ObjectValue())
			}
		}
	}
}

// markPaths makes the values at paths secret, in place; a path that does
// not lead anywhere marks what it leads to before it stops.
func markPaths(m resource.Map, paths []resource.Path) {
	for _, p := range paths {
		if len(p) == 0 {
			continue
		}
		key, ok := p[0].(string)
		if !ok {
			continue
		}
		if v, ok := m[key]; ok {
			m[key] = markAt(v, p[1:])
		}
	}
}

func markAt(v resource.Value, p resource.Path) resource.Value {
	if v.IsSecret() {
		return v
	}
	if len(p) > 0 {
		switch k := p[0].(type) {
		case string:
			if v.IsObject() {
				if e, ok := v.ObjectValue()[k]; ok {
					m := v.ObjectValue().Copy()
					m[k] = markAt(e, p[1:])
					return resource.Object(m)
				}
			}
		case int:
			if v.IsArray() && k < len(v.ArrayValue()) {
				elems := slices.Clone(v.ArrayValue())
				elems[k] = markAt(elems[k], p[1:])
				return resource.Array(elems...)
			}
		}
	}
	if v.IsNull() {
		return v
	}
	return resource.MakeSecret(v)
}

// encode encodes a value of type ty for the wire.
func encode(v cty.Value, ty cty.Type) (*tfplugin6.DynamicValue, error) {
	data, err := msgpack.Marshal(v, ty)
	if err != nil {
		return nil, err
	}
	return &tfplugin6.DynamicValue{Msgpack: data}, nil
}

// decode decodes a value of type ty from the wire: msgpack, else JSON,
// else null.
func decode(d *tfplugin6.DynamicValue, ty cty.Type) (cty.Value, error) {
	switch {
	case len(d.GetMsgpack()) > 0:
		return msgpack.Unmarshal(d.GetMsgpack(), ty)
	case len(d.GetJson()) > 0:
		return ctyjson.Unmarshal(d.GetJson(), ty)
	}
	return cty.NullVal(ty), nil
}

// rawJSON is a stored state as JSON for UpgradeResourceState: typed by the
// current schema when it fits (so that values of dynamic attributes carry
// their types), else as the values are.
func rawJSON(state resource.Map, ty cty.Type) ([]byte, error) {
	var secrets []resource.Path
	if v, err := toCty(resource.Object(state), ty, nil, &secrets); err == nil && v.IsWhollyKnown() {
		return ctyjson.Marshal(v, ty)
	}
	v, err := inferCty(resource.Object(state.Unsecret()), nil, &secrets)
	if err != nil {
		return nil, err
	}
	return ctyjson.Marshal(v, v.Type())
}
