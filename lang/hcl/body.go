package hcl

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/eval"
)

// bodyExpr is the arguments and nested blocks of a resource, data source or
// provider block as one expression: an object of the properties under the
// schema's names. Dynamic blocks are expanded when it is evaluated.
type bodyExpr struct {
	body  hcl.Body
	shape *shape
	rng   hcl.Range
}

// Value implements hcl.Expression.
func (e *bodyExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if e.shape.fields == nil {
		return e.shape.decodeOpen(e.body, ctx)
	}
	return e.shape.decode(dynblock.Expand(e.body, ctx), ctx)
}

// Variables implements hcl.Expression.
func (e *bodyExpr) Variables() []hcl.Traversal {
	if e.shape.fields == nil {
		attrs, _ := e.body.JustAttributes()
		var out []hcl.Traversal
		for _, a := range attrs {
			out = append(out, a.Expr.Variables()...)
		}
		return out
	}
	return e.shape.variables(dynblock.WalkVariables(e.body))
}

// Range implements hcl.Expression.
func (e *bodyExpr) Range() hcl.Range { return e.rng }

// StartRange implements hcl.Expression.
func (e *bodyExpr) StartRange() hcl.Range { return e.rng }

// variables returns the traversals of a body of the shape, dynamic blocks
// included.
func (s *shape) variables(n dynblock.WalkVariablesNode) []hcl.Traversal {
	vars, children := n.Visit(s.bodySchema())
	for _, c := range children {
		if f := s.fields[c.BlockTypeName]; f != nil && f.block != nil {
			vars = append(vars, f.block.variables(c.Node)...)
		}
	}
	return vars
}

// decode evaluates a body of the shape (with its dynamic blocks expanded)
// into an object of the schema's property names.
func (s *shape) decode(body hcl.Body, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	content, diags := body.Content(s.bodySchema())
	attrs := map[string]cty.Value{}
	for name, a := range content.Attributes {
		f := s.fields[name]
		v, ds := a.Expr.Value(ctx)
		diags = append(diags, ds...)
		if ds.HasErrors() {
			continue
		}
		v, err := s.types.convert(v, f.ts)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError, Summary: "Incorrect attribute value type",
				Detail:  fmt.Sprintf("Inappropriate value for attribute %q: %s.", name, err),
				Subject: a.Expr.Range().Ptr(), Expression: a.Expr, EvalContext: ctx,
			})
			continue
		}
		attrs[f.name] = v
	}
	blocks := map[string][]cty.Value{}
	keyed := map[string]map[string]cty.Value{}
	for _, b := range content.Blocks {
		f := s.fields[b.Type]
		v, ds := f.block.decode(b.Body, ctx)
		diags = append(diags, ds...)
		if f.labelled {
			if keyed[b.Type] == nil {
				keyed[b.Type] = map[string]cty.Value{}
			}
			if _, dup := keyed[b.Type][b.Labels[0]]; dup {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("Duplicate %s block", b.Type),
					Detail: fmt.Sprintf("There is another %s block with the key %q.", b.Type, b.Labels[0]), Subject: b.DefRange.Ptr()})
			}
			keyed[b.Type][b.Labels[0]] = v
			continue
		}
		blocks[b.Type] = append(blocks[b.Type], v)
		if !f.list && len(blocks[b.Type]) > 1 {
			diags = append(diags, tooMany(b.Type, 1, b.DefRange))
		}
	}
	for name, vs := range blocks {
		f := s.fields[name]
		if f.list {
			attrs[f.name] = cty.TupleVal(vs)
		} else {
			attrs[f.name] = vs[0]
		}
	}
	for name, vs := range keyed {
		attrs[s.fields[name].name] = cty.ObjectVal(vs)
	}
	return cty.ObjectVal(attrs), diags
}

// decodeOpen evaluates the arguments of a body that no schema describes.
func (s *shape) decodeOpen(body hcl.Body, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	as, diags := openAttributes(body)
	attrs := map[string]cty.Value{}
	for name, a := range as {
		v, ds := a.Expr.Value(ctx)
		diags = append(diags, ds...)
		attrs[camel(name)] = v
	}
	return cty.ObjectVal(attrs), diags
}

