package hcl

import (
	"fmt"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/eval"
)

// address is a resource or module address, from the module being
// decoded, as moved, import and removed blocks write them: random_pet.web,
// random_pet.web[0], module.site, module.site["a"],
// module.site[0].random_pet.web.
type address struct {
	modules   []step    // the module instances it is in, outermost first
	typ, name string    // typ is "module" for a module
	key       cty.Value // cty.NilVal: none
	rng       hcl.Range
}

// step is a module instance of an address: its name, and its key.
type step struct {
	name string
	key  cty.Value
}

// String renders the address as written.
func (a address) String() string {
	s := ""
	for _, st := range a.modules {
		s += "module." + instanceName(st.name, st.key) + "."
	}
	return s + a.typ + "." + a.instance()
}

// keyed reports whether the address names an instance by a key, its own
// or a module's.
func (a address) keyed() bool {
	for _, st := range a.modules {
		if st.key != cty.NilVal {
			return true
		}
	}
	return a.key != cty.NilVal
}

// instance is the name of the addressed instance: web, web[0], web["a"].
func (a address) instance() string { return instanceName(a.name, a.key) }

func instanceName(name string, key cty.Value) string {
	if key == cty.NilVal {
		return name
	}
	return name + "[" + eval.InstanceKey(key) + "]"
}

// address reads the address an argument gives.
func (m *module) address(a *hcl.Attribute, what string) (address, bool) {
	t, diags := hcl.AbsTraversalForExpr(a.Expr)
	ad, ok := parseAddress(t)
	ad.rng = a.Expr.Range()
	if diags.HasErrors() || !ok || ad.typ == "data" || ad.typ == "var" || ad.typ == "local" {
		m.errorf(a.Expr.Range(), "Invalid address", "%s must be the address of a resource or module, such as random_pet.web, random_pet.web[0], module.site or module.site.random_pet.web.", what)
		return ad, false
	}
	return ad, true
}

// parseAddress reads the steps of an address.
func parseAddress(t hcl.Traversal) (address, bool) {
	var ad address
	for len(t) > 0 {
		first, _ := attrName(t, 0)
		name, ok := attrName(t, 1)
		if !ok {
			return ad, false
		}
		key := cty.NilVal
		n := 2
		if len(t) > 2 {
			if ix, isIndex := t[2].(hcl.TraverseIndex); isIndex {
				if eval.InstanceKey(ix.Key) == "" {
					return ad, false
				}
				key, n = ix.Key, 3
			}
		}
		switch {
		case first == "module" && len(t) > n:
			ad.modules = append(ad.modules, step{name, key})
		case len(t) > n:
			return ad, false
		default:
			ad.typ, ad.name, ad.key = first, name, key
		}
		t = t[n:]
	}
	return ad, ad.typ != ""
}

// scopeOf returns the module body that holds what an address names, with
// the module calls on the way, or nil when one is not declared.
func (m *module) scopeOf(a address) (*resolver, []*eval.Module) {
	calls := m.declaredCalls(a)
	switch {
	case len(calls) < len(a.modules):
		return nil, nil
	case len(calls) == 0:
		return m.res, nil
	}
	r, _ := calls[len(calls)-1].Body.Resolver.(*resolver)
	if r == nil {
		return nil, nil
	}
	return r, calls
}

// declaredCalls returns the module calls on the way to what an address
// names, as far as they are declared.
func (m *module) declaredCalls(a address) []*eval.Module {
	r := m.res
	var calls []*eval.Module
	for _, st := range a.modules {
		mod, _ := r.modules[st.name].(*eval.Module)
		if mod == nil || mod.Body == nil {
			break
		}
		calls = append(calls, mod)
		if r, _ = mod.Body.Resolver.(*resolver); r == nil {
			break
		}
	}
	return calls
}

