package hcl

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Terraform 0.11 wrote references and keywords in quotes
// (depends_on = ["aws_instance.web"], on_failure = "continue"); Terraform
// and OpenTofu still take them, with a warning, and so does Cairn.

// quotedText returns the text of e when it is a quoted string without
// interpolations.
func quotedText(e hcl.Expression) (string, bool) {
	t, ok := e.(*hclsyntax.TemplateExpr)
	if !ok || !t.IsStringLiteral() {
		return "", false
	}
	v, diags := t.Value(nil)
	if diags.HasErrors() {
		return "", false
	}
	return v.AsString(), true
}

// keyword returns the keyword e is, written bare or, with a warning, in
// quotes; "" when it is neither.
func (m *module) keyword(e hcl.Expression) string {
	if text, ok := quotedText(e); ok {
		m.l.diags = append(m.l.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Quoted keywords are deprecated",
			Detail: "This keyword is written in quotes, as Terraform 0.11 wrote it; write it bare (on_failure = continue) to silence this warning.", Subject: e.Range().Ptr()})
		return text
	}
	return hcl.ExprAsKeyword(e)
}

// dependsOn returns a depends_on list with its quoted references (with a
// warning) as references.
func (m *module) dependsOn(e hcl.Expression) hcl.Expression {
	list, ok := e.(*hclsyntax.TupleConsExpr)
	if !ok {
		return e
	}
	out := *list
	out.Exprs = make([]hclsyntax.Expression, len(list.Exprs))
	for i, el := range list.Exprs {
		out.Exprs[i] = el
		text, ok := quotedText(el)
		if !ok {
			continue
		}
		rng := el.Range()
		trav, diags := hclsyntax.ParseTraversalAbs([]byte(text), rng.Filename, hcl.Pos{Line: rng.Start.Line, Column: rng.Start.Column + 1, Byte: rng.Start.Byte + 1})
		if diags.HasErrors() {
			m.report(diags)
			continue
		}
		m.l.diags = append(m.l.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Quoted references are deprecated",
			Detail: "This reference is written in quotes, as Terraform 0.11 wrote it; write it bare (depends_on = [aws_instance.web]) to silence this warning.", Subject: rng.Ptr()})
		out.Exprs[i] = &hclsyntax.ScopeTraversalExpr{Traversal: trav, SrcRange: rng}
	}
	return &out
}
