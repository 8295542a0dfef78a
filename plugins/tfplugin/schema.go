package tfplugin

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// A block's value is an object of its attributes and nested blocks; these
// functions give its type (the schema's implied type, which values are
// encoded with), build the proposed new state a plan starts from, and fill
// in what configuration leaves out.

type (
	block  = tfplugin6.Schema_Block
	attr   = tfplugin6.Schema_Attribute
	nested = tfplugin6.Schema_NestedBlock
	object = tfplugin6.Schema_Object
)

// blockType returns the implied type of a block.
func blockType(b *block) (cty.Type, error) {
	attrs := map[string]cty.Type{}
	for _, a := range b.GetAttributes() {
		t, err := attrType(a)
		if err != nil {
			return cty.NilType, err
		}
		attrs[a.GetName()] = t
	}
	for _, nb := range b.GetBlockTypes() {
		t, err := blockType(nb.GetBlock())
		if err != nil {
			return cty.NilType, fmt.Errorf("block %s: %w", nb.GetTypeName(), err)
		}
		switch nb.GetNesting() {
		case tfplugin6.Schema_NestedBlock_LIST:
			if t.HasDynamicTypes() {
				t = cty.DynamicPseudoType // a tuple of any length
			} else {
				t = cty.List(t)
			}
		case tfplugin6.Schema_NestedBlock_SET:
			t = cty.Set(t)
		case tfplugin6.Schema_NestedBlock_MAP:
			if t.HasDynamicTypes() {
				t = cty.DynamicPseudoType // an object of any attributes
			} else {
				t = cty.Map(t)
			}
		}
		attrs[nb.GetTypeName()] = t
	}
	return cty.Object(attrs), nil
}

// attrType returns the type of an attribute: its JSON type, or the type of
// its nested attributes.
func attrType(a *attr) (cty.Type, error) {
	if o := a.GetNestedType(); o != nil {
		attrs := map[string]cty.Type{}
		for _, na := range o.GetAttributes() {
			t, err := attrType(na)
			if err != nil {
				return cty.NilType, err
			}
			attrs[na.GetName()] = t
		}
		t := cty.Object(attrs)
		switch o.GetNesting() {
		case tfplugin6.Schema_Object_LIST:
			return cty.List(t), nil
		case tfplugin6.Schema_Object_SET:
			return cty.Set(t), nil
		case tfplugin6.Schema_Object_MAP:
			return cty.Map(t), nil
		}
		return t, nil
	}
	t, err := ctyjson.UnmarshalType(a.GetType())
	if err != nil {
		return cty.NilType, fmt.Errorf("attribute %s: invalid type %s: %w", a.GetName(), a.GetType(), err)
	}
	return t, nil
}

// fillBlocks returns a configuration value with its absent nested blocks
// as Terraform decodes them: none of a list, set or map block is an empty
// collection, an absent group block is a block of null attributes.
func fillBlocks(b *block, ty cty.Type, v cty.Value) cty.Value {
	if v.IsNull() || !v.IsKnown() || len(b.GetBlockTypes()) == 0 {
		return v
	}
	attrs := v.AsValueMap()
	for _, nb := range b.GetBlockTypes() {
		name := nb.GetTypeName()
		bt := ty.AttributeType(name)
		bv := attrs[name]
		switch {
		case !bv.IsKnown():
		case bv.IsNull():
			switch {
			case nb.GetNesting() == tfplugin6.Schema_NestedBlock_GROUP:
				bv = fillBlocks(nb.GetBlock(), bt, nullAttrs(bt))
			case bt.IsListType():
				bv = cty.ListValEmpty(bt.ElementType())
			case bt.IsSetType():
				bv = cty.SetValEmpty(bt.ElementType())
			case bt.IsMapType():
				bv = cty.MapValEmpty(bt.ElementType())
			case bt == cty.DynamicPseudoType && nb.GetNesting() == tfplugin6.Schema_NestedBlock_LIST:
				bv = cty.EmptyTupleVal
			case bt == cty.DynamicPseudoType:
				bv = cty.EmptyObjectVal
			}
		default:
			bv = eachElem(nb.GetNesting(), bv, func(e cty.Value) cty.Value { return fillBlocks(nb.GetBlock(), e.Type(), e) })
		}
		attrs[name] = bv
	}
	return cty.ObjectVal(attrs)
}

// nullAttrs returns an object of type ty whose attributes are all null.
func nullAttrs(ty cty.Type) cty.Value {
	attrs := map[string]cty.Value{}
	for name, t := range ty.AttributeTypes() {
		attrs[name] = cty.NullVal(t)
	}
	return cty.ObjectVal(attrs)
}

// eachElem applies f to a nested block's value: the block itself when it
// is single, each element of a collection of blocks otherwise.
func eachElem(nesting tfplugin6.Schema_NestedBlock_NestingMode, v cty.Value, f func(cty.Value) cty.Value) cty.Value {
	if v.IsNull() || !v.IsKnown() {
		return v
	}
	if nesting == tfplugin6.Schema_NestedBlock_SINGLE || nesting == tfplugin6.Schema_NestedBlock_GROUP {
		return f(v)
	}
	ty := v.Type()
	if v.LengthInt() == 0 {
		return v
	}
	var elems []cty.Value
	keyed := map[string]cty.Value{}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		e = f(e)
		elems = append(elems, e)
		if ty.IsMapType() || ty.IsObjectType() {
			keyed[k.AsString()] = e
		}
	}
	switch {
	case ty.IsMapType():
		return cty.MapVal(keyed)
	case ty.IsObjectType():
		return cty.ObjectVal(keyed)
	case ty.IsListType():
		return cty.ListVal(elems)
	case ty.IsSetType():
		return cty.SetVal(elems)
	}
	return cty.TupleVal(elems)
}
