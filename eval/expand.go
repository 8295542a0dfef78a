package eval

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/cairn-iac/cairn/eval/values"
)

// expand evaluates a node's count or forEach and returns its instances. A
// node without either has a single instance. During a preview, an
// expansion that is not known yet gives the node an unknown value and no
// instances (with a warning); during an update it is an error.
func (s *scopeRun) expand(v *vertex) (expansionMode, []*instance, bool) {
	exp := expansionOf(v.node)
	if exp != nil && exp.Enabled != nil {
		return s.enabled(v, exp.Enabled)
	}
	if exp == nil || !exp.Expanded() {
		return single, []*instance{{done: make(chan struct{})}}, true
	}
	ectx := s.evalContext(v, nil)
	if exp.Count != nil {
		val, ok := s.eval(ectx, exp.Count)
		if !ok || !s.refuseEphemeral(val, exp.Count.Range(), "Invalid count", "The count is ephemeral, or derived from an ephemeral value, which would show in the instances' keys.") {
			return single, nil, false
		}
		n, known, diags := countOf(val, exp.Count.Range())
		return s.expansion(v, counted, known, diags, func() []*instance { return countInstances(n) }, exp.Count.Range())
	}
	val, ok := s.eval(ectx, exp.ForEach)
	name := s.r.prog.Dialect.forEach()
	if !ok || !s.refuseEphemeral(val, exp.ForEach.Range(), "Invalid "+name, name+" is ephemeral, or derived from an ephemeral value, which would show in the instances' keys.") {
		return single, nil, false
	}
	insts, known, diags := forEachInstances(val, exp.ForEach.Range(), s.r.prog.source(exp.ForEach.Range()), s.r.prog.Dialect)
	return s.expansion(v, keyed, known, diags, func() []*instance { return insts }, exp.ForEach.Range())
}

// expansion finishes expand: it reports diagnostics and handles expansions
// not known yet.
func (s *scopeRun) expansion(v *vertex, mode expansionMode, known bool, diags hcl.Diagnostics, insts func() []*instance, rng hcl.Range) (expansionMode, []*instance, bool) {
	s.r.report(diags)
	if diags.HasErrors() {
		return single, nil, false
	}
	if known {
		return mode, insts(), true
	}
	d := v.node.Declaration()
	if s.r.info.DryRun {
		s.r.report(hcl.Diagnostics{{
			Severity: hcl.DiagWarning,
			Summary:  fmt.Sprintf("The instances of %s are not known yet", d),
			Detail:   fmt.Sprintf("Its %s depends on values that are known only after the update, so this preview shows none of its instances.", expansionWord(mode)),
			Subject:  rng.Ptr(),
		}})
		return unknown, nil, true
	}
	s.r.report(hcl.Diagnostics{errorDiag(rng, fmt.Sprintf("The instances of %s are not known", d),
		fmt.Sprintf("Its %s is not known after its dependencies were created.", expansionWord(mode)))})
	return single, nil, false
}

// enabled evaluates Expansion.Enabled: one instance when it is true, none
// when it is false.
func (s *scopeRun) enabled(v *vertex, e hcl.Expression) (expansionMode, []*instance, bool) {
	val, ok := s.eval(s.evalContext(v, nil), e)
	if !ok {
		return single, nil, false
	}
	val, _ = val.Unmark()
	val, err := convert.Convert(val, cty.Bool)
	var diags hcl.Diagnostics
	switch {
	case err != nil || val.IsKnown() && val.IsNull():
		diags = hcl.Diagnostics{errorDiag(e.Range(), "Invalid enabled value", "enabled must be true or false.")}
	case val.IsKnown() && val.False():
		return disabled, nil, true
	}
	return s.expansion(v, single, val.IsKnown(), diags, func() []*instance { return []*instance{{done: make(chan struct{})}} }, e.Range())
}

func expansionWord(mode expansionMode) string {
	switch mode {
	case counted:
		return "count"
	case single:
		return "enabled"
	}
	return "forEach"
}

// countOf checks a count: a whole number, at least zero. It may be secret,
// as in Terraform: instances are named by their indices, so the count shows
// in the instances' names only as their number.
func countOf(val cty.Value, rng hcl.Range) (int, bool, hcl.Diagnostics) {
	val, _ = val.Unmark()
	if !val.IsKnown() {
		return 0, false, nil
	}
	bad := func(detail string) (int, bool, hcl.Diagnostics) {
		return 0, true, hcl.Diagnostics{errorDiag(rng, "Invalid count", detail)}
	}
	if val.IsNull() {
		return bad("The count is null; it must be a whole number, zero or more.")
	}
	if val.Type() != cty.Number {
		return bad(fmt.Sprintf("The count is a %s; it must be a whole number, zero or more.", val.Type().FriendlyName()))
	}
	bf := val.AsBigFloat()
	if !bf.IsInt() || bf.Sign() < 0 || bf.Cmp(big.NewFloat(1e6)) > 0 {
		return bad(fmt.Sprintf("The count is %s; it must be a whole number, zero or more (and at most a million).", bf.Text('g', -1)))
	}
	n, _ := bf.Int64()
	return int(n), true, nil
}

