package hcl

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval"
)

// resourceSchema is the schema of the meta-arguments of a resource block;
// the rest of the block is the resource's properties.
var resourceSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "count"}, {Name: "for_each"}, {Name: "depends_on"}, {Name: "provider"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "lifecycle"}, {Type: "pulumi"}, {Type: "provisioner", LabelNames: []string{"type"}},
		{Type: "connection"}, {Type: "_"}},
}

// dataSchema is the schema of the meta-arguments of a data block.
var dataSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "count"}, {Name: "for_each"}, {Name: "depends_on"}, {Name: "provider"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "lifecycle"}, {Type: "_"}},
}

// dataLifecycleSchema is the schema of a data or ephemeral block's
// lifecycle block.
var dataLifecycleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "enabled"}}, Blocks: conditionBlocks}

// resource decodes a resource block.
func (m *module) resource(b *hcl.Block) {
	content, body, diags := b.Body.PartialContent(resourceSchema)
	m.report(diags)
	body = m.escaped(content.Blocks, body)
	token, typeName, diags := m.resolveType(b.Labels[0], content.Attributes["provider"], resourceKind, b.LabelRanges[0])
	m.report(diags)
	if typeName == "" {
		typeName = b.Labels[0] // unresolved: still declared, so that references to it do not fail too
	}
	r := &eval.Resource{Decl: m.typedDecl(b, typeName, "resource"), Type: token, TypeRange: b.LabelRanges[0]}
	add(m.res.resources, typeName, r.Name, r)
	m.nodes = append(m.nodes, r)
	sh := m.l.resourceShapes(token)
	if token != "" {
		m.report(sh.inputs.check(body))
	}
	r.Properties = &bodyExpr{body: body, shape: sh.inputs, rng: b.DefRange}
	m.expansion(content, &r.Expansion)
	m.impliedMove(typeName, r.Name, r.Expansion, &r.Options.Moved, b.DefRange)
	if d := content.Attributes["depends_on"]; d != nil {
		r.Options.DependsOn = m.dependsOn(d.Expr)
	}
	r.Options.Provider = m.providerOption(content.Attributes["provider"])
	m.lifecycle(content.Blocks, r, sh.inputs, b.DefRange)
	r.LogicalName = m.pulumiOptions(content.Blocks, &r.Options, sh, r)
	m.l.defaultVersion(resource.TypePackage(token), &r.Options)
	m.provisioners(content.Blocks, r, typeName)
}

// escaped merges into the arguments of a resource, data, ephemeral,
// module or provider block those of its escaping block "_", which holds
// the arguments (of the type, the module or the provider) whose names
// are meta-arguments' (count, lifecycle), as OpenTofu allows.
func (m *module) escaped(blocks hcl.Blocks, body hcl.Body) hcl.Body {
	var first *hcl.Block
	for _, b := range blocks.OfType("_") {
		if first != nil {
			m.errorf(b.DefRange, "Duplicate escaping block",
				"A block may have one escaping block \"_\", for the arguments whose names are meta-arguments'; the first is at %s. Merge the two.", first.DefRange)
			continue
		}
		first = b
		body = hcl.MergeBodies([]hcl.Body{body, b.Body})
	}
	return body
}

// data decodes a data block: a call of a provider function.
func (m *module) data(b *hcl.Block) *eval.Invoke {
	inv := m.invoke(b, dataKind, "data", m.res.data)
	inv.DeferChanged = true
	return inv
}

// invoke decodes what data and ephemeral blocks share: the call of a
// function of the type's package (of kind k), declared in the namespace
// and added to into; its arguments, checked against the function's
// inputs; its meta-arguments, and its lifecycle block's conditions and
// enabled (OpenTofu's).
func (m *module) invoke(b *hcl.Block, k kind, namespace string, into map[string]map[string]eval.Node) *eval.Invoke {
	content, body, diags := b.Body.PartialContent(dataSchema)
	m.report(diags)
	body = m.escaped(content.Blocks, body)
	token, typeName, diags := m.resolveType(b.Labels[0], content.Attributes["provider"], k, b.LabelRanges[0])
	m.report(diags)
	if typeName == "" {
		typeName = b.Labels[0]
	}
	inv := &eval.Invoke{Decl: m.typedDecl(b, namespace+"."+typeName, namespace), Token: token, TokenRange: b.LabelRanges[0]}
	add(into, typeName, inv.Name, inv)
	m.nodes = append(m.nodes, inv)
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
		inv.Options.DependsOn = m.dependsOn(d.Expr)
	}
	inv.Options.Provider = m.providerOption(content.Attributes["provider"])
	if lc := m.single(content.Blocks, "lifecycle"); lc != nil {
		lcContent, diags := lc.Body.Content(dataLifecycleSchema)
		m.report(diags)
		m.conditions(lcContent.Blocks, &inv.Conditions)
		m.enabled(lcContent.Attributes["enabled"], &inv.Expansion, nil, inv.Name)
	}
	var opts eval.ResourceOptions
	m.l.defaultVersion(resource.TypePackage(token), &opts)
	inv.Options.Version, inv.Options.PluginDownloadURL = opts.Version, opts.PluginDownloadURL
	return inv
}

var providerSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "alias"}, {Name: "for_each"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "pulumi"}, {Type: "_"}},
}

// provider decodes a provider block: a provider resource, the default
// provider of its package in the module when it has no alias. Its label
// is a package, or in a module of Terraform files a local name (see
// providers.go).
func (m *module) provider(b *hcl.Block) {
	local, pkg := b.Labels[0], b.Labels[0]
	if m.implies() {
		pkg = m.providerPackage(local, b.LabelRanges[0])
	}
	m.l.pkgs.declared[pkg] = true
	content, body, diags := b.Body.PartialContent(providerSchema)
	m.report(diags)
	body = m.escaped(content.Blocks, body)
	alias := ""
	if a := content.Attributes["alias"]; a != nil {
		v, diags := a.Expr.Value(nil)
		if diags.HasErrors() || v.Type() != cty.String || v.IsNull() {
			m.errorf(a.Expr.Range(), "Invalid provider alias", "The alias must be a constant string, such as \"east\".")
		} else {
			alias = v.AsString()
		}
	}
	token := "pulumi:providers:" + pkg
	name := local
	if alias != "" {
		name = alias
	}
	r := &eval.Resource{Decl: eval.Decl{Name: name, Namespace: "provider." + local, Noun: fmt.Sprintf("provider %q", local),
		NameRange: b.LabelRanges[0], DeclRange: b.DefRange}, Type: token, TypeRange: b.LabelRanges[0], DefaultProvider: alias == ""}
	add(m.res.providers, local, alias, r)
	m.nodes = append(m.nodes, r)
	sh := openShape
	if p := m.l.pkgs.get(pkg); p.schema != nil && p.schema.Provider != nil {
		sh = p.types().object(p.schema.Provider.InputProperties, p.schema.Provider.RequiredInputs)
		if diags := sh.check(body); m.implies() {
			m.l.unchecked[r] = diags // reported if the provider is used (pruneProviders)
		} else {
			m.report(diags)
		}
	}
	r.Properties = &bodyExpr{body: body, shape: sh, rng: b.DefRange}
	m.expansion(content, &r.Expansion)
	if r.Expansion.ForEach != nil && alias == "" {
		m.errorf(content.Attributes["for_each"].NameRange, "Provider for_each needs an alias",
			"A provider block with for_each makes one configuration per key, so it cannot be the default one; give it an alias and choose an instance with provider = %s.<alias>[<key>].", local)
	}
	r.LogicalName = m.pulumiOptions(content.Blocks, &r.Options, shapes{sh, sh}, r)
	m.l.defaultVersion(pkg, &r.Options)
}

// typedDecl is the declaration of a block labelled with a type and a name;
// it reads as `resource "random_pet" "web"`.
func (m *module) typedDecl(b *hcl.Block, namespace, noun string) eval.Decl {
	return eval.Decl{Name: b.Labels[1], Namespace: namespace, Noun: fmt.Sprintf("%s %q", noun, b.Labels[0]),
		NameRange: b.LabelRanges[1], DeclRange: b.DefRange}
}

// expansion reads count and for_each.
func (m *module) expansion(content *hcl.BodyContent, e *eval.Expansion) {
	if c := content.Attributes["count"]; c != nil {
		e.Count = c.Expr
	}
	if f := content.Attributes["for_each"]; f != nil {
		e.ForEach = f.Expr
		if e.Count != nil {
			m.errorf(f.NameRange, "Invalid combination of \"count\" and \"for_each\"",
				"The \"count\" and \"for_each\" meta-arguments are mutually exclusive; only one should be used to be explicit about the number of resources to be created.")
		}
	}
}

// defaultProviders returns the module's default providers as a list, for
// the module calls that do not pass providers: a module's resources use its
// caller's default providers, as in Terraform.
func (m *module) defaultProviders(rng hcl.Range) hcl.Expression {
	var exprs []hclsyntax.Expression
	for _, pkg := range slices.Sorted(maps.Keys(m.res.providers)) {
		if m.res.providers[pkg][""] != nil {
			exprs = append(exprs, &hclsyntax.ScopeTraversalExpr{Traversal: hcl.Traversal{hcl.TraverseRoot{Name: pkg, SrcRange: rng}}, SrcRange: rng})
		}
	}
	if len(exprs) == 0 {
		return nil
	}
	return &hclsyntax.TupleConsExpr{Exprs: exprs, SrcRange: rng, OpenRange: rng}
}

// resourceShapes returns the shapes of a resource type's inputs and
// outputs.
func (l *loader) resourceShapes(token string) shapes {
	p := l.pkgs.get(resource.TypePackage(token))
	if p.schema == nil || p.schema.Resources[token] == nil {
		return shapes{openShape, openShape}
	}
	return p.types().resource(token)
}

// types returns the shapes of the package's types.
func (p *pkg) types() *types {
	if p.shapes == nil {
		p.shapes = newTypes(p.schema)
	}
	return p.shapes
}
