package hcl

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/schema"
)

// ignoreKeys reads the ignore_changes list of a Terraform resource as
// OpenTofu reads a path ending in a string key (tags["Name"]): the key
// alone when the value before it is a map, else (an object) the whole
// value before it. The type decides where the schema gives it; for a
// value of any type (terraform_data's input), the argument's value does,
// instance by instance (see ignoreExpr).
func (m *module) ignoreKeys(a *hcl.Attribute, sh *shape, body hcl.Body) hcl.Expression {
	exprs, diags := hcl.ExprList(a.Expr)
	if diags.HasErrors() {
		return m.paths(a, sh, true)
	}
	ts := make([]hcl.Traversal, len(exprs))
	for i, x := range exprs {
		t, diags := hcl.AbsTraversalForExpr(x)
		if diags.HasErrors() {
			t = stringTraversal(x)
		}
		if t == nil {
			return m.paths(a, sh, true) // all, or an error reported there
		}
		ts[i] = t
	}
	e := &ignoreExpr{rng: a.Expr.Range(), body: body}
	dynamic := false
	for _, t := range ts {
		p, ok := m.path(t, sh)
		if !ok {
			continue
		}
		ip := ignorePath{key: p.String()}
		if k, isKey := t[len(t)-1].(hcl.TraverseIndex); isKey && k.Key.Type() == cty.String && len(t) > 1 {
			prefix, _ := m.path(t[:len(t)-1], sh)
			switch mapped, known := keyedType(t[:len(t)-1], sh); {
			case !known:
				ip.whole, ip.at, dynamic = prefix.String(), t[:len(t)-1], true
			case !mapped:
				ip.key = prefix.String()
			}
		}
		e.paths = append(e.paths, ip)
	}
	if len(e.paths) == 0 {
		return nil
	}
	if !dynamic {
		return &hclsyntax.LiteralValueExpr{Val: e.list(nil), SrcRange: e.rng}
	}
	return e
}

// keyedType reports whether the value at the path t (of an argument, not
// of a nested block) is a map, when the schema knows its type.
func keyedType(t hcl.Traversal, sh *shape) (mapped, known bool) {
	name, _ := attrName(t, 0)
	f := sh.field(name)
	if f == nil || f.block != nil || sh.types.pkg == nil {
		return true, true // a nested block's, or unknown: as written
	}
	ts := f.ts
	for _, step := range t[1:] {
		var next *schema.TypeSpec
		switch step := step.(type) {
		case hcl.TraverseAttr:
			if obj := sh.types.objectType(ts); obj != nil && obj.Properties[step.Name] != nil {
				next = &obj.Properties[step.Name].TypeSpec
			}
		case hcl.TraverseIndex:
			if ts.Items != nil {
				next = ts.Items
			} else if ts.AdditionalProperties != nil {
				next = ts.AdditionalProperties
			}
		}
		if next == nil {
			any := ts.Ref == "pulumi.json#/Any"
			return !any, !any // within a value of any type, or as written
		}
		ts = *next
	}
	switch {
	case ts.Ref == "pulumi.json#/Any":
		return false, false
	case strings.HasPrefix(ts.Ref, "#/types/"):
		return false, true
	}
	return true, true
}

// ignorePath is an element of an ignore_changes list: key, or, when the
// value at at (in the resource's arguments) is not a map, whole.
type ignorePath struct {
	key, whole string
	at         hcl.Traversal
}

// ignoreExpr is an ignore_changes list whose paths depend on the type of
// the values they are in: a path ending in a string key is that key of a
// map, or the whole of an object.
type ignoreExpr struct {
	paths []ignorePath
	body  hcl.Body // the resource's arguments
	rng   hcl.Range
}

// Value implements hcl.Expression.
func (e *ignoreExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	return e.list(ctx), nil
}

// Variables implements hcl.Expression: those of the arguments whose
// values decide.
func (e *ignoreExpr) Variables() []hcl.Traversal {
	var out []hcl.Traversal
	for _, p := range e.paths {
		if a := e.attribute(p.at); a != nil {
			out = append(out, a.Expr.Variables()...)
		}
	}
	return out
}

// Range implements hcl.Expression.
func (e *ignoreExpr) Range() hcl.Range { return e.rng }

// StartRange implements hcl.Expression.
func (e *ignoreExpr) StartRange() hcl.Range { return e.rng }

// attribute returns the argument a path at is in, or nil.
func (e *ignoreExpr) attribute(at hcl.Traversal) *hcl.Attribute {
	name, ok := attrName(at, 0)
	if !ok {
		return nil
	}
	content, _, _ := e.body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: name}}})
	return content.Attributes[name]
}

// list returns the paths, the values at ats evaluated in ctx.
func (e *ignoreExpr) list(ctx *hcl.EvalContext) cty.Value {
	out := make([]cty.Value, len(e.paths))
	for i, p := range e.paths {
		out[i] = cty.StringVal(p.key)
		if p.at != nil && !e.isMap(ctx, p.at) {
			out[i] = cty.StringVal(p.whole)
		}
	}
	return cty.ListVal(out)
}

// isMap reports whether the value at t in the resource's arguments is a
// map, or not known to be anything else.
func (e *ignoreExpr) isMap(ctx *hcl.EvalContext, t hcl.Traversal) bool {
	a := e.attribute(t)
	if a == nil {
		return true
	}
	v, diags := a.Expr.Value(ctx)
	if diags.HasErrors() {
		return true
	}
	v, diags = hcl.ApplyPath(v, pathOf(t[1:]), nil)
	v, _ = v.Unmark()
	return diags.HasErrors() || !v.IsKnown() || v.Type().IsMapType() || v.Type() == cty.DynamicPseudoType
}

// pathOf converts the attribute and index steps of a traversal into a
// cty path.
func pathOf(t hcl.Traversal) cty.Path {
	var p cty.Path
	for _, step := range t {
		switch step := step.(type) {
		case hcl.TraverseAttr:
			p = p.GetAttr(step.Name)
		case hcl.TraverseIndex:
			p = p.Index(step.Key)
		}
	}
	return p
}
