package eval

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/eval/values"
)

// assign checks that a value written in the program can be assigned to a
// schema type. Only what is known before the program runs is checked:
// literals, and the elements of list and object constructors.
func (c *checker) assign(e hcl.Expression, ts schema.TypeSpec, pkg *schema.Package, where string) {
	target, obj := resolveTypeSpec(ts, pkg)
	if target.Ref == "pulumi.json#/Any" || target.Ref == "pulumi.json#/Json" || len(target.OneOf) > 0 || isForeignRef(target.Ref) {
		return
	}
	switch e := e.(type) {
	case *hclsyntax.TupleConsExpr:
		if target.Type != "array" {
			c.mismatch(e.Range(), "list", target, pkg, where)
			return
		}
		for _, el := range e.Exprs {
			c.assign(el, *target.Items, pkg, where)
		}
	case *hclsyntax.ObjectConsExpr:
		switch {
		case obj != nil && len(obj.Enum) == 0:
			c.properties(e, typeRefName(target.Ref), "Property", obj.Properties, obj.Required, pkg, e.Range())
		case target.Type == "object" && target.AdditionalProperties != nil:
			for _, item := range e.Items {
				c.assign(item.ValueExpr, *target.AdditionalProperties, pkg, where)
			}
		case target.Type != "object":
			c.mismatch(e.Range(), "object", target, pkg, where)
		}
	default:
		v, ok := constant(e)
		if !ok || v.IsNull() {
			return
		}
		if obj != nil && len(obj.Enum) > 0 {
			c.enum(e.Range(), v, obj, where)
			return
		}
		if obj != nil || !constantAssignable(v, target) {
			c.mismatch(e.Range(), typeOfConstant(v), target, pkg, where)
		}
	}
}

func (c *checker) mismatch(at hcl.Range, from string, to schema.TypeSpec, pkg *schema.Package, where string) {
	c.report(errorDiag(at, fmt.Sprintf("Cannot assign type '%s' to type '%s'", from, displayType(to, pkg)),
		fmt.Sprintf("%s has type '%s'; this value has type '%s'.", where, displayType(to, pkg), from)))
}

func (c *checker) enum(at hcl.Range, v cty.Value, obj *schema.ObjectTyp, where string) {
	allowed := make([]string, len(obj.Enum))
	for i, e := range obj.Enum {
		allowed[i] = fmt.Sprint(e.Value)
		ev, err := convert.Convert(values.FromEngine(resource.FromGo(e.Value)), v.Type())
		if err == nil && ev.RawEquals(v) {
			return
		}
	}
	c.report(errorDiag(at, "Value is not allowed",
		fmt.Sprintf("%s takes one of a fixed set of values. Allowed values are %s.", where, strings.Join(allowed, ", "))))
}

// resolveTypeSpec follows a reference to a type of the package: it returns
// the object type it names, if any.
func resolveTypeSpec(ts schema.TypeSpec, pkg *schema.Package) (schema.TypeSpec, *schema.ObjectTyp) {
	if pkg == nil || !strings.HasPrefix(ts.Ref, "#/types/") {
		return ts, nil
	}
	obj := pkg.Types[strings.TrimPrefix(ts.Ref, "#/types/")]
	if obj == nil {
		return schema.TypeSpec{Ref: "pulumi.json#/Any"}, nil
	}
	if len(obj.Enum) > 0 {
		return schema.TypeSpec{Type: obj.Type, Ref: ts.Ref}, obj
	}
	return ts, obj
}

// isForeignRef reports whether a reference names a type of another package.
func isForeignRef(ref string) bool {
	return ref != "" && !strings.HasPrefix(ref, "#/") && !strings.HasPrefix(ref, "pulumi.json#/")
}

// constant returns the value of a literal expression: a literal, or a
// template of literals.
func constant(e hcl.Expression) (cty.Value, bool) {
	if l, ok := e.(*hclsyntax.LiteralValueExpr); ok {
		return l.Val, true
	}
	if s, ok := literalString(e); ok {
		return cty.StringVal(s), true
	}
	return cty.NilVal, false
}

