package eval

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/eval/values"
)

// module registers one instance of a module call as a component resource
// and evaluates the module's body under it; the body's resources are named
// after the instance ("site[0].bucket"), so that instances do not clash. Its
// value is the object of the body's outputs, marked as depending on the
// component.
func (s *scopeRun) module(ctx context.Context, v *vertex, m *Module, in *instance, ectx *hcl.EvalContext) (cty.Value, bool) {
	name, _ := s.logicalName(v, &m.Decl, nil, in, ectx)
	inputs, ok := s.properties(m.Inputs, ectx)
	req := deploy.RegisterRequest{Type: m.Type, Name: name, Parent: s.parent, SourcePosition: s.r.sourcePosition(m.DeclRange)}
	opts := s.options(ectx)
	opts.read(&m.Options, &req)
	req.Aliases = append(req.Aliases, s.movedAliases(m.Options.Moved, in)...)
	if !ok || !opts.ok {
		return cty.DynamicVal, false
	}
	body := s.g.children[m]
	configs, ok := s.moduleConfigs(m, body, inputs)
	if !ok {
		return cty.DynamicVal, false
	}
	resp, err := s.r.info.Monitor.RegisterResource(ctx, req)
	if err != nil {
		s.r.registerFailure(&m.Decl, "register", err)
		return cty.DynamicVal, false
	}
	child := s.r.newScopeRun(ctx, body, resp.URN, configs)
	child.prefix, child.up, child.providers = name+".", s, req.Providers
	child.deferReads = s.deferReads || s.dependsOnChanged(v, m.Options.DependsOn)
	child.start(ctx)
	child.wait()
	for _, st := range child.states {
		in.changed = in.changed || st.anyChanged()
	}
	outs, ok := child.outputs()
	if !ok {
		return cty.DynamicVal, false
	}
	if err := s.r.info.Monitor.RegisterResourceOutputs(ctx, resp.URN, outs); err != nil {
		s.r.registerFailure(&m.Decl, "register the outputs of", err)
		return cty.DynamicVal, false
	}
	attrs := map[string]cty.Value{}
	for _, n := range body.nodes {
		if o, isOutput := n.(*Output); isOutput {
			attrs[o.Name] = child.states[n].current()
		}
	}
	return cty.ObjectVal(attrs).Mark(values.Dep{URN: resp.URN}), true
}

// moduleConfigs gives the body's configuration nodes the module's inputs,
// or their defaults.
func (s *scopeRun) moduleConfigs(m *Module, body *graph, inputs cty.Value) (map[*Config]cty.Value, bool) {
	inputs, marks := inputs.Unmark()
	out := map[*Config]cty.Value{}
	declared := map[string]bool{}
	var diags hcl.Diagnostics
	at := rangeOr(m.Inputs, m.NameRange)
	for _, n := range body.nodes {
		c, ok := n.(*Config)
		if !ok {
			continue
		}
		declared[c.Name] = true
		raw, present := attribute(inputs, c.Name)
		if !present || c.NotNull && raw.IsNull() {
			if c.Default == nil {
				diags = append(diags, errorDiag(at, fmt.Sprintf("Missing input %s", c.Name),
					fmt.Sprintf("%s has the input %q (%s), which has no default; give it a value.", &m.Decl, c.Name, RangeString(c.NameRange))))
				continue
			}
			v, ds := defaultValue(c, c.Name, "")
			diags = append(diags, ds...)
			out[c] = v
			continue
		}
		raw = raw.WithMarks(marks)
		v, err := c.convert(raw)
		if err != nil {
			diags = append(diags, errorDiag(at, fmt.Sprintf("Invalid input %s", c.Name),
				fmt.Sprintf("The input %q of %s %v; its type is %s.", c.Name, &m.Decl, err, typeName(c.Type))))
			continue
		}
		if !c.Ephemeral && v.HasMarkDeep(values.Ephemeral) {
			diags = append(diags, errorDiag(at, fmt.Sprintf("Ephemeral value not allowed for input %s", c.Name),
				fmt.Sprintf("The value of the input %q of %s is ephemeral; declare the variable ephemeral = true (%s), or pass ephemeralasnull(…).", c.Name, &m.Decl, RangeString(c.NameRange))))
			continue
		}
		out[c] = ephemeralIf(secretIf(v, c.Secret), c.Ephemeral)
	}
	if inputs.IsKnown() && inputs.Type().IsObjectType() {
		for name := range inputs.Type().AttributeTypes() {
			if !declared[name] {
				diags = append(diags, errorDiag(at, fmt.Sprintf("Unknown input %s", name),
					fmt.Sprintf("The module of %s has no input %q.%s", &m.Decl, name, DidYouMean(name, keys(declared)))))
			}
		}
	}
	s.r.report(diags)
	return out, !diags.HasErrors()
}

// attribute returns the attribute of an object (or element of a map) named
// name, if it has one.
func attribute(v cty.Value, name string) (cty.Value, bool) {
	if !v.IsKnown() || v.IsNull() {
		return cty.NilVal, false
	}
	switch ty := v.Type(); {
	case ty.IsObjectType() && ty.HasAttribute(name):
		return v.GetAttr(name), true
	case ty.IsMapType():
		if k := cty.StringVal(name); v.HasIndex(k).True() {
			return v.Index(k), true
		}
	}
	return cty.NilVal, false
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
