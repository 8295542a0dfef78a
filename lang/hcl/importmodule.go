package hcl

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/eval"
)

// importIntoModule makes the resource at to, in a module, adopt the
// resource whose ID id gives, id being an expression of this module: the
// ID goes down through each module call as a hidden input (null for the
// module instances to does not name), and the resource's import ID is
// that input. With each, id is the map of IDs by instance key that an
// import with for_each gives (importIDs), from which the resource picks
// its own.
func (m *module) importIntoModule(to address, r *eval.Resource, calls []*eval.Module, id hcl.Expression, each bool) {
	rng := id.Range()
	for i, call := range calls {
		if key := to.modules[i].key; key != cty.NilVal {
			id = instanceOnly(call.Expansion, key, id, nil)
		}
		body := call.Body.Resolver.(*resolver)
		name := fmt.Sprintf("import %d", len(body.vars)) // not an identifier: no variable of the module can have it
		c := &eval.Config{Decl: eval.Decl{Name: name, Namespace: "var", Noun: "import ID", NameRange: rng, DeclRange: rng},
			Key: name, Type: cty.DynamicPseudoType, Default: &hclsyntax.LiteralValueExpr{Val: cty.NullVal(cty.String), SrcRange: rng}}
		body.vars[name] = c
		call.Body.Nodes = append(call.Body.Nodes, c)
		inputs := call.Inputs
		call.Inputs = &moreInputs{Expression: inputs, name: name, value: id}
		id = reference(rng, "var", name)
	}
	switch {
	case each:
		id = importEach(r, id, r.Options.Import)
	case to.key != cty.NilVal:
		id = instanceOnly(r.Expansion, to.key, id, r.Options.Import)
	case r.Options.Import != nil:
		id = &hclsyntax.ConditionalExpr{
			Condition:   &hclsyntax.BinaryOpExpr{LHS: id.(hclsyntax.Expression), Op: hclsyntax.OpEqual, RHS: &hclsyntax.LiteralValueExpr{Val: cty.NullVal(cty.String), SrcRange: rng}},
			TrueResult:  r.Options.Import.(hclsyntax.Expression),
			FalseResult: id.(hclsyntax.Expression),
			SrcRange:    rng,
		}
	}
	r.Options.Import = id
}

// moreInputs is a module call's inputs with one more: an import ID that
// importIntoModule passes down.
type moreInputs struct {
	hcl.Expression
	name  string
	value hcl.Expression
}

// Value implements hcl.Expression.
func (e *moreInputs) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	v, diags := e.Expression.Value(ctx)
	extra, more := e.value.Value(ctx)
	diags = append(diags, more...)
	plain, marks := v.Unmark()
	if diags.HasErrors() || !plain.IsKnown() || !plain.Type().IsObjectType() {
		return v, diags
	}
	attrs := map[string]cty.Value{e.name: extra}
	if !plain.IsNull() {
		for k, a := range plain.AsValueMap() {
			attrs[k] = a
		}
	}
	return cty.ObjectVal(attrs).WithMarks(marks), diags
}

// Variables implements hcl.Expression.
func (e *moreInputs) Variables() []hcl.Traversal {
	return append(e.Expression.Variables(), e.value.Variables()...)
}
