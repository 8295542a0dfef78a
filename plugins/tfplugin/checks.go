package tfplugin

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// incompatible lists the paths where a value a provider returned differs
// from what it planned, as Terraform checks the result of an apply:
// whatever was planned known must come back the same; what was unknown
// may come back as anything. Sets are compared whole once wholly known.
// The values themselves are not named: they may be secrets.
func incompatible(planned, actual cty.Value, path cty.Path) []string {
	switch {
	case !planned.IsKnown():
		return nil
	case !actual.IsKnown():
		return []string{describePath(path) + ": it is still unknown"}
	case planned.IsNull() != actual.IsNull():
		if planned.IsNull() {
			return []string{describePath(path) + ": was planned null and is not"}
		}
		return []string{describePath(path) + ": was planned and is null"}
	case planned.IsNull():
		return nil
	}
	ty := planned.Type()
	switch {
	case ty.IsObjectType():
		var out []string
		for _, name := range slices.Sorted(maps.Keys(ty.AttributeTypes())) {
			if actual.Type().HasAttribute(name) {
				out = append(out, incompatible(planned.GetAttr(name), actual.GetAttr(name), path.GetAttr(name))...)
			}
		}
		return out
	case ty.IsListType() || ty.IsTupleType() || ty.IsMapType():
		if planned.LengthInt() != actual.LengthInt() {
			return []string{fmt.Sprintf("%s: %d elements were planned, %d came back", describePath(path), planned.LengthInt(), actual.LengthInt())}
		}
		var out []string
		for it := planned.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if ty.IsMapType() && !actual.HasIndex(k).True() {
				out = append(out, fmt.Sprintf("%s: the key %s is missing", describePath(path), k.AsString()))
				continue
			}
			out = append(out, incompatible(e, actual.Index(k), path.Index(k))...)
		}
		return out
	case ty.IsSetType() && !planned.IsWhollyKnown():
		return nil
	}
	if !planned.RawEquals(actual) {
		return []string{describePath(path) + ": has another value than planned"}
	}
	return nil
}

// stillUnknown lists the paths of a new state left unknown after an
// apply, which Terraform refuses whatever was planned.
func stillUnknown(v cty.Value) []string {
	var out []string
	_ = cty.Walk(v, func(p cty.Path, v cty.Value) (bool, error) {
		if !v.IsKnown() {
			out = append(out, describePath(p)+": it is still unknown")
		}
		return v.IsKnown(), nil
	})
	return out
}

// describePath writes a path as a.b[0]["k"].
func describePath(p cty.Path) string {
	var b strings.Builder
	for _, s := range p {
		switch s := s.(type) {
		case cty.GetAttrStep:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
		case cty.IndexStep:
			if s.Key.Type() == cty.String {
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			} else {
				fmt.Fprintf(&b, "[%s]", s.Key.AsBigFloat().Text('f', -1))
			}
		}
	}
	if b.Len() == 0 {
		return "the object"
	}
	return b.String()
}

// invalidPlan lists the paths where a plan does not keep what the
// configuration sets, as Terraform checks plans: an attribute that is not
// computed, or is and is configured, must be planned as configured (or as
// it was, when a provider keeps an equivalent prior value). Elements of
// sets are not compared.
func invalidPlan(b *block, prior, config, planned cty.Value, path cty.Path) []string {
	if planned.IsKnown() && planned.IsNull() && config.IsKnown() && !config.IsNull() {
		return []string{describePath(path) + ": planned absent though configured"}
	}
	if config.IsNull() || !config.IsKnown() || planned.IsNull() || !planned.IsKnown() {
		return nil
	}
	if prior.IsNull() || !prior.IsKnown() {
		prior = nullAttrs(config.Type())
	}
	var out []string
	for _, a := range b.GetAttributes() {
		name := a.GetName()
		c, pl, pr := config.GetAttr(name), planned.GetAttr(name), prior.GetAttr(name)
		if a.GetComputed() && c.IsNull() || !c.IsWhollyKnown() || a.GetWriteOnly() {
			continue
		}
		if !pl.RawEquals(c) && !(!c.IsNull() && pl.RawEquals(pr)) {
			out = append(out, describePath(path.GetAttr(name))+": planned otherwise than configured")
		}
	}
	for _, nb := range b.GetBlockTypes() {
		name := nb.GetTypeName()
		c, pl, pr := config.GetAttr(name), planned.GetAttr(name), prior.GetAttr(name)
		switch nb.GetNesting() {
		case tfplugin6.Schema_NestedBlock_SINGLE, tfplugin6.Schema_NestedBlock_GROUP:
			out = append(out, invalidPlan(nb.GetBlock(), pr, c, pl, path.GetAttr(name))...)
		case tfplugin6.Schema_NestedBlock_LIST, tfplugin6.Schema_NestedBlock_MAP:
			if !c.IsKnown() || !pl.IsKnown() || c.IsNull() || pl.IsNull() {
				continue
			}
			if c.LengthInt() != pl.LengthInt() {
				out = append(out, fmt.Sprintf("%s: %d blocks configured, %d planned", describePath(path.GetAttr(name)), c.LengthInt(), pl.LengthInt()))
				continue
			}
			for it := c.ElementIterator(); it.Next(); {
				k, ce := it.Element()
				if !pl.HasIndex(k).True() {
					continue
				}
				pe := cty.NullVal(ce.Type())
				if pr.IsKnown() && !pr.IsNull() && pr.HasIndex(k).True() {
					pe = pr.Index(k)
				}
				out = append(out, invalidPlan(nb.GetBlock(), pe, ce, pl.Index(k), path.GetAttr(name).Index(k))...)
			}
		}
	}
	return out
}