// node returns the resource or module an address names, if it is declared.
func (m *module) node(a address) eval.Node {
	r, _ := m.scopeOf(a)
	switch {
	case r == nil:
		return nil
	case a.typ == "module":
		return r.modules[a.name]
	}
	return r.resources[a.typ][a.name]
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
	// A chain of moves (a to b, b to c) moves a to where the chain ends,
	// as OpenTofu chains them.
	for seen := 0; target == nil && seen < len(m.moves); seen++ {
		next, ok := m.moves[to.String()]
		if !ok {
			break
		}
		to, target = next, m.node(next)
	}
	if target == nil {
		m.errorf(to.rng, "Moved object not declared", "%s is not declared; a moved block's to names the new address of something that is.", to)
		return
	}
	if old := m.node(from); old != nil && !from.keyed() && !to.keyed() {
		m.errorf(from.rng, "Moved object still declared", "%s is still declared at %s; remove it, or remove this moved block.", from, old.Declaration().DeclRange)
		return
	}
	mv := eval.Moved{From: from.instance(), Range: b.DefRange}
	if to.key != cty.NilVal {
		mv.Key = eval.InstanceKey(to.key)
	}
	if len(from.modules) > 0 || len(to.modules) > 0 {
		if !m.betweenModules(from, to, &mv) {
			return
		}
	}
	switch n := target.(type) {
	case *eval.Resource:
		if from.typ != to.typ {
			token, _, diags := m.resolveType(from.typ, nil, resourceKind, from.rng)
			m.report(diags)
			mv.Type = token
		}
		n.Options.Moved = append(n.Options.Moved, mv)
	case *eval.Module:
		n.Options.Moved = append(n.Options.Moved, mv)
	}
}

// impliedMove adds the move OpenTofu implies when count is added to or
// taken from a resource or module call (Terraform, of a resource only): the object without a key becomes
// instance [0], or instance [0] the object without a key, unless a moved
// block moves it elsewhere, in Terraform files. Aliases of objects the
// state does not hold change nothing.
func (m *module) impliedMove(typ, name string, e eval.Expansion, moves *[]eval.Moved, rng hcl.Range) {
	mv := eval.Moved{From: name, Key: "0", Range: rng}
	switch {
	case !m.tf || e.ForEach != nil:
		return
	case e.Count == nil:
		mv = eval.Moved{From: name + "[0]", Range: rng}
	}
	if _, moved := m.moves[typ+"."+mv.From]; !moved {
		*moves = append(*moves, mv)
	}
}

// movesOf returns the addresses the moved blocks among blocks move to, by
// the address they move from; blocks with invalid addresses are left out
// (moved reports them).
func movesOf(blocks []*hcl.Block) map[string]address {
	out := map[string]address{}
	for _, b := range blocks {
		if b.Type != "moved" {
			continue
		}
		attrs, _ := b.Body.JustAttributes()
		var ends [2]address
		for i, name := range []string{"from", "to"} {
			a := attrs[name]
			if a == nil {
				break
			}
			t, diags := hcl.AbsTraversalForExpr(a.Expr)
			ad, ok := parseAddress(t)
			if diags.HasErrors() || !ok {
				break
			}
			ad.rng = a.Expr.Range()
			ends[i] = ad
		}
		if ends[0].typ != "" && ends[1].typ != "" {
			out[ends[0].String()] = ends[1]
		}
	}
	return out
}

// expanded reports whether an address names an instance of a module with
// count or for_each in a step without its key.
func (m *module) expanded(a address) bool {
	_, calls := m.scopeOf(a)
	for i, c := range calls {
		if c.Expansion.Expanded() && a.modules[i].key == cty.NilVal {
			return true
		}
	}
	return false
}

// betweenModules completes a move between modules: the module instances
// the resource leaves (the types of those declared name the state it
// leaves; a call no longer declared has none), and those it enters, which
// must have their keys.
func (m *module) betweenModules(from, to address, mv *eval.Moved) bool {
	fromCalls := m.declaredCalls(from)
	if m.expanded(from) || m.expanded(to) {
		m.errorf(mv.Range, "Module instance key needed", "A move between modules names module instances: give the key of each module with count or for_each, as in module.site[0].")
		return false
	}
	for i, st := range from.modules {
		mm := eval.MovedModule{Name: instanceName(st.name, st.key)}
		if i < len(fromCalls) {
			mm.Type = fromCalls[i].Type
		}
		mv.FromModules = append(mv.FromModules, mm)
	}
	for _, st := range to.modules {
		mv.Within = append(mv.Within, instanceName(st.name, st.key))
	}
	mv.Up = len(to.modules)
	return true
}

var importSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "to", Required: true}, {Name: "id", Required: true}, {Name: "for_each"},
	{Name: "provider"}}}

// importBlock decodes an import block: the resource (or instance) at to
// adopts the existing resource whose provider ID is id. With for_each, to
// names an instance by a key computed from each, as id may.
func (m *module) importBlock(b *hcl.Block) {
	content, diags := b.Body.Content(importSchema)
	m.report(diags)
	if diags.HasErrors() {
		return
	}
	toAttr, key := content.Attributes["to"], hcl.Expression(nil)
	if fe := content.Attributes["for_each"]; fe != nil {
		if ix, ok := toAttr.Expr.(*hclsyntax.IndexExpr); ok {
			to := *toAttr
			to.Expr, key = ix.Collection, ix.Key
			toAttr = &to
		}
	}
	to, ok := m.address(toAttr, "to")
	if !ok {
		return
	}
	r, _ := m.node(to).(*eval.Resource)
	if r == nil || to.typ == "module" {
		m.errorf(to.rng, "Import target not declared", "%s is not a declared resource; declare it, with the arguments it has, before importing it.", to)
		return
	}
	if p := content.Attributes["provider"]; p != nil && !sameReference(p.Expr, r.Options.Provider) {
		m.errorf(p.Expr.Range(), "Invalid import provider argument",
			"The provider argument of %s must be given, and be the one this import block names; the resource's provider imports it.", to)
		return
	}
	id := content.Attributes["id"].Expr
	fe := content.Attributes["for_each"]
	if fe != nil {
		if key == nil && to.key == cty.NilVal || !r.Expansion.Expanded() {
			m.errorf(to.rng, "Import key needed", "An import block with for_each imports instances of a resource with count or for_each: name one by a key from each, as in %s[each.key].", to)
			return
		}
		if key == nil {
			key = &hclsyntax.LiteralValueExpr{Val: to.key, SrcRange: to.rng}
		}
		// The IDs by instance key, which the resource picks its own from.
		id, to.key = importIDs(fe.Expr, key, id), cty.NilVal
	}
	if _, calls := m.scopeOf(to); len(calls) > 0 {
		for i, c := range calls {
			if c.Expansion.Expanded() != (to.modules[i].key != cty.NilVal) {
				m.errorf(to.rng, "Invalid import address", "%s must give the key of each module with count or for_each, and only of those, as in module.site[0].", to)
				return
			}
		}
		m.importIntoModule(to, r, calls, id, fe != nil)
		return
	}
	if fe != nil {
		r.Options.Import = importEach(r, id, r.Options.Import)
		return
	}
	if to.key != cty.NilVal {
		id = instanceOnly(r.Expansion, to.key, id, r.Options.Import)
	} else if r.Options.Import != nil {
		m.errorf(b.DefRange, "Duplicate import", "%s is imported already; import it once.", to)
		return
	}
	r.Options.Import = id
}

// sameReference reports whether two expressions are the same reference,
// such as aws.east.
func sameReference(a, b hcl.Expression) bool {
	if a == nil || b == nil {
		return false
	}
	ta, da := hcl.AbsTraversalForExpr(a)
	tb, db := hcl.AbsTraversalForExpr(b)
	if da.HasErrors() || db.HasErrors() || len(ta) != len(tb) {
		return false
	}
	for i := range ta {
		na, _ := attrName(ta, i)
		nb, _ := attrName(tb, i)
		if na == "" || na != nb {
			return false
		}
	}
	return true
}

// importIDs returns an expression that is the map of the IDs the import
// of each element of forEach gives, by the instance keys it names:
//
//	{ for each in [for k, v in forEach : { key = k, value = v }] : key => id }
func importIDs(forEach, key, id hcl.Expression) hcl.Expression {
	rng := id.Range()
	item := func(k string, v hclsyntax.Expression) hclsyntax.ObjectConsItem {
		return hclsyntax.ObjectConsItem{KeyExpr: &hclsyntax.ObjectConsKeyExpr{Wrapped: reference(rng, k)}, ValueExpr: v}
	}
	pairs := &hclsyntax.ForExpr{KeyVar: "k", ValVar: "v", CollExpr: forEach.(hclsyntax.Expression),
		ValExpr:  &hclsyntax.ObjectConsExpr{Items: []hclsyntax.ObjectConsItem{item("key", reference(rng, "k")), item("value", reference(rng, "v"))}, SrcRange: rng},
		SrcRange: rng, OpenRange: rng, CloseRange: rng}
	return &hclsyntax.ForExpr{ValVar: "each", CollExpr: pairs, KeyExpr: key.(hclsyntax.Expression), ValExpr: id.(hclsyntax.Expression),
		SrcRange: rng, OpenRange: rng, CloseRange: rng}
}

