package hcl

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/eval"
)

// address is a resource or module address of the module being decoded, as
// moved, import and removed blocks write them: random_pet.web,
// random_pet.web[0], module.site, module.site["a"].
type address struct {
	typ, name string    // typ is "module" for a module
	key       cty.Value // cty.NilVal: none
	rng       hcl.Range
}

// String renders the address as written.
func (a address) String() string {
	return a.typ + "." + a.instance()
}

// instance is the name of the addressed instance: web, web[0], web["a"].
func (a address) instance() string {
	if a.key == cty.NilVal {
		return a.name
	}
	return a.name + "[" + eval.InstanceKey(a.key) + "]"
}

// address reads the address an argument gives.
func (m *module) address(a *hcl.Attribute, what string) (address, bool) {
	t, diags := hcl.AbsTraversalForExpr(a.Expr)
	ad := address{rng: a.Expr.Range()}
	if !diags.HasErrors() && len(t) >= 2 && len(t) <= 3 {
		ad.typ, _ = attrName(t, 0)
		ad.name, _ = attrName(t, 1)
		if len(t) == 3 {
			if ix, ok := t[2].(hcl.TraverseIndex); ok && eval.InstanceKey(ix.Key) != "" {
				ad.key = ix.Key
			} else {
				ad.name = ""
			}
		}
	}
	if ad.typ == "" || ad.name == "" || ad.typ == "data" || ad.typ == "var" || ad.typ == "local" {
		m.errorf(a.Expr.Range(), "Invalid address", "%s must be the address of a resource or module of this module, such as random_pet.web, random_pet.web[0] or module.site.", what)
		return ad, false
	}
	return ad, true
}

// node returns the resource or module an address names, if it is declared.
func (m *module) node(a address) eval.Node {
	if a.typ == "module" {
		return m.res.modules[a.name]
	}
	return m.res.resources[a.typ][a.name]
}

var movedSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}, {Name: "to", Required: true}}}

// moved decodes a moved block: the resource or module at to takes over the
// state of the one at from, through an alias, so the rename replaces
// nothing.
func (m *module) moved(b *hcl.Block) {
	content, diags := b.Body.Content(movedSchema)
	m.report(diags)
	if diags.HasErrors() {
		return
	}
	from, ok1 := m.address(content.Attributes["from"], "from")
	to, ok2 := m.address(content.Attributes["to"], "to")
	if !ok1 || !ok2 {
		return
	}
	if (from.typ == "module") != (to.typ == "module") {
		m.errorf(b.DefRange, "Invalid move", "A resource can only move to a resource, and a module to a module.")
		return
	}
	target := m.node(to)
	if target == nil {
		m.errorf(to.rng, "Moved object not declared", "%s is not declared in this module; a moved block's to names the new address of something that is.", to)
		return
	}
	if old := m.node(from); old != nil && from.key == cty.NilVal && to.key == cty.NilVal {
		m.errorf(from.rng, "Moved object still declared", "%s is still declared at %s; remove it, or remove this moved block.", from, old.Declaration().DeclRange)
		return
	}
	mv := eval.Moved{From: from.instance(), Range: b.DefRange}
	if to.key != cty.NilVal {
		mv.Key = eval.InstanceKey(to.key)
	}
	switch n := target.(type) {
	case *eval.Resource:
		if from.typ != to.typ {
			token, _, diags := m.l.pkgs.resolve(from.typ, resourceKind, from.rng)
			m.report(diags)
			mv.Type = token
		}
		n.Options.Moved = append(n.Options.Moved, mv)
	case *eval.Module:
		n.Options.Moved = append(n.Options.Moved, mv)
	}
}

var importSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "to", Required: true}, {Name: "id", Required: true}}}

// importBlock decodes an import block: the resource (or instance) at to
// adopts the existing resource whose provider ID is id.
func (m *module) importBlock(b *hcl.Block) {
	content, diags := b.Body.Content(importSchema)
	m.report(diags)
	if diags.HasErrors() {
		return
	}
	to, ok := m.address(content.Attributes["to"], "to")
	if !ok {
		return
	}
	r, _ := m.node(to).(*eval.Resource)
	if r == nil || to.typ == "module" {
		m.errorf(to.rng, "Import target not declared", "%s is not a resource declared in this module; declare it, with the arguments it has, before importing it.", to)
		return
	}
	id := content.Attributes["id"].Expr
	if to.key != cty.NilVal {
		id = instanceOnly(r, to.key, id, r.Options.Import)
	} else if r.Options.Import != nil {
		m.errorf(b.DefRange, "Duplicate import", "%s is imported already; import it once.", to)
		return
	}
	r.Options.Import = id
}

// instanceOnly returns an expression that is e for the instance of r with
// key, and otherwise (for the other instances).
func instanceOnly(r *eval.Resource, key cty.Value, e, otherwise hcl.Expression) hcl.Expression {
	rng := e.Range()
	which := hcl.Traversal{hcl.TraverseRoot{Name: "count", SrcRange: rng}, hcl.TraverseAttr{Name: "index", SrcRange: rng}}
	if r.Expansion.ForEach != nil {
		which = hcl.Traversal{hcl.TraverseRoot{Name: "each", SrcRange: rng}, hcl.TraverseAttr{Name: "key", SrcRange: rng}}
	}
	if otherwise == nil {
		otherwise = &hclsyntax.LiteralValueExpr{Val: cty.NullVal(cty.String), SrcRange: rng}
	}
	return &hclsyntax.ConditionalExpr{
		Condition: &hclsyntax.BinaryOpExpr{
			LHS: &hclsyntax.ScopeTraversalExpr{Traversal: which, SrcRange: rng},
			Op:  hclsyntax.OpEqual,
			RHS: &hclsyntax.LiteralValueExpr{Val: key, SrcRange: rng},
		},
		TrueResult:  e.(hclsyntax.Expression),
		FalseResult: otherwise.(hclsyntax.Expression),
		SrcRange:    rng,
	}
}

var removedSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "lifecycle"}},
}

var removedLifecycleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "destroy"}}}

// removed decodes a removed block. With lifecycle { destroy = false }, the
// resource (or instance) at from leaves the stack without being deleted;
// otherwise the block only records that it is deleted.
func (m *module) removed(b *hcl.Block) {
	content, diags := b.Body.Content(removedSchema)
	m.report(diags)
	if diags.HasErrors() {
		return
	}
	from, ok := m.address(content.Attributes["from"], "from")
	if !ok {
		return
	}
	if n := m.node(from); n != nil {
		m.errorf(from.rng, "Removed resource still declared", "%s is declared at %s; remove its declaration, or this removed block.", from, n.Declaration().DeclRange)
		return
	}
	destroy := true
	if lc := m.single(content.Blocks, "lifecycle"); lc != nil {
		lcContent, diags := lc.Body.Content(removedLifecycleSchema)
		m.report(diags)
		destroy = m.constantBool(lcContent.Attributes["destroy"], true)
	}
	if destroy {
		return
	}
	if from.typ == "module" {
		m.errorf(from.rng, "Unsupported removed module", "Only resources can be forgotten; list the module's resources instead.")
		return
	}
	token, _, diags := m.l.pkgs.resolve(from.typ, resourceKind, from.rng)
	m.report(diags)
	if diags.HasErrors() {
		return
	}
	m.nodes = append(m.nodes, &eval.Removed{
		Decl: eval.Decl{Name: from.instance(), Namespace: from.typ, Noun: fmt.Sprintf("removed %q", from.typ), NameRange: from.rng, DeclRange: b.DefRange},
		Type: token,
	})
}
