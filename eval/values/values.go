// Package values is the bridge between the languages' go-cty values and the
// engine's property values. Evaluation happens in cty; these are the rules by
// which engine concepts travel through it:
//
//   - unknown values are cty unknowns (so every cty operation propagates them);
//   - secrets are values marked with Secret (marks propagate through every
//     operation, so a value computed from a secret is secret);
//   - a resource's outputs carry a Dep mark naming the resource, so the
//     resources a property depends on are the Dep marks found in its value;
//   - assets and archives are cty capsules (AssetType, ArchiveType);
//   - a resource itself is an object of its outputs plus "urn" and "id",
//     marked Dep; passed whole as a property it becomes a resource reference.
//     A Terraform provider's resource is, as in Terraform, the object of its
//     attributes alone, marked Dep and Resource; passed whole, it is that
//     object.
//
// ToEngine and FromEngine convert at the monitor boundary, and nowhere else.
package values

import (
	"fmt"
	"reflect"
	"sort"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/resource"
)

type secretMark struct{}

func (secretMark) GoString() string { return "values.Secret" }

// Secret marks a secret value.
var Secret = secretMark{}

type ephemeralMark struct{}

func (ephemeralMark) GoString() string { return "values.Ephemeral" }

// Ephemeral marks a value that must not be kept: Terraform's ephemeral
// variables and module outputs, which never reach the state. Converting
// a value to the engine's ignores the mark: the evaluator refuses such
// values where they would be kept.
var Ephemeral = ephemeralMark{}

// Dep marks a value derived from the outputs of the resource named by URN.
type Dep struct{ URN resource.URN }

// Resource marks the value of a Terraform provider's resource, which is the
// object of its attributes alone (see TerraformObject): it names the
// resource where other resources' values have a "urn" attribute. As every
// mark, it passes to the values derived from that object.
type Resource struct{ URN resource.URN }

// AssetType is the cty type of assets.
var AssetType = cty.CapsuleWithOps("asset", reflect.TypeOf(resource.Asset{}), &cty.CapsuleOps{
	Equals: func(a, b any) cty.Value {
		return cty.BoolVal(a.(*resource.Asset).Equal(b.(*resource.Asset)))
	},
	RawEquals: func(a, b any) bool { return a.(*resource.Asset).Equal(b.(*resource.Asset)) },
})

// ArchiveType is the cty type of archives.
var ArchiveType = cty.CapsuleWithOps("archive", reflect.TypeOf(resource.Archive{}), &cty.CapsuleOps{
	Equals: func(a, b any) cty.Value {
		return cty.BoolVal(a.(*resource.Archive).Equal(b.(*resource.Archive)))
	},
	RawEquals: func(a, b any) bool { return a.(*resource.Archive).Equal(b.(*resource.Archive)) },
})

// AssetVal wraps an asset.
func AssetVal(a *resource.Asset) cty.Value { return cty.CapsuleVal(AssetType, a) }

// ArchiveVal wraps an archive.
func ArchiveVal(a *resource.Archive) cty.Value { return cty.CapsuleVal(ArchiveType, a) }

// ResourceObject returns the value of a resource: its outputs plus "urn" and
// (for custom resources) "id", marked as depending on the resource. An empty
// or unknown ID is unknown.
func ResourceObject(urn resource.URN, id resource.ID, custom bool, outputs resource.Map) cty.Value {
	attrs := make(map[string]cty.Value, len(outputs)+2)
	for k, v := range outputs {
		attrs[k] = FromEngine(v)
	}
	attrs["urn"] = cty.StringVal(string(urn))
	if custom {
		if id == "" || id == resource.UnknownID {
			attrs["id"] = cty.UnknownVal(cty.String)
		} else {
			attrs["id"] = cty.StringVal(string(id))
		}
	}
	return cty.ObjectVal(attrs).Mark(Dep{URN: urn})
}

