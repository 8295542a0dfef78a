package eval

import (
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
)

// speller renames the properties of a package's objects the way the
// program's language spells them (Dialect.PropertyName): the outputs of
// resources and the results of functions, and the objects of the package's
// types nested in them. Map keys are left alone.
type speller struct {
	pkg  *schema.Package
	name func(string) string
}

// object renames the properties of m that props describes.
func (s speller) object(m resource.Map, props map[string]*schema.Property) resource.Map {
	if s.name == nil || m == nil {
		return m
	}
	out := make(resource.Map, len(m))
	for k, v := range m {
		if p := props[k]; p != nil {
			out[s.name(k)] = s.value(v, p.TypeSpec)
			continue
		}
		out[k] = v
	}
	return out
}

// value renames the properties of the objects of the package's types in v.
func (s speller) value(v resource.Value, ts schema.TypeSpec) resource.Value {
	switch v.Kind() {
	case resource.SecretKind:
		return resource.MakeSecret(s.value(v.SecretElement(), ts))
	case resource.ArrayKind:
		if ts.Items == nil {
			return v
		}
		elems := v.ArrayValue()
		out := make([]resource.Value, len(elems))
		for i, e := range elems {
			out[i] = s.value(e, *ts.Items)
		}
		return resource.Array(out...)
	case resource.ObjectKind:
		if _, obj := resolveTypeSpec(ts, s.pkg); obj != nil {
			return resource.Object(s.object(v.ObjectValue(), obj.Properties))
		}
		if ts.AdditionalProperties == nil {
			return v
		}
		out := resource.Map{}
		for k, e := range v.ObjectValue() {
			out[k] = s.value(e, *ts.AdditionalProperties)
		}
		return resource.Object(out)
	}
	return v
}

// spelled returns the names of props as the language spells them.
func (s speller) spelled(props map[string]*schema.Property) []string {
	out := make([]string, 0, len(props))
	for k := range props {
		out = append(out, s.spell(k))
	}
	return out
}

// spell returns a property name as the language spells it.
func (s speller) spell(name string) string {
	if s.name == nil {
		return name
	}
	return s.name(name)
}