// openAttributes returns the arguments of a body that no schema describes.
// A native body's JustAttributes reports every block, even one an earlier
// PartialContent took (a provider's pulumi block), so its arguments are
// asked for by name, and only the blocks left are reported.
func openAttributes(body hcl.Body) (hcl.Attributes, hcl.Diagnostics) {
	syn, ok := body.(*hclsyntax.Body)
	if !ok {
		return body.JustAttributes()
	}
	sch := &hcl.BodySchema{}
	for name := range syn.Attributes {
		sch.Attributes = append(sch.Attributes, hcl.AttributeSchema{Name: name})
	}
	content, rest, diags := body.PartialContent(sch)
	_, more := rest.Content(&hcl.BodySchema{})
	return content.Attributes, append(diags, more...)
}

// dynamicSchema is the schema of a dynamic block's body.
var dynamicSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "for_each", Required: true}, {Name: "iterator"}, {Name: "labels"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "content"}},
}

// check reports what a body of the shape has that the schema does not
// allow, before the program runs: unsupported arguments and blocks,
// missing required ones, blocks given too often or as arguments too.
func (s *shape) check(body hcl.Body) hcl.Diagnostics {
	if s.fields == nil {
		_, diags := openAttributes(body)
		return diags
	}
	sch := s.bodySchema()
	sch.Blocks = append(sch.Blocks, hcl.BlockHeaderSchema{Type: "dynamic", LabelNames: []string{"type"}})
	content, diags := body.Content(sch)
	given := map[string]int{}
	dynamic := map[string]bool{}
	for name := range content.Attributes {
		given[name]++
	}
	for _, b := range content.Blocks {
		typ, inner := b.Type, b.Body
		if typ == "dynamic" {
			typ = b.Labels[0]
			dynamic[typ] = true
			if f := s.fields[typ]; f == nil || f.block == nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unsupported block type",
					Detail:  fmt.Sprintf("Blocks of type %q are not expected here.%s", typ, eval.DidYouMean(typ, s.blockNames())),
					Subject: b.LabelRanges[0].Ptr()})
				continue
			}
			dyn, ds := b.Body.Content(dynamicSchema)
			diags = append(diags, ds...)
			if len(dyn.Blocks) != 1 {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid dynamic block",
					Detail: "A dynamic block must have exactly one content block.", Subject: b.DefRange.Ptr()})
				continue
			}
			inner = dyn.Blocks[0].Body
		}
		f := s.fields[typ]
		diags = append(diags, f.block.check(inner)...)
		given[typ]++
		if _, asArgument := content.Attributes[typ]; asArgument {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Conflicting definitions",
				Detail:  fmt.Sprintf("%q is given both as an argument and as a block; keep one.", typ),
				Subject: b.DefRange.Ptr()})
		}
		switch {
		case !f.list && !f.labelled && given[typ] == 2:
			diags = append(diags, tooMany(typ, 1, b.DefRange))
		case f.maxItems > 0 && given[typ] == f.maxItems+1 && !dynamic[typ]:
			diags = append(diags, tooMany(typ, f.maxItems, b.DefRange))
		}
	}
	for name, f := range s.fields {
		if f.minItems > 0 && given[name] < f.minItems && !dynamic[name] {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("Insufficient %s blocks", name),
				Detail: fmt.Sprintf("At least %d %q blocks are required.", f.minItems, name), Subject: body.MissingItemRange().Ptr()})
		}
	}
	for name, f := range s.fields {
		if f.required && f.block != nil && given[name] == 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing required argument",
				Detail:  fmt.Sprintf("The argument %q is required, but no definition was found; give it as an argument or a block.", name),
				Subject: body.MissingItemRange().Ptr()})
		}
	}
	return diags
}

func (s *shape) blockNames() []string {
	var out []string
	for n, f := range s.fields {
		if f.block != nil {
			out = append(out, n)
		}
	}
	return out
}

func tooMany(typ string, most int, rng hcl.Range) *hcl.Diagnostic {
	n := "one"
	if most > 1 {
		n = fmt.Sprint(most)
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: fmt.Sprintf("Too many %s blocks", typ),
		Detail: fmt.Sprintf("No more than %s %q block is allowed.", n, typ), Subject: rng.Ptr()}
}
