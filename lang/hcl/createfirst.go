package hcl

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval"
)

// propagateCreateFirst gives create_before_destroy to every resource that
// a resource with it depends on, as Terraform does: directly or through
// local values, data sources, other resources, a module's outputs and a
// module's inputs, in the nodes of a module and of the modules it calls.
// Replacing a dependency first deleted would leave what creates first
// depending on a resource that no longer exists.
func propagateCreateFirst(nodes []eval.Node, r *resolver) {
	p := &createFirst{seen: map[eval.Node]bool{}}
	var walk func(nodes []eval.Node, r *resolver)
	walk = func(nodes []eval.Node, r *resolver) {
		for _, n := range nodes {
			switch n := n.(type) {
			case *eval.Resource:
				if createsFirst(n) {
					p.visit(n, r)
				}
			case *eval.Module:
				if n.Body != nil {
					walk(n.Body.Nodes, n.Body.Resolver.(*resolver))
				}
			}
		}
	}
	walk(nodes, r)
}

// createFirst is the walk of propagateCreateFirst.
type createFirst struct {
	seen map[eval.Node]bool
}

// visit forces create_before_destroy on what n, resolved by r, depends on.
func (p *createFirst) visit(n eval.Node, r *resolver) {
	for _, e := range n.Expressions() {
		if e != nil {
			p.expression(n, e, r)
		}
	}
}

// expression forces create_before_destroy on what e, in n, depends on.
func (p *createFirst) expression(n eval.Node, e hcl.Expression, r *resolver) {
	for _, t := range e.Variables() {
		ref, diags := r.Resolve(n, t)
		if diags.HasErrors() || ref.Node == nil || p.seen[ref.Node] && !isModule(ref.Node) {
			continue
		}
		p.seen[ref.Node] = true
		switch d := ref.Node.(type) {
		case *eval.Resource:
			if !resource.IsProviderType(d.Type) {
				d.Options.DeleteBeforeReplace = &hclsyntax.LiteralValueExpr{Val: cty.False, SrcRange: d.DeclRange}
				p.visit(d, r)
			}
		case *eval.Local, *eval.Invoke:
			p.visit(d, r)
		case *eval.Module:
			p.output(d, t)
		case *eval.Config:
			p.input(d, r)
		}
	}
}

// output follows a reference to a module's output into its body.
func (p *createFirst) output(m *eval.Module, t hcl.Traversal) {
	if m.Body == nil {
		return
	}
	body := m.Body.Resolver.(*resolver)
	rest := t[2:]
	if len(rest) > 0 && m.Expansion.Expanded() {
		if _, ok := rest[0].(hcl.TraverseIndex); ok {
			rest = rest[1:]
		}
	}
	name, ok := attrName(rest, 0)
	if o := body.outputs[name]; ok && o != nil && !p.seen[o] {
		p.seen[o] = true
		p.visit(o, body)
	}
}

// input follows a module's variable to the argument its call gives it.
func (p *createFirst) input(c *eval.Config, r *resolver) {
	if r.call == nil {
		return
	}
	inputs := r.call.Inputs
	if more, ok := inputs.(*moreInputs); ok {
		inputs = more.Expression
	}
	if b, ok := inputs.(*bodyExpr); ok {
		attrs, _ := b.body.JustAttributes()
		if a := attrs[c.Name]; a != nil {
			p.expression(r.call, a.Expr, r.caller)
		}
	}
}

func isModule(n eval.Node) bool {
	_, ok := n.(*eval.Module)
	return ok
}

// createsFirst reports whether a resource has create_before_destroy.
func createsFirst(r *eval.Resource) bool {
	if r.Options.DeleteBeforeReplace == nil || resource.IsProviderType(r.Type) {
		return false
	}
	v, diags := r.Options.DeleteBeforeReplace.Value(nil)
	return !diags.HasErrors() && v.RawEquals(cty.False)
}