// TerraformObject returns the value of a Terraform provider's resource: the
// object of its attributes (attrs, which must be exactly those of its
// schema), marked Dep and Resource, as Terraform has it, without the "urn"
// and "id" ResourceObject adds.
func TerraformObject(urn resource.URN, attrs resource.Map) cty.Value {
	out := make(map[string]cty.Value, len(attrs))
	for k, v := range attrs {
		out[k] = FromEngine(v)
	}
	return cty.ObjectVal(out).WithMarks(cty.NewValueMarks(Dep{URN: urn}, Resource{URN: urn}))
}

// ResourceOf returns the URN of the Terraform resource whose value v is
// (or is derived from, through its Resource mark), or "" when v is of no
// such resource or of more than one.
func ResourceOf(v cty.Value) resource.URN {
	var urn resource.URN
	for m := range v.Marks() {
		if r, ok := m.(Resource); ok {
			if urn != "" {
				return ""
			}
			urn = r.URN
		}
	}
	return urn
}

// FromEngine converts an engine value into cty.
func FromEngine(v resource.Value) cty.Value {
	switch v.Kind() {
	case resource.NullKind:
		return cty.NullVal(cty.DynamicPseudoType)
	case resource.BoolKind:
		return cty.BoolVal(v.BoolValue())
	case resource.NumberKind:
		return cty.NumberFloatVal(v.NumberValue())
	case resource.StringKind:
		return cty.StringVal(v.StringValue())
	case resource.ArrayKind:
		elems := v.ArrayValue()
		if len(elems) == 0 {
			return cty.EmptyTupleVal
		}
		out := make([]cty.Value, len(elems))
		for i, e := range elems {
			out[i] = FromEngine(e)
		}
		return cty.TupleVal(out)
	case resource.ObjectKind:
		m := v.ObjectValue()
		if len(m) == 0 {
			return cty.EmptyObjectVal
		}
		out := make(map[string]cty.Value, len(m))
		for k, e := range m {
			out[k] = FromEngine(e)
		}
		return cty.ObjectVal(out)
	case resource.AssetKind:
		return AssetVal(v.AssetValue())
	case resource.ArchiveKind:
		return ArchiveVal(v.ArchiveValue())
	case resource.ResourceRefKind:
		ref := v.RefValue()
		attrs := map[string]cty.Value{"urn": cty.StringVal(string(ref.URN))}
		switch {
		case ref.ID.IsString():
			attrs["id"] = cty.StringVal(ref.ID.StringValue())
		case ref.ID.IsUnknown():
			attrs["id"] = cty.UnknownVal(cty.String)
		}
		return cty.ObjectVal(attrs).Mark(Dep{URN: ref.URN})
	case resource.UnknownKind:
		return cty.DynamicVal
	case resource.SecretKind:
		return FromEngine(v.SecretElement()).Mark(Secret)
	case resource.OutputKind:
		o := v.OutputValue()
		out := cty.DynamicVal
		if o.Known {
			out = FromEngine(o.Element)
		}
		if o.Secret {
			out = out.Mark(Secret)
		}
		for _, d := range o.Dependencies {
			out = out.Mark(Dep{URN: d})
		}
		return out
	}
	panic(fmt.Sprintf("values.FromEngine: unexpected kind %s", v.Kind()))
}

// MapFromEngine converts a property map into a cty object.
func MapFromEngine(m resource.Map) cty.Value { return FromEngine(resource.Object(m)) }

// ToEngine converts a cty value into an engine value and returns the URNs of
// the resources it depends on (its Dep marks, at any depth).
func ToEngine(v cty.Value) (resource.Value, []resource.URN, error) {
	deps := map[resource.URN]bool{}
	out, err := toEngine(v, deps)
	if err != nil {
		return resource.Null, nil, err
	}
	return out, sortDeps(deps), nil
}

