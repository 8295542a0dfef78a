package hcl

import (
	"fmt"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// languageSchema is the schema of OpenTofu's language block.
var languageSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "edition"}, {Name: "experiments"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "compatible_with"}},
}

// compatibleWithSchema is the part of a compatible_with block OpenTofu
// reads; the arguments of other software are left to it.
var compatibleWithSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "opentofu"}}}

// languageEdition is the one edition of the language OpenTofu 1.12 has.
const languageEdition = "tofu2024"

// language reads OpenTofu's language block (OpenTofu 1.12): a
// compatible_with block's opentofu constraint must allow LanguageVersion;
// edition may only be tofu2024; experiments must be empty, as OpenTofu
// has none. Other software's arguments in compatible_with are ignored.
func (m *module) language(b *hcl.Block) {
	content, diags := b.Body.Content(languageSchema)
	m.report(diags)
	if a := content.Attributes["edition"]; a != nil {
		switch kw := hcl.ExprAsKeyword(a.Expr); kw {
		case languageEdition:
		case "":
			m.errorf(a.Expr.Range(), "Invalid language edition", "edition takes a bare keyword: %s, the only edition, which is the default.", languageEdition)
		default:
			m.errorf(a.Expr.Range(), "Unsupported language edition",
				"Cairn implements the language of OpenTofu %s, whose only edition is %s, not %s; remove edition or set it to %s.", LanguageVersion, languageEdition, kw, languageEdition)
		}
	}
	if a := content.Attributes["experiments"]; a != nil {
		exprs, diags := hcl.ExprList(a.Expr)
		m.report(diags)
		for _, e := range exprs {
			if kw := hcl.ExprAsKeyword(e); kw == "" {
				m.errorf(e.Range(), "Invalid experiment keyword", "The elements of experiments must be keywords naming experiments.")
			} else {
				m.errorf(e.Range(), "Unknown experiment keyword", "There is no experiment %q: OpenTofu %s has none; remove it.", kw, LanguageVersion)
			}
		}
	}
	var declared *hcl.Attribute
	for _, blk := range content.Blocks {
		inner, _, diags := blk.Body.PartialContent(compatibleWithSchema)
		m.report(diags)
		a := inner.Attributes["opentofu"]
		switch {
		case a == nil:
			continue
		case declared != nil:
			m.errorf(blk.DefRange, "Duplicate compatible_with block",
				"A language block may have one compatible_with block naming opentofu; the constraint is already at %s.", declared.Range)
			continue
		}
		declared = a
		c, ok := m.versionConstraint(a)
		switch {
		case !ok:
		case !c.Check(version.Must(version.NewVersion(LanguageVersion))):
			m.errorf(a.Expr.Range(), "Incompatible module",
				"This module requires OpenTofu %s, and Cairn implements the language of OpenTofu %s; change the constraint to allow %s if the module works with it.",
				c, LanguageVersion, LanguageVersion)
		case c.Check(version.Must(version.NewVersion("1.11.0"))):
			m.l.diags = append(m.l.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Ineffective version constraint",
				Detail: "OpenTofu reads compatible_with from version 1.12.0 on, so the constraint should exclude earlier versions (>= 1.12.0); " +
					"for earlier versions, write required_version in a terraform block of a .tofu file.",
				Subject: a.Expr.Range().Ptr()})
		}
	}
}

// versionConstraint reads a constant string of version constraints.
func (m *module) versionConstraint(a *hcl.Attribute) (version.Constraints, bool) {
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() || v.Type() != cty.String || v.IsNull() {
		m.errorf(a.Expr.Range(), fmt.Sprintf("Invalid %s", a.Name), "%s must be a constant string of version constraints, such as \">= 1.5\".", a.Name)
		return nil, false
	}
	c, err := version.NewConstraint(v.AsString())
	if err != nil {
		m.errorf(a.Expr.Range(), fmt.Sprintf("Invalid %s", a.Name), "%q is not a version constraint: %s.", v.AsString(), err)
		return nil, false
	}
	return c, true
}
