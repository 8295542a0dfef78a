package eval

import (
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
)

// speller renames the properties of a package's objects the way the
// program's language spells them (Dialect.PropertyName): the outputs of
// resources and the results of functions, and the objects of the package's
// types nested in them. Map keys are left alone. For a Terraform
// provider's package it also gives these objects every attribute of their
// type, null where the provider left it out, as Terraform's values have
// them.
type speller struct {
	pkg       *schema.Package
	name      func(string) string
	terraform bool // a Terraform provider's package
}

// newSpeller returns the speller of a package's objects in a language.
func newSpeller(pkg *schema.Package, name func(string) string) speller {
	return speller{pkg: pkg, name: name, terraform: pkg != nil && schema.TerraformOf(pkg.Language) != nil}
}

// object renames the properties of m that props describes.
func (s speller) object(m resource.Map, props map[string]*schema.Property) resource.Map {
	if s.name == nil && !s.terraform || m == nil {
		return m
	}
	out := make(resource.Map, len(m))
	for k, v := range m {
		if p := props[k]; p != nil {
			out[s.spell(k)] = s.value(v, p.TypeSpec)
			continue
		}
		out[k] = v
	}
	if s.terraform {
		for k := range props {
			if _, ok := m[k]; !ok {
				out[s.spell(k)] = resource.Null
			}
		}
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
