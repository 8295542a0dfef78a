package hcl

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/eval"
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
	token, typeName, diags := m.l.pkgs.resolve(b.Labels[0], ephemeralKind, b.LabelRanges[0])
	m.report(diags)
	if typeName == "" {
		typeName = b.Labels[0]
	}
	inv := &eval.Invoke{Decl: m.typedDecl(b, "ephemeral."+typeName, "ephemeral"), Token: token, TokenRange: b.LabelRanges[0], Ephemeral: true}
	add(m.res.ephemeral, typeName, inv.Name, inv)
	m.nodes = append(m.nodes, inv)
	content, body, diags := b.Body.PartialContent(dataSchema)
	m.report(diags)
	sh := openShape
	if p := m.l.pkgs.get(resource.TypePackage(token)); p.schema != nil && token != "" {
		if fn := p.schema.Functions[token]; fn != nil && fn.Inputs != nil {
			sh = p.types().object(fn.Inputs.Properties, fn.Inputs.Required)
		}
		m.report(sh.check(body))
	}
	inv.Args = &bodyExpr{body: body, shape: sh, rng: b.DefRange}
	m.expansion(content, &inv.Expansion)
	if d := content.Attributes["depends_on"]; d != nil {
		inv.Options.DependsOn = d.Expr
	}
	if p := content.Attributes["provider"]; p != nil {
		inv.Options.Provider = p.Expr
	}
	if lc := m.single(content.Blocks, "lifecycle"); lc != nil {
		lcContent, diags := lc.Body.Content(dataLifecycleSchema)
		m.report(diags)
		m.conditions(lcContent.Blocks, &inv.Conditions)
	}
	var opts eval.ResourceOptions
	m.l.defaultVersion(resource.TypePackage(token), &opts)
	inv.Options.Version, inv.Options.PluginDownloadURL = opts.Version, opts.PluginDownloadURL
}

// ArgumentRange implements eval.Arguments: the range of the expression of
// a property set by an argument (not by a nested block).
func (e *bodyExpr) ArgumentRange(property string) (hcl.Range, bool) {
	syn, ok := e.body.(*hclsyntax.Body)
	if !ok {
		return hcl.Range{}, false
	}
	name := snake(property)
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