// importEach returns an expression that is the ID that ids (see
// importIDs) give the instance of r, and otherwise for the instances it
// does not name, or when ids is null (a module instance the import does
// not name):
//
//	ids == null ? otherwise : contains(keys(ids), k) ? ids[k] : otherwise
//
// where k is tostring(<the instance's key>).
func importEach(r *eval.Resource, ids, otherwise hcl.Expression) hcl.Expression {
	rng := ids.Range()
	call := func(name string, args ...hclsyntax.Expression) hclsyntax.Expression {
		return &hclsyntax.FunctionCallExpr{Name: name, Args: args, NameRange: rng, OpenParenRange: rng, CloseParenRange: rng}
	}
	which := reference(rng, "count", "index")
	if r.Expansion.ForEach != nil {
		which = reference(rng, "each", "key")
	}
	if otherwise == nil {
		otherwise = &hclsyntax.LiteralValueExpr{Val: cty.NullVal(cty.String), SrcRange: rng}
	}
	m, k := ids.(hclsyntax.Expression), call("tostring", which)
	null := &hclsyntax.LiteralValueExpr{Val: cty.NullVal(cty.DynamicPseudoType), SrcRange: rng}
	return &hclsyntax.ConditionalExpr{
		Condition:  &hclsyntax.BinaryOpExpr{LHS: m, Op: hclsyntax.OpEqual, RHS: null, SrcRange: rng},
		TrueResult: otherwise.(hclsyntax.Expression),
		FalseResult: &hclsyntax.ConditionalExpr{
			Condition:   call("contains", call("keys", m), k),
			TrueResult:  &hclsyntax.IndexExpr{Collection: m, Key: k, SrcRange: rng, OpenRange: rng, BracketRange: rng},
			FalseResult: otherwise.(hclsyntax.Expression),
			SrcRange:    rng,
		},
		SrcRange: rng,
	}
}

// reference is the reference to names (var.x, each.key) at rng.
func reference(rng hcl.Range, names ...string) *hclsyntax.ScopeTraversalExpr {
	t := hcl.Traversal{hcl.TraverseRoot{Name: names[0], SrcRange: rng}}
	for _, n := range names[1:] {
		t = append(t, hcl.TraverseAttr{Name: n, SrcRange: rng})
	}
	return &hclsyntax.ScopeTraversalExpr{Traversal: t, SrcRange: rng}
}

