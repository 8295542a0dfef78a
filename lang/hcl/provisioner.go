package hcl

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/cairn-iac/cairn/engine/tfstate"
	"github.com/cairn-iac/cairn/eval"
)

// Provisioners. A resource's local-exec provisioners become one more
// resource (eval.Resource.Provisioners), of type tfstate.ProvisionersType,
// registered as the child of each instance once the instance is (self is
// its value), and holding the instance's ID as its trigger, so that a
// replacement of the instance replaces it. Its provider runs the
// creation-time provisioners when it is created and the destroy-time ones,
// as the state recorded them, when it is deleted: by a replacement, when
// the resource goes, or by a destroy, which runs no program.

// provisionerSchema is the schema of a local-exec provisioner block.
var provisionerSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "command", Required: true}, {Name: "working_dir"}, {Name: "interpreter"},
		{Name: "environment"}, {Name: "quiet"}, {Name: "when"}, {Name: "on_failure"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "connection"}},
}

// provisionerArgs are the arguments of a provisioner, by the schema's
// names, with the types they take.
var provisionerArgs = []struct {
	hcl, name string
	typ       cty.Type
}{
	{"command", "command", cty.String},
	{"interpreter", "interpreter", cty.List(cty.String)},
	{"working_dir", "workingDir", cty.String},
	{"environment", "environment", cty.Map(cty.String)},
	{"quiet", "quiet", cty.Bool},
}

// provisioner is a decoded local-exec provisioner block.
type provisioner struct {
	attrs     hcl.Attributes
	onFailure string
}

// provisioners decodes the provisioner and connection blocks of the
// resource r of Terraform type typeName and, when it has provisioners,
// gives r the resource that runs them.
func (m *module) provisioners(blocks hcl.Blocks, r *eval.Resource, typeName string) {
	e := &provisionersExpr{typ: typeName}
	for _, b := range blocks {
		switch b.Type {
		case "connection":
			m.errorf(b.DefRange, "Unsupported connection block",
				"A connection block configures the file and remote-exec provisioners, which Cairn does not run; remove it. "+
					"Run remote commands from a local-exec provisioner (with ssh or scp), or configure the machine through its provider (user data, cloud-init).")
		case "provisioner":
			p, destroy, ok := m.provisioner(b)
			if !ok {
				continue
			}
			if e.rng.Filename == "" {
				e.rng = b.DefRange
			}
			if destroy {
				e.destroy = append(e.destroy, p)
			} else {
				e.create = append(e.create, p)
			}
		}
	}
	if e.create != nil || e.destroy != nil {
		if dbr, _ := r.Options.DeleteBeforeReplace.Value(nil); dbr.Type() == cty.Bool && dbr.False() {
			e.cbd = true
		}
		r.Provisioners = &eval.Provisioners{Type: tfstate.ProvisionersType, Properties: e}
	}
}

// provisioner decodes a provisioner block: a local-exec one, created or
// destroyed (when = destroy).
func (m *module) provisioner(b *hcl.Block) (p provisioner, destroy, ok bool) {
	if kind := b.Labels[0]; kind != "local-exec" {
		m.errorf(b.LabelRanges[0], fmt.Sprintf("Unsupported provisioner %q", kind),
			"Cairn runs local-exec provisioners only, not %q. Run the command on this machine with a local-exec provisioner "+
				"(ssh or scp for a remote machine), or configure the machine through its provider (user data, cloud-init); then remove this block.", kind)
		return p, false, false
	}
	content, diags := b.Body.Content(provisionerSchema)
	m.report(diags)
	for _, c := range content.Blocks {
		m.errorf(c.DefRange, "Unsupported connection block",
			"A connection block configures how file and remote-exec provisioners reach a machine; a local-exec provisioner runs on this machine and needs none. Remove it.")
	}
	p.attrs = content.Attributes
	if a := content.Attributes["when"]; a != nil {
		switch m.keyword(a.Expr) {
		case "destroy":
			destroy = true
		case "create":
		default:
			m.errorf(a.Expr.Range(), "Invalid \"when\" keyword", "The \"when\" argument is create or destroy, written as a keyword: when = destroy.")
		}
		delete(p.attrs, "when")
	}
	if a := content.Attributes["on_failure"]; a != nil {
		switch p.onFailure = m.keyword(a.Expr); p.onFailure {
		case "continue", "fail":
		default:
			m.errorf(a.Expr.Range(), "Invalid \"on_failure\" keyword", "The \"on_failure\" argument is continue or fail, written as a keyword: on_failure = continue.")
		}
		delete(p.attrs, "on_failure")
	}
	if destroy {
		m.destroyReferences(p.attrs)
	}
	return p, destroy, !diags.HasErrors()
}

