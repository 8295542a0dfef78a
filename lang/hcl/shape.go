package hcl

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/cairn-iac/cairn/engine/schema"
)

// shape is how an object a schema describes is written in HCL: its
// properties by their snake_case names, the ones that nested blocks may
// give, and the required ones. An open shape (no schema) takes any argument
// and names it by the rule (override_special is overrideSpecial).
type shape struct {
	fields map[string]*field // by HCL name; nil: open
	types  *types
}

// field is one property of a shape.
type field struct {
	name     string // as the schema spells it
	ts       schema.TypeSpec
	required bool
	block    *shape // the shape of the objects nested blocks give; nil: an argument only
	list     bool   // repeated blocks make a list
	// A Terraform provider's nested blocks are blocks only; with a map
	// nesting each has a key label, and the blocks make an object by key.
	// minItems and maxItems bound how many there are (0: no bound).
	blockOnly, labelled bool
	minItems, maxItems  int
}

// types makes the shapes of one package's object and resource types, each
// once: a stack of 100,000 resources of one type shares one pair of shapes.
type types struct {
	pkg       *schema.Package
	terraform bool // a Terraform provider's: blocks are its nested blocks only
	memo      map[string]*shape
	resources map[string]shapes // by resource token
}

func newTypes(pkg *schema.Package) *types {
	return &types{pkg: pkg, memo: map[string]*shape{}, resources: map[string]shapes{},
		terraform: pkg != nil && schema.TerraformOf(pkg.Language) != nil}
}

// resource returns the shapes of a resource type's inputs and outputs.
func (ts *types) resource(token string) shapes {
	if sh, ok := ts.resources[token]; ok {
		return sh
	}
	res := ts.pkg.Resources[token]
	sh := shapes{ts.object(res.InputProperties, res.RequiredInputs), ts.object(res.Properties, nil)}
	ts.resources[token] = sh
	return sh
}

// openShape takes any argument.
var openShape = &shape{types: newTypes(nil)}

// object returns the shape of an object with these properties.
func (ts *types) object(props map[string]*schema.Property, required []string) *shape {
	s := &shape{fields: map[string]*field{}, types: ts}
	ts.fill(s, props, required)
	return s
}

func (ts *types) fill(s *shape, props map[string]*schema.Property, required []string) {
	for name, p := range props {
		f := &field{name: name, ts: p.TypeSpec}
		for _, r := range required {
			f.required = f.required || r == name
		}
		tf := schema.TerraformOf(p.Language)
		switch {
		case ts.terraform && tf != nil && tf.Nesting != "":
			ref := p.Ref
			if p.Items != nil {
				ref = p.Items.Ref
			} else if p.AdditionalProperties != nil {
				ref = p.AdditionalProperties.Ref
			}
			f.block, f.blockOnly, f.required = ts.ref(ref), true, false
			f.list, f.labelled = tf.Nesting == "list" || tf.Nesting == "set", tf.Nesting == "map"
			f.minItems, f.maxItems = tf.MinItems, tf.MaxItems
		case ts.terraform:
		case ts.objectType(p.TypeSpec) != nil:
			f.block = ts.ref(p.Ref)
		case p.Type == "array" && p.Items != nil && ts.objectType(*p.Items) != nil:
			f.block, f.list = ts.ref(p.Items.Ref), true
		}
		s.fields[schema.SnakeCase(name)] = f
	}
}

// objectType returns the object type (not an enum) a type spec refers to.
func (ts *types) objectType(t schema.TypeSpec) *schema.ObjectTyp {
	if ts.pkg == nil || !strings.HasPrefix(t.Ref, "#/types/") {
		return nil
	}
	obj := ts.pkg.Types[strings.TrimPrefix(t.Ref, "#/types/")]
	if obj == nil || len(obj.Enum) > 0 {
		return nil
	}
	return obj
}

// ref returns the shape of the object type named by a reference.
func (ts *types) ref(ref string) *shape {
	if s, ok := ts.memo[ref]; ok {
		return s
	}
	s := &shape{fields: map[string]*field{}, types: ts}
	ts.memo[ref] = s // before filling: types may be recursive
	obj := ts.objectType(schema.TypeSpec{Ref: ref})
	ts.fill(s, obj.Properties, obj.Required)
	return s
}

// bodySchema is the schema of a block body of the shape.
func (s *shape) bodySchema() *hcl.BodySchema {
	out := &hcl.BodySchema{}
	for name, f := range s.fields {
		if !f.blockOnly {
			out.Attributes = append(out.Attributes, hcl.AttributeSchema{Name: name, Required: f.required && f.block == nil})
		}
		switch {
		case f.labelled:
			out.Blocks = append(out.Blocks, hcl.BlockHeaderSchema{Type: name, LabelNames: []string{"key"}})
		case f.block != nil:
			out.Blocks = append(out.Blocks, hcl.BlockHeaderSchema{Type: name})
		}
	}
	return out
}

