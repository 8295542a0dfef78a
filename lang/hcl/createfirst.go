package hcl

import (
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval"
)

// propagateCreateFirst gives create_before_destroy to every resource of
// the module that a resource with it depends on, directly or through
// local values, data sources and other resources, as Terraform does:
// replacing a dependency first deleted would leave what creates first
// depending on a resource that no longer exists. Dependencies on module
// outputs are not followed.
func (m *module) propagateCreateFirst() {
	seen := map[eval.Node]bool{}
	var visit func(n eval.Node)
	visit = func(n eval.Node) {
		for _, e := range n.Expressions() {
			if e == nil {
				continue
			}
			for _, t := range e.Variables() {
				ref, diags := m.res.Resolve(n, t)
				if diags.HasErrors() || ref.Node == nil || seen[ref.Node] {
					continue
				}
				seen[ref.Node] = true
				switch d := ref.Node.(type) {
				case *eval.Resource:
					if !resource.IsProviderType(d.Type) {
						d.Options.DeleteBeforeReplace = &hclsyntax.LiteralValueExpr{Val: cty.False, SrcRange: d.DeclRange}
						visit(d)
					}
				case *eval.Local, *eval.Invoke:
					visit(d)
				}
			}
		}
	}
	for _, n := range m.nodes {
		if r, ok := n.(*eval.Resource); ok && createsFirst(r) {
			visit(r)
		}
	}
}

// createsFirst reports whether a resource has create_before_destroy.
func createsFirst(r *eval.Resource) bool {
	if r.Options.DeleteBeforeReplace == nil || resource.IsProviderType(r.Type) {
		return false
	}
	v, diags := r.Options.DeleteBeforeReplace.Value(nil)
	return !diags.HasErrors() && v.RawEquals(cty.False)
}