// destroyReferences reports references a destroy-time provisioner cannot
// make: it runs from the state, as Terraform runs it, so it knows only its
// resource (self) and its instance key.
func (m *module) destroyReferences(attrs hcl.Attributes) {
	for _, a := range attrs {
		for _, t := range a.Expr.Variables() {
			switch t.RootName() {
			case "self", "count", "each", "path", "terraform":
				continue
			}
			m.errorf(t.SourceRange(), "Invalid reference from destroy provisioner",
				"A destroy-time provisioner runs from the state, when its resource is deleted, so it may refer only to the resource (self) "+
					"and its instance key (count.index, each.key); copy the value it needs into an argument of the resource and refer to it through self.")
		}
	}
}

// provisionersExpr is the properties of the resource that runs a
// resource's provisioners, evaluated with self bound to the instance:
// trigger (its ID), type, and the creation-time and destroy-time
// provisioners.
type provisionersExpr struct {
	typ             string
	cbd             bool // the resource is replaced create-before-destroy
	create, destroy []provisioner
	rng             hcl.Range
}

// Value implements hcl.Expression.
func (e *provisionersExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	trigger, diags := hcl.Traversal{hcl.TraverseRoot{Name: "self", SrcRange: e.rng}, hcl.TraverseAttr{Name: "id", SrcRange: e.rng}}.TraverseAbs(ctx)
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	create, ds := provisionerValues(e.create, ctx)
	diags = append(diags, ds...)
	destroy, ds := provisionerValues(e.destroy, ctx)
	diags = append(diags, ds...)
	return cty.ObjectVal(map[string]cty.Value{
		tfstate.TriggerKey: trigger, "type": cty.StringVal(e.typ), "create": create, "destroy": destroy,
		"createBeforeDestroy": cty.BoolVal(e.cbd),
	}), diags
}

// provisionerValues evaluates provisioners into a tuple of objects of the
// schema's names.
func provisionerValues(ps []provisioner, ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	vals := []cty.Value{}
	for _, p := range ps {
		obj := map[string]cty.Value{}
		for _, arg := range provisionerArgs {
			a := p.attrs[arg.hcl]
			if a == nil {
				continue
			}
			v, ds := a.Expr.Value(ctx)
			diags = append(diags, ds...)
			if ds.HasErrors() {
				continue
			}
			plain, marks := v.UnmarkDeep()
			c, err := convert.Convert(plain, arg.typ)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Incorrect attribute value type",
					Detail:  fmt.Sprintf("Inappropriate value for attribute %q: %s.", arg.hcl, err),
					Subject: a.Expr.Range().Ptr(), Expression: a.Expr, EvalContext: ctx})
				continue
			}
			if !c.IsNull() {
				obj[arg.name] = c.WithMarks(marks)
			}
		}
		if p.onFailure != "" {
			obj["onFailure"] = cty.StringVal(p.onFailure)
		}
		vals = append(vals, cty.ObjectVal(obj))
	}
	return cty.TupleVal(vals), diags
}

// Variables implements hcl.Expression.
func (e *provisionersExpr) Variables() []hcl.Traversal {
	var out []hcl.Traversal
	for _, p := range append(append([]provisioner(nil), e.create...), e.destroy...) {
		for _, a := range p.attrs {
			out = append(out, a.Expr.Variables()...)
		}
	}
	return out
}

// Range implements hcl.Expression.
func (e *provisionersExpr) Range() hcl.Range { return e.rng }

// StartRange implements hcl.Expression.
func (e *provisionersExpr) StartRange() hcl.Range { return e.rng }