func countInstances(n int) []*instance {
	out := make([]*instance, n)
	for i := range out {
		out[i] = &instance{key: cty.NumberIntVal(int64(i)), name: fmt.Sprint(i), done: make(chan struct{})}
	}
	return out
}

// forEachInstances makes one instance per key of a map or object, or per
// string of a set, or of a list or tuple where the dialect takes them (see
// Dialect.ToSet). Keys name the instances, so a secret forEach, or a secret
// key, is refused, as Terraform refuses them; a map may hold secret values
// under plain keys. src is the source of the forEach expression, for
// hints ("" when not known).
func forEachInstances(val cty.Value, rng hcl.Range, src string, d Dialect) ([]*instance, bool, hcl.Diagnostics) {
	name := d.forEach()
	bad := func(detail string) ([]*instance, bool, hcl.Diagnostics) {
		return nil, true, hcl.Diagnostics{errorDiag(rng, "Invalid "+name, detail)}
	}
	if val.HasMark(values.Secret) {
		return bad(secretKeys(name+" is secret, or derived from a secret.", d.Unsecret))
	}
	val, _ = val.Unmark()
	if !val.IsKnown() && (d.ToSet == "" || val.Type() == cty.DynamicPseudoType) {
		return nil, false, nil
	}
	kinds := "a map, or a list or set of strings"
	if d.ToSet != "" {
		kinds = "a map, or a set of strings"
	}
	if val.IsNull() {
		return bad(fmt.Sprintf("%s is null; it must be %s.", name, kinds))
	}
	ty := val.Type()
	byKey := ty.IsMapType() || ty.IsObjectType()
	list := ty.IsListType() || ty.IsTupleType()
	switch {
	case list && d.ToSet != "":
		if src == "" || strings.Contains(src, "\n") {
			src = "<list>"
		}
		hint := fmt.Sprintf("make it a set with %s(%s): its strings become the keys", d.ToSet, src)
		if !stringElements(ty) {
			hint = fmt.Sprintf("make it a map, keyed by a unique attribute of its elements: { for o in %s : o.<name> => o }", src)
		}
		return bad(fmt.Sprintf("%s is a %s; it must be %s, whose keys name the instances: %s.", name, ty.FriendlyName(), kinds, hint))
	case !byKey && !list && !ty.IsSetType():
		return bad(fmt.Sprintf("%s is a %s; it must be %s.", name, ty.FriendlyName(), kinds))
	case !val.IsKnown():
		return nil, false, nil
	}
	var out []*instance
	seen := map[string]bool{}
	for it := val.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if !byKey {
			k = e
		}
		if k.HasMark(values.Secret) {
			return bad(secretKeys(name+" has a secret key.", d.Unsecret))
		}
		k, _ = k.Unmark()
		if !k.IsKnown() {
			return nil, false, nil
		}
		switch {
		case k.IsNull():
			return bad(fmt.Sprintf("%s has a null element; it must be %s, whose strings become the keys.", name, kinds))
		case k.Type() != cty.String:
			return bad(fmt.Sprintf("%s has an element that is a %s; it must be %s, whose strings become the keys.", name, k.Type().FriendlyName(), kinds))
		case seen[k.AsString()]:
			return bad(fmt.Sprintf("%s has the key %q twice; keys name instances, so they must be unique.", name, k.AsString()))
		}
		seen[k.AsString()] = true
		out = append(out, &instance{key: k, each: e, name: quoteKey(k.AsString()), done: make(chan struct{})})
	}
	return out, true, nil
}

// stringElements reports whether the elements of a list or tuple type are
// strings.
func stringElements(ty cty.Type) bool {
	if ty.IsListType() {
		return ty.ElementType() == cty.String
	}
	for _, e := range ty.TupleElementTypes() {
		if e != cty.String {
			return false
		}
	}
	return true
}

// forEach is the name of the dialect's forEach argument.
func (d Dialect) forEach() string {
	if d.ForEach == "" {
		return "forEach"
	}
	return d.ForEach
}

// secretKeys explains a forEach refused for its secret keys, and what to do.
func secretKeys(what, unsecret string) string {
	return what + " Its keys would name the instances, in their URNs, which the state keeps in plain text. " +
		"If the keys are not secret, make them plain with " + unsecret + " (a map may keep secret values under plain keys); " +
		"otherwise key the instances by values that are not secret."
}

// source returns the text of the program's source in rng, or "" when the
// program does not hold its file.
func (p *Program) source(rng hcl.Range) string {
	f := p.Files[rng.Filename]
	if f == nil || rng.End.Byte > len(f.Bytes) || rng.Start.Byte > rng.End.Byte {
		return ""
	}
	return string(rng.SliceBytes(f.Bytes))
}