// names returns the HCL names of the shape's fields.
func (s *shape) names() []string {
	out := make([]string, 0, len(s.fields))
	for n := range s.fields {
		out = append(out, n)
	}
	return out
}

// field returns the field an argument or object key names: by its HCL
// name, or by the schema's.
func (s *shape) field(name string) *field {
	if f := s.fields[name]; f != nil {
		return f
	}
	for _, f := range s.fields {
		if f.name == name {
			return f
		}
	}
	return nil
}

// convert converts a value written in HCL to what the schema expects: the
// properties of objects of the package's types take the schema's names,
// and primitives are converted to the property's type. Unknown and null
// values, and values of types the schema does not pin down, pass as they
// are.
func (ts *types) convert(v cty.Value, t schema.TypeSpec) (cty.Value, error) {
	plain, marks := v.Unmark()
	if !plain.IsKnown() || plain.IsNull() {
		return v, nil
	}
	ty := plain.Type()
	var out cty.Value
	var err error
	switch {
	case ts.objectType(t) != nil && (ty.IsObjectType() || ty.IsMapType()):
		out, err = ts.convertObject(plain, ts.ref(t.Ref))
	case t.Type == "array" && t.Items != nil && (ty.IsListType() || ty.IsTupleType() || ty.IsSetType()):
		out, err = ts.convertElems(plain, func(_ string, e cty.Value) (string, cty.Value, error) {
			e, err := ts.convert(e, *t.Items)
			return "", e, err
		})
	case t.Type == "object" && t.AdditionalProperties != nil && (ty.IsObjectType() || ty.IsMapType()):
		out, err = ts.convertElems(plain, func(k string, e cty.Value) (string, cty.Value, error) {
			e, err := ts.convert(e, *t.AdditionalProperties)
			return k, e, err
		})
	default:
		want, ok := primitive(ts.enumOr(t))
		if !ok {
			return v, nil
		}
		if out, err = convert.Convert(plain, want); err != nil {
			return cty.NilVal, err
		}
	}
	if err != nil {
		return cty.NilVal, err
	}
	return out.WithMarks(marks), nil
}

// convertObject renames the keys of an object after the fields of s.
func (ts *types) convertObject(v cty.Value, s *shape) (cty.Value, error) {
	return ts.convertElems(v, func(k string, e cty.Value) (string, cty.Value, error) {
		f := s.field(k)
		if f == nil {
			return k, e, nil
		}
		e, err := ts.convert(e, f.ts)
		return f.name, e, err
	})
}

// convertElems rebuilds a collection element by element: a map or object
// as an object under the keys f returns, anything else as a tuple. Errors
// name the element.
func (ts *types) convertElems(v cty.Value, f func(k string, e cty.Value) (string, cty.Value, error)) (cty.Value, error) {
	keyed := v.Type().IsObjectType() || v.Type().IsMapType()
	attrs := map[string]cty.Value{}
	var elems []cty.Value
	i := 0
	for it := v.ElementIterator(); it.Next(); i++ {
		k, e := it.Element()
		key := fmt.Sprint(i)
		if keyed {
			key = k.AsString()
		}
		name, e, err := f(key, e)
		if err != nil {
			return cty.NilVal, fmt.Errorf("%s: %w", key, err)
		}
		if keyed {
			attrs[name] = e
		} else {
			elems = append(elems, e)
		}
	}
	if keyed {
		return cty.ObjectVal(attrs), nil
	}
	return cty.TupleVal(elems), nil
}

// enumOr returns the type of the enum a type spec refers to, or the spec.
func (ts *types) enumOr(t schema.TypeSpec) schema.TypeSpec {
	if ts.pkg != nil && strings.HasPrefix(t.Ref, "#/types/") {
		if obj := ts.pkg.Types[strings.TrimPrefix(t.Ref, "#/types/")]; obj != nil && len(obj.Enum) > 0 {
			return schema.TypeSpec{Type: obj.Type}
		}
	}
	return t
}

// primitive returns the cty type of a primitive schema type.
func primitive(t schema.TypeSpec) (cty.Type, bool) {
	if t.Ref != "" {
		return cty.NilType, false
	}
	switch t.Type {
	case "string":
		return cty.String, true
	case "number", "integer":
		return cty.Number, true
	case "boolean":
		return cty.Bool, true
	}
	return cty.NilType, false
}
