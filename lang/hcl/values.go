package hcl

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/eval"
)

var variableSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "type"}, {Name: "default"}, {Name: "description"}, {Name: "sensitive"}, {Name: "nullable"},
		{Name: "ephemeral"}, {Name: "deprecated"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "validation"}},
}

var assertionSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "condition", Required: true}, {Name: "error_message", Required: true}}}

// variable decodes a variable block: a value of the stack's configuration
// (<project>:<name>) in the root module, an input in a module's body. An
// ephemeral variable's value is marked ephemeral.
func (m *module) variable(b *hcl.Block) {
	name := b.Labels[0]
	content, diags := b.Body.Content(variableSchema)
	m.report(diags)
	c := &eval.Config{Decl: eval.Decl{Name: name, Namespace: "var", Noun: "variable", NameRange: b.LabelRanges[0], DeclRange: b.DefRange},
		Key: name, Type: cty.DynamicPseudoType, TerraformTypes: true}
	if a := content.Attributes["type"]; a != nil {
		c.Type, c.Defaults = m.typeConstraint(a.Expr)
		m.hclVars[name] = !c.Type.IsPrimitiveType()
	}
	if a := content.Attributes["default"]; a != nil {
		c.Default = a.Expr
	}
	c.Secret = m.constantBool(content.Attributes["sensitive"], false)
	c.Ephemeral = m.constantBool(content.Attributes["ephemeral"], false)
	c.Deprecated = m.optionalString(content.Attributes["deprecated"])
	c.NotNull = !m.constantBool(content.Attributes["nullable"], true)
	for _, v := range content.Blocks {
		c.Validations = append(c.Validations, m.assertion(v.Body))
	}
	addTo(m.res.vars, name, c)
	m.nodes = append(m.nodes, c)
}

// typeConstraint reads a variable's type constraint, with Terraform's
// shorthands: list is list(any), map is map(any). The quoted forms of
// Terraform 0.11 ("string") are errors, as in Terraform since 0.15.
func (m *module) typeConstraint(expr hcl.Expression) (cty.Type, *typeexpr.Defaults) {
	switch hcl.ExprAsKeyword(expr) {
	case "list":
		return cty.List(cty.DynamicPseudoType), nil
	case "map":
		return cty.Map(cty.DynamicPseudoType), nil
	}
	if v, diags := expr.Value(nil); !diags.HasErrors() && v.Type() == cty.String && !v.IsNull() {
		m.errorf(expr.Range(), "Invalid quoted type constraints",
			"Terraform 0.11 and earlier wrote type constraints in quotes; write this one without them: type = %s.", v.AsString())
		return cty.DynamicPseudoType, nil
	}
	ty, defaults, diags := typeexpr.TypeConstraintWithDefaults(expr)
	m.report(diags)
	return ty, defaults
}

// assertion decodes { condition, error_message }.
func (m *module) assertion(body hcl.Body) eval.Assertion {
	content, diags := body.Content(assertionSchema)
	m.report(diags)
	var a eval.Assertion
	if c := content.Attributes["condition"]; c != nil {
		a.Condition = c.Expr
	}
	if e := content.Attributes["error_message"]; e != nil {
		a.Message = e.Expr
	}
	return a
}

// constantBool returns the value of an argument that must be a constant
// true or false, or def when it is absent.
func (m *module) constantBool(a *hcl.Attribute, def bool) bool {
	if a == nil {
		return def
	}
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() || v.Type() != cty.Bool || v.IsNull() {
		m.errorf(a.Expr.Range(), "Invalid value", "%s must be a constant true or false.", a.Name)
		return def
	}
	return v.True()
}

// deprecatedInputs warns of the arguments of a module call that give a
// value to a deprecated variable of the module's body.
func (m *module) deprecatedInputs(body []eval.Node, inputs hcl.Body) {
	given, _ := inputs.JustAttributes()
	for _, n := range body {
		if c, ok := n.(*eval.Config); ok && c.Deprecated != "" && given[c.Name] != nil {
			m.l.diags = append(m.l.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: fmt.Sprintf("Deprecated input %s", c.Name),
				Detail: c.Deprecated, Subject: given[c.Name].Range.Ptr()})
		}
	}
}

// optionalString returns the value of an argument that must be a
// constant string, or "" when it is absent.
func (m *module) optionalString(a *hcl.Attribute) string {
	if a == nil {
		return ""
	}
	v, _ := m.constantString(a, "Invalid value", a.Name+" must be a constant string.")
	return v
}

// locals decodes a locals block: one local value per argument.
func (m *module) locals(b *hcl.Block) {
	attrs, diags := b.Body.JustAttributes()
	m.report(diags)
	for _, a := range sortedAttributes(attrs) {
		l := &eval.Local{Decl: eval.Decl{Name: a.Name, Namespace: "local", Noun: "local value", NameRange: a.NameRange, DeclRange: a.Range},
			Value: a.Expr}
		addTo(m.res.locals, a.Name, l)
		m.nodes = append(m.nodes, l)
	}
}

var outputSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "value", Required: true}, {Name: "description"}, {Name: "sensitive"}, {Name: "depends_on"}, {Name: "ephemeral"},
	{Name: "deprecated"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "precondition"}}}

// output decodes an output block: a stack output, or an output of a
// module. An ephemeral output (of a module) may have an ephemeral value,
// and is left out of the module's component.
func (m *module) output(b *hcl.Block) {
	content, diags := b.Body.Content(outputSchema)
	m.report(diags)
	o := &eval.Output{Decl: eval.Decl{Name: b.Labels[0], Noun: "output", NameRange: b.LabelRanges[0], DeclRange: b.DefRange},
		Secret: m.constantBool(content.Attributes["sensitive"], false)}
	if a := content.Attributes["ephemeral"]; a != nil && m.constantBool(a, false) {
		if m.dir == m.l.root {
			m.errorf(a.Range, "Ephemeral output not allowed", "The root module's outputs are kept in the stack's state, so they cannot be ephemeral; only a module's outputs can.")
		}
		o.Ephemeral = true
	}
	if v := content.Attributes["value"]; v != nil {
		o.Value = v.Expr
	}
	m.res.outputs[o.Name] = o
	if msg := m.optionalString(content.Attributes["deprecated"]); msg != "" {
		m.res.deprecated[o.Name] = msg
	}
	if d := content.Attributes["depends_on"]; d != nil {
		o.DependsOn = m.dependsOn(d.Expr)
	}
	for _, p := range content.Blocks {
		o.Preconditions = append(o.Preconditions, m.assertion(p.Body))
	}
	m.nodes = append(m.nodes, o)
}

var checkSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "assert"}, {Type: "data", LabelNames: []string{"type", "name"}}}}

// scopedDataSchema holds what a check block's data block may not have.
var scopedDataSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "count"}, {Name: "for_each"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "lifecycle"}}}

// check decodes a check block: assertions whose failures are warnings, and
// the data source scoped to it, whose failures are warnings too and which
// only its assertions may refer to. As in Terraform, a check block has at
// least one assertion and at most one data block, without count, for_each
// or lifecycle.
func (m *module) check(b *hcl.Block) {
	content, diags := b.Body.Content(checkSchema)
	m.report(diags)
	c := &eval.Check{Decl: eval.Decl{Name: b.Labels[0], Noun: "check", NameRange: b.LabelRanges[0], DeclRange: b.DefRange}}
	var scoped *hcl.Block
	for _, blk := range content.Blocks {
		switch blk.Type {
		case "assert":
			a := m.assertion(blk.Body)
			if m.tf && a.Condition != nil && len(a.Condition.Variables()) == 0 {
				m.errorf(a.Condition.Range(), "Invalid assert expression",
					"The condition must refer to at least one object of the configuration (a variable, resource, data source or local value), or it checks nothing.")
			}
			c.Assertions = append(c.Assertions, a)
		case "data":
			if scoped != nil {
				m.errorf(blk.DefRange, "Multiple data resource blocks", "A check block holds one data block; the first is at %s. Move this one to a check block of its own.", scoped.DefRange)
				continue
			}
			scoped = blk
			if !m.scopedData(blk) {
				continue
			}
			inv := m.data(blk)
			inv.Check = c
			m.res.scoped[inv] = c
		}
	}
	if len(c.Assertions) == 0 {
		m.errorf(b.DefRange, "Zero assert blocks", "A check block needs at least one assert block, with a condition and an error_message.")
	}
	m.nodes = append(m.nodes, c)
}

// scopedData reports whether a check block's data block is valid,
// reporting the meta-arguments and blocks it may not have.
func (m *module) scopedData(blk *hcl.Block) bool {
	content, _, _ := blk.Body.PartialContent(scopedDataSchema)
	ok := true
	for _, a := range sortedAttributes(content.Attributes) {
		m.errorf(a.NameRange, fmt.Sprintf("Invalid %q argument", a.Name), "A data block in a check block has one instance: count and for_each are not allowed there. Declare the data source outside the check block to have several.")
		ok = false
	}
	for _, l := range content.Blocks {
		m.errorf(l.DefRange, "Invalid lifecycle block", "A data block in a check block has no lifecycle block: the check block's assertions check it.")
		ok = false
	}
	return ok
}

// sortedAttributes returns attributes in source order.
func sortedAttributes(attrs hcl.Attributes) []*hcl.Attribute {
	out := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		out = append(out, a)
	}
	sortByRange(out, func(a *hcl.Attribute) hcl.Range { return a.Range })
	return out
}

// sortByRange sorts items by the start of their ranges.
func sortByRange[T any](items []T, rng func(T) hcl.Range) {
	sort.SliceStable(items, func(i, j int) bool {
		a, b := rng(items[i]), rng(items[j])
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Start.Byte < b.Start.Byte
	})
}