// constantAssignable reports whether a literal can be given to a property
// of a primitive type, allowing strings that spell the value ("3", "true").
func constantAssignable(v cty.Value, ts schema.TypeSpec) bool {
	want := map[string]cty.Type{"string": cty.String, "number": cty.Number, "integer": cty.Number, "boolean": cty.Bool}
	switch {
	case ts.Ref == "pulumi.json#/Asset" || ts.Ref == "pulumi.json#/Archive":
		return false
	case ts.Type == "array" || ts.Type == "object":
		return false
	}
	ty, ok := want[ts.Type]
	if !ok {
		return true
	}
	cv, err := convert.Convert(v, ty)
	if err != nil {
		return false
	}
	if ts.Type == "integer" {
		return cv.AsBigFloat().IsInt()
	}
	return true
}

func typeOfConstant(v cty.Value) string {
	switch v.Type() {
	case cty.String:
		return "string"
	case cty.Bool:
		return "boolean"
	case cty.Number:
		return "number"
	}
	return v.Type().FriendlyName()
}

// displayType renders a schema type: string, List<string>, Map<number>,
// the name of an object type, Asset, Union<a, b>.
func displayType(ts schema.TypeSpec, pkg *schema.Package) string {
	switch {
	case len(ts.OneOf) > 0:
		parts := make([]string, len(ts.OneOf))
		for i, o := range ts.OneOf {
			parts[i] = displayType(o, pkg)
		}
		return "Union<" + strings.Join(parts, ", ") + ">"
	case ts.Ref != "":
		return typeRefName(ts.Ref)
	case ts.Type == "array" && ts.Items != nil:
		return "List<" + displayType(*ts.Items, pkg) + ">"
	case ts.Type == "object" && ts.AdditionalProperties != nil:
		return "Map<" + displayType(*ts.AdditionalProperties, pkg) + ">"
	}
	return ts.Type
}

// typeRefName names the type a reference refers to.
func typeRefName(ref string) string {
	switch ref {
	case "pulumi.json#/Any", "pulumi.json#/Json":
		return "any"
	case "pulumi.json#/Asset":
		return "Asset"
	case "pulumi.json#/Archive":
		return "Archive"
	}
	return ref[strings.LastIndex(ref, "/")+1:]
}

// markSecrets marks the properties the schema declares secret.
func (rt *resourceType) markSecrets(props cty.Value) cty.Value {
	if rt.schema == nil {
		return props
	}
	plain, marks := props.Unmark()
	if !plain.IsKnown() || plain.IsNull() || !plain.Type().IsObjectType() {
		return props
	}
	attrs := plain.AsValueMap()
	changed := false
	for k, v := range attrs {
		if p := rt.schema.InputProperties[k]; p != nil && p.Secret && !v.HasMark(values.Secret) {
			attrs[k] = v.Mark(values.Secret)
			changed = true
		}
	}
	if !changed {
		return props
	}
	return cty.ObjectVal(attrs).WithMarks(marks)
}

// value returns a resource's value: its outputs, with the outputs of its
// schema that the engine did not return unknown (in a preview) or null.
// A Terraform provider's plan holds every attribute, its unknowns unknown,
// and leaves out only null ones: what it leaves out is null in a preview
// too, as Terraform has it.
func (rt *resourceType) value(urn resource.URN, id resource.ID, custom bool, outputs resource.Map, preview bool) cty.Value {
	if rt.schema != nil {
		terraform := rt.names.terraform && custom && !resource.IsProviderType(rt.token)
		outputs = outputs.Copy()
		if outputs == nil {
			outputs = resource.Map{}
		}
		for k := range rt.schema.Properties {
			if _, ok := outputs[k]; !ok {
				outputs[k] = resource.Null
				if preview && !terraform {
					outputs[k] = resource.Unknown()
				}
			}
		}
		outputs = rt.names.object(outputs, rt.schema.Properties)
		if terraform {
			return values.TerraformObject(urn, rt.attributes(outputs))
		}
	}
	return values.ResourceObject(urn, id, custom, outputs)
}

// attributes keeps of a Terraform resource's outputs (spelled) its
// attributes, which are Terraform's value of the resource: not what Cairn
// keeps beside them (tfstate.MetaKey). Its write-only attributes, never
// kept, are null.
func (rt *resourceType) attributes(outputs resource.Map) resource.Map {
	out := make(resource.Map, len(rt.schema.Properties)+len(rt.writeOnly))
	for k := range rt.schema.Properties {
		name := rt.names.spell(k)
		out[name] = outputs[name]
	}
	for k := range rt.writeOnly {
		out[rt.names.spell(k)] = resource.Null
	}
	return out
}
