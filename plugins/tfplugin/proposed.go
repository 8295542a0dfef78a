package tfplugin

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// proposedNew is the proposed new state a plan starts from, as Terraform
// builds it: the configuration, where a computed attribute the
// configuration leaves null keeps its prior value. Nested blocks are
// matched with their prior selves by position (lists), key (maps) or
// equal non-computed attributes (sets).
func proposedNew(b *block, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	if prior.IsNull() || !prior.IsKnown() {
		prior = nullAttrs(config.Type())
	}
	pattrs, cattrs := prior.AsValueMap(), config.AsValueMap()
	out := make(map[string]cty.Value, len(cattrs))
	for k, v := range cattrs {
		out[k] = v
	}
	for _, a := range b.GetAttributes() {
		out[a.GetName()] = proposedAttr(a.GetComputed(), a.GetNestedType(), pattrs[a.GetName()], cattrs[a.GetName()])
	}
	for _, nb := range b.GetBlockTypes() {
		name := nb.GetTypeName()
		out[name] = proposedBlocks(nb, pattrs[name], cattrs[name])
	}
	return cty.ObjectVal(out)
}

// proposedAttr is the proposed value of an attribute.
func proposedAttr(computed bool, nestedType *object, prior, config cty.Value) cty.Value {
	switch {
	case computed && config.IsNull():
		return prior
	case nestedType == nil || config.IsNull() || !config.IsKnown():
		return config
	}
	inner := func(p, c cty.Value) cty.Value {
		if c.IsNull() || !c.IsKnown() {
			return c
		}
		if p.IsNull() || !p.IsKnown() {
			p = nullAttrs(c.Type())
		}
		pattrs, cattrs := p.AsValueMap(), c.AsValueMap()
		out := map[string]cty.Value{}
		for _, a := range nestedType.GetAttributes() {
			out[a.GetName()] = proposedAttr(a.GetComputed(), a.GetNestedType(), pattrs[a.GetName()], cattrs[a.GetName()])
		}
		return cty.ObjectVal(out)
	}
	computedOf := func(a string) bool {
		for _, na := range nestedType.GetAttributes() {
			if na.GetName() == a {
				return na.GetComputed()
			}
		}
		return false
	}
	switch nestedType.GetNesting() {
	case tfplugin6.Schema_Object_LIST:
		return matchList(prior, config, inner)
	case tfplugin6.Schema_Object_MAP:
		return matchMap(prior, config, inner)
	case tfplugin6.Schema_Object_SET:
		return matchSet(prior, config, computedOf, inner)
	}
	return inner(prior, config)
}

// proposedBlocks is the proposed value of a nested block type.
func proposedBlocks(nb *nested, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	inner := func(p, c cty.Value) cty.Value { return proposedNew(nb.GetBlock(), p, c) }
	switch nb.GetNesting() {
	case tfplugin6.Schema_NestedBlock_LIST:
		return matchList(prior, config, inner)
	case tfplugin6.Schema_NestedBlock_MAP:
		return matchMap(prior, config, inner)
	case tfplugin6.Schema_NestedBlock_SET:
		computed := func(a string) bool {
			for _, na := range nb.GetBlock().GetAttributes() {
				if na.GetName() == a {
					return na.GetComputed()
				}
			}
			return false
		}
		return matchSet(prior, config, computed, inner)
	}
	return inner(prior, config)
}

// matchList pairs the elements of a list (or tuple) with those of the
// prior one at the same position.
func matchList(prior, config cty.Value, f func(p, c cty.Value) cty.Value) cty.Value {
	if config.LengthInt() == 0 {
		return config
	}
	var priors []cty.Value
	if !prior.IsNull() && prior.IsKnown() {
		priors = prior.AsValueSlice()
	}
	var out []cty.Value
	for i, c := range config.AsValueSlice() {
		p := cty.NullVal(c.Type())
		if i < len(priors) {
			p = priors[i]
		}
		out = append(out, f(p, c))
	}
	if config.Type().IsListType() {
		return cty.ListVal(out)
	}
	return cty.TupleVal(out)
}

// matchMap pairs the elements of a map (or object) with the prior ones of
// the same key.
func matchMap(prior, config cty.Value, f func(p, c cty.Value) cty.Value) cty.Value {
	if config.LengthInt() == 0 {
		return config
	}
	var priors map[string]cty.Value
	if !prior.IsNull() && prior.IsKnown() {
		priors = prior.AsValueMap()
	}
	out := map[string]cty.Value{}
	for k, c := range config.AsValueMap() {
		p, ok := priors[k]
		if !ok {
			p = cty.NullVal(c.Type())
		}
		out[k] = f(p, c)
	}
	if config.Type().IsMapType() {
		return cty.MapVal(out)
	}
	return cty.ObjectVal(out)
}

// matchSet pairs each element of a set with a prior one whose
// non-computed attributes are equal to its own.
func matchSet(prior, config cty.Value, computed func(string) bool, f func(p, c cty.Value) cty.Value) cty.Value {
	if config.LengthInt() == 0 {
		return config
	}
	var priors []cty.Value
	if !prior.IsNull() && prior.IsKnown() {
		priors = prior.AsValueSlice()
	}
	used := make([]bool, len(priors))
	var out []cty.Value
	for _, c := range config.AsValueSlice() {
		p := cty.NullVal(c.Type())
		for i, cand := range priors {
			if !used[i] && sameConfigured(cand, c, computed) {
				p, used[i] = cand, true
				break
			}
		}
		out = append(out, f(p, c))
	}
	return cty.SetVal(out)
}

// sameConfigured reports whether two objects agree on the attributes that
// are not computed.
func sameConfigured(a, b cty.Value, computed func(string) bool) bool {
	if !a.IsKnown() || !b.IsKnown() || a.IsNull() || b.IsNull() || !a.Type().IsObjectType() {
		return false
	}
	for name := range b.Type().AttributeTypes() {
		if computed(name) || !a.Type().HasAttribute(name) {
			continue
		}
		if !a.GetAttr(name).RawEquals(b.GetAttr(name)) {
			return false
		}
	}
	return true
}