// ObjectToEngine converts a cty object (or map) into a property map and the
// dependencies of each property.
func ObjectToEngine(v cty.Value) (resource.Map, map[string][]resource.URN, error) {
	v, marks := v.Unmark()
	if v.IsNull() {
		return resource.Map{}, nil, nil
	}
	if !v.IsKnown() {
		return nil, nil, fmt.Errorf("the properties are not known yet")
	}
	if len(marks) > 0 {
		// Marks on the whole object apply to each property.
		v = markEach(v, marks)
	}
	ty := v.Type()
	if !ty.IsObjectType() && !ty.IsMapType() {
		return nil, nil, fmt.Errorf("properties must be an object, not %s", ty.FriendlyName())
	}
	props := resource.Map{}
	deps := map[string][]resource.URN{}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		ev, d, err := ToEngine(e)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", k.AsString(), err)
		}
		props[k.AsString()] = ev
		if len(d) > 0 {
			deps[k.AsString()] = d
		}
	}
	return props, deps, nil
}

func markEach(v cty.Value, marks cty.ValueMarks) cty.Value {
	attrs := map[string]cty.Value{}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		attrs[k.AsString()] = e.WithMarks(marks)
	}
	if v.Type().IsMapType() {
		if len(attrs) == 0 {
			return v
		}
		return cty.MapVal(attrs)
	}
	return cty.ObjectVal(attrs)
}

func sortDeps(deps map[resource.URN]bool) []resource.URN {
	if len(deps) == 0 {
		return nil
	}
	out := make([]resource.URN, 0, len(deps))
	for d := range deps {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func toEngine(v cty.Value, deps map[resource.URN]bool) (resource.Value, error) {
	v, marks := v.Unmark()
	secret := false
	var self resource.URN
	for m := range marks {
		switch m := m.(type) {
		case secretMark:
			secret = true
		case Dep:
			deps[m.URN] = true
			if isResourceObject(v, m.URN) {
				self = m.URN
			}
		}
	}
	out, err := plainToEngine(v, deps, self)
	if err != nil {
		return resource.Null, err
	}
	if secret {
		out = resource.MakeSecret(out)
	}
	return out, nil
}

// isResourceObject reports whether v is the object of the resource urn itself
// (not one of its outputs).
func isResourceObject(v cty.Value, urn resource.URN) bool {
	if !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() || !v.Type().HasAttribute("urn") {
		return false
	}
	u, _ := v.GetAttr("urn").Unmark()
	return u.IsKnown() && !u.IsNull() && u.Type() == cty.String && u.AsString() == string(urn)
}

func plainToEngine(v cty.Value, deps map[resource.URN]bool, self resource.URN) (resource.Value, error) {
	if !v.IsKnown() {
		return resource.Unknown(), nil
	}
	if v.IsNull() {
		return resource.Null, nil
	}
	if self != "" {
		ref := resource.ResourceRef{URN: self}
		if v.Type().HasAttribute("id") {
			id, _ := v.GetAttr("id").Unmark()
			switch {
			case !id.IsKnown():
				ref.ID = resource.Unknown()
			case !id.IsNull() && id.Type() == cty.String:
				ref.ID = resource.String(id.AsString())
			}
		}
		return resource.NewRef(ref), nil
	}
	ty := v.Type()
	switch {
	case ty == cty.Bool:
		return resource.Bool(v.True()), nil
	case ty == cty.Number:
		f, _ := v.AsBigFloat().Float64()
		return resource.Number(f), nil
	case ty == cty.String:
		return resource.String(v.AsString()), nil
	case ty == AssetType:
		return resource.NewAsset(v.EncapsulatedValue().(*resource.Asset)), nil
	case ty == ArchiveType:
		return resource.NewArchive(v.EncapsulatedValue().(*resource.Archive)), nil
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		out := make([]resource.Value, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			ev, err := toEngine(e, deps)
			if err != nil {
				return resource.Null, err
			}
			out = append(out, ev)
		}
		return resource.Array(out...), nil
	case ty.IsMapType() || ty.IsObjectType():
		out := resource.Map{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			ev, err := toEngine(e, deps)
			if err != nil {
				return resource.Null, fmt.Errorf("%s: %w", k.AsString(), err)
			}
			out[k.AsString()] = ev
		}
		return resource.Object(out), nil
	case ty.IsCapsuleType():
		return resource.Null, fmt.Errorf("a %s cannot be a property value", ty.FriendlyName())
	}
	return resource.Null, fmt.Errorf("a value of type %s cannot be a property value", ty.FriendlyName())
}