// instanceOnly returns an expression that is e for the instance with key
// of a resource or module expanded by exp, and otherwise (for the other
// instances; null of e's type when nil, e being an ID or, for an import
// with for_each into a module instance, the IDs by key).
func instanceOnly(exp eval.Expansion, key cty.Value, e, otherwise hcl.Expression) hcl.Expression {
	rng := e.Range()
	which := hcl.Traversal{hcl.TraverseRoot{Name: "count", SrcRange: rng}, hcl.TraverseAttr{Name: "index", SrcRange: rng}}
	if exp.ForEach != nil {
		which = hcl.Traversal{hcl.TraverseRoot{Name: "each", SrcRange: rng}, hcl.TraverseAttr{Name: "key", SrcRange: rng}}
	}
	if otherwise == nil {
		otherwise = &hclsyntax.LiteralValueExpr{Val: cty.NullVal(cty.DynamicPseudoType), SrcRange: rng}
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

// unkeyed reports whether the address of a removed block names a
// resource or module without instance keys, as OpenTofu requires of a
// Terraform configuration: every instance leaves together. (In *.hcl
// files a removed block may name an instance.)
func (m *module) unkeyed(from address) bool {
	modules := slices.ContainsFunc(from.modules, func(st step) bool { return st.key != cty.NilVal })
	switch {
	case modules || from.typ == "module" && from.key != cty.NilVal:
		m.errorf(from.rng, "Module instance address with keys is not allowed",
			"A removed block names a module call, never one of its instances: take the instance keys out of %s; all the instances leave the configuration together.", from)
	case from.key != cty.NilVal:
		m.errorf(from.rng, "Resource instance address with keys is not allowed",
			"A removed block names a resource, never one of its instances: take the instance key out of %s; all the instances leave the configuration together.", from)
	default:
		return true
	}
	return false
}

// removedProvisioners checks the provisioner and connection blocks of a
// removed block. Each provisioner must be a destroy-time one, as OpenTofu
// requires; OpenTofu runs them only when the block deletes the resource,
// which Cairn does not do yet (an error), so a block that forgets the
// resource runs none, as in OpenTofu.
func (m *module) removedProvisioners(blocks hcl.Blocks, destroy bool) {
	for _, p := range blocks {
		switch {
		case p.Type == "lifecycle":
		case destroy:
			m.errorf(p.DefRange, "Unsupported block in removed", "Cairn does not run the provisioners of a removed block that deletes its resource. A resource's destroy-time provisioners run from the state when it leaves the configuration: add this provisioner (when = destroy) to the resource block, update, then remove the resource.")
		case p.Type == "provisioner":
			attrs, _ := p.Body.JustAttributes()
			if a := attrs["when"]; a == nil || m.keyword(a.Expr) != "destroy" {
				m.errorf(p.DefRange, "Invalid \"removed.provisioner\" block", "A removed block holds destroy-time provisioners only: add when = destroy to this one, or remove it.")
			}
		}
	}
}

var removedSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "from", Required: true}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "lifecycle"}, {Type: "provisioner", LabelNames: []string{"type"}}, {Type: "connection"}},
}

var removedLifecycleSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "destroy"}}}

// removed decodes a removed block. Unless lifecycle { destroy = true }, the
// resource (or instance, in *.hcl files) or module at from leaves the
// stack without being deleted, as in OpenTofu; with it, the block only
// records that it is deleted.
func (m *module) removed(b *hcl.Block) {
	content, diags := b.Body.Content(removedSchema)
	m.report(diags)
	if diags.HasErrors() {
		return
	}
	from, ok := m.address(content.Attributes["from"], "from")
	if !ok || m.tf && !m.unkeyed(from) {
		return
	}
	if n := m.node(from); n != nil {
		m.errorf(from.rng, "Removed resource still declared", "%s is declared at %s; remove its declaration, or this removed block.", from, n.Declaration().DeclRange)
		return
	}
	// Without lifecycle { destroy }, OpenTofu forgets (Terraform deletes).
	destroy := false
	if lc := m.single(content.Blocks, "lifecycle"); lc != nil {
		lcContent, diags := lc.Body.Content(removedLifecycleSchema)
		m.report(diags)
		destroy = m.constantBool(lcContent.Attributes["destroy"], false)
	}
	m.removedProvisioners(content.Blocks, destroy)
	if destroy {
		return
	}
	n := &eval.Removed{Decl: eval.Decl{Name: from.instance(), Namespace: from.typ, Noun: fmt.Sprintf("removed %q", from.typ), NameRange: from.rng, DeclRange: b.DefRange}}
	if from.typ == "module" {
		n.Noun = "removed module"
	} else {
		token, _, diags := m.resolveType(from.typ, nil, resourceKind, from.rng)
		m.report(diags)
		if diags.HasErrors() {
			return
		}
		n.Type = token
	}
	if len(from.modules) == 0 {
		m.nodes = append(m.nodes, n)
		return
	}
	// A module's resource is forgotten in the module's body, which names it.
	_, calls := m.scopeOf(from)
	if len(calls) < len(from.modules) || m.expanded(from) || from.keyed() && from.key == cty.NilVal {
		m.errorf(from.rng, "Unsupported removed address", "%s must be in a declared module without count or for_each; forget the resources of a module that is gone, or expanded, with `cairn state delete`.", from)
		return
	}
	body := calls[len(calls)-1].Body
	body.Nodes = append(body.Nodes, n)
}
