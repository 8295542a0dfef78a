package hcl

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/cairn-iac/cairn/engine/schema"
)

// ephemeralKind is what an ephemeral block's type label names: a function
// of its package's schema that Terraform calls an ephemeral resource.
var ephemeralKind = kind{"ephemeral resource type", func(p *pkg) map[string][]string { return p.ephemerals },
	func(s *schema.Package, tok string) (string, bool) { t, _, ok := s.ResolveFunction(tok); return t, ok }}

// ephemeral decodes an ephemeral block: an ephemeral resource, an invoke
// its provider opens in each preview and update once its arguments are
// known, renews if it asks, and closes at the end of the operation. Its
// value is ephemeral and secret: a provider's configuration, a write-only
// argument, local values and ephemeral outputs may take it, not what is
// kept. Its arguments may be ephemeral themselves.
func (m *module) ephemeral(b *hcl.Block) {
	m.invoke(b, ephemeralKind, "ephemeral", m.res.ephemeral).Ephemeral = true
}

// ArgumentRange implements eval.Arguments: the range of the expression of
// a property set by an argument (not by a nested block).
func (e *bodyExpr) ArgumentRange(property string) (hcl.Range, bool) {
	syn, ok := e.body.(*hclsyntax.Body)
	if !ok {
		return hcl.Range{}, false
	}
	name := schema.SnakeCase(property)
	for n, f := range e.shape.fields {
		if f.name == property {
			name = n
		}
	}
	if a := syn.Attributes[name]; a != nil {
		return a.Expr.Range(), true
	}
	return hcl.Range{}, false
}
