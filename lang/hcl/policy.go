package hcl

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/eval"
)

var policyFileSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "name"}, {Name: "description"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "policy", LabelNames: []string{"name"}}, {Type: "stack_policy", LabelNames: []string{"name"}}},
}

var policySchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "description"}, {Name: "enforcement_level"}, {Name: "type"},
		{Name: "condition", Required: true}, {Name: "message"}},
}

var stackPolicySchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "description"}, {Name: "enforcement_level"},
		{Name: "condition", Required: true}, {Name: "message"}},
}

// ParsePolicies reads a policy file written in HCL: an optional name (the
// pack's; the file's base name by default), policy blocks (resource rules)
// and stack_policy blocks (rules over every resource):
//
//	policy "no-public-buckets" {
//	  description       = "Buckets are private."
//	  enforcement_level = "mandatory"           # advisory (default), mandatory or disabled
//	  type              = "aws:s3/bucket:Bucket" # or a list; * stands for any text
//	  condition         = acl != "public-read"   # the resource's inputs in scope
//	  message           = "${resource.name} is public."
//	}
//	stack_policy "few-instances" {
//	  condition = length([for r in resources : r if r.type == "aws:ec2/instance:Instance"]) <= 3
//	}
//
// Expressions are those of programs. File functions resolve paths against
// dir.
func ParsePolicies(filename string, src []byte, dir string) (*eval.PolicyPack, hcl.Diagnostics) {
	pack := &eval.PolicyPack{Pack: strings.TrimSuffix(filepath.Base(filename), filepath.Ext(filename)), Dir: dir}
	f, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	pack.Files = map[string]*hcl.File{filename: f}
	if diags.HasErrors() {
		return pack, diags
	}
	content, more := f.Body.Content(policyFileSchema)
	diags = append(diags, more...)
	if a := content.Attributes["name"]; a != nil {
		if s, ok := staticString(a.Expr, &diags); ok {
			pack.Pack = s
		}
	}
	for _, b := range content.Blocks {
		stack := b.Type == "stack_policy"
		schema := policySchema
		if stack {
			schema = stackPolicySchema
		}
		body, more := b.Body.Content(schema)
		diags = append(diags, more...)
		if more.HasErrors() {
			continue
		}
		r := &eval.Rule{Name: b.Labels[0], NameRange: b.LabelRanges[0], Stack: stack, Level: policy.Advisory,
			Condition: body.Attributes["condition"].Expr}
		if a := body.Attributes["description"]; a != nil {
			r.Description, _ = staticString(a.Expr, &diags)
		}
		if a := body.Attributes["enforcement_level"]; a != nil {
			if s, ok := staticString(a.Expr, &diags); ok {
				l, err := policy.ParseLevel(s)
				if err != nil {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid enforcement level",
						Detail: err.Error() + ".", Subject: a.Expr.Range().Ptr()})
				}
				r.Level = l
			}
		}
		if a := body.Attributes["type"]; a != nil {
			r.Types = staticStrings(a.Expr, &diags)
		}
		if a := body.Attributes["message"]; a != nil {
			r.Message = a.Expr
		}
		diags = append(diags, eval.CheckRule(r)...)
		pack.Rules = append(pack.Rules, r)
	}
	return pack, diags
}

// staticString evaluates an expression that must be a constant string.
func staticString(e hcl.Expression, diags *hcl.Diagnostics) (string, bool) {
	v, more := e.Value(nil)
	if !more.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
		return v.AsString(), true
	}
	*diags = append(*diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Expected a string",
		Detail: "This must be a constant string; it cannot refer to anything.", Subject: e.Range().Ptr()})
	return "", false
}

// staticStrings evaluates an expression that must be a constant string or
// list of strings.
func staticStrings(e hcl.Expression, diags *hcl.Diagnostics) []string {
	v, more := e.Value(nil)
	if !more.HasErrors() && v.IsKnown() && !v.IsNull() {
		if v.Type() == cty.String {
			return []string{v.AsString()}
		}
		if v.Type().IsTupleType() || v.Type().IsListType() {
			var out []string
			ok := true
			for it := v.ElementIterator(); it.Next(); {
				_, el := it.Element()
				if el.Type() != cty.String || el.IsNull() || !el.IsKnown() {
					ok = false
					break
				}
				out = append(out, el.AsString())
			}
			if ok {
				return out
			}
		}
	}
	*diags = append(*diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid type",
		Detail:  fmt.Sprintf("type selects resources by type token, such as %q or %q; it must be a constant string or list of strings.", "aws:s3/bucket:Bucket", "aws:*"),
		Subject: e.Range().Ptr()})
	return nil
}
