package eval

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval/values"
)

// StackReferenceType is the type of the resource that reads the outputs of
// another stack; it is read, not managed.
const StackReferenceType = "pulumi:pulumi:StackReference"

// resource evaluates and registers one instance of a resource (or reads it,
// for get and stack references) and returns its value: its outputs with
// "urn" and "id", marked as depending on it. The value of a registered
// resource is left to in.build.
func (s *scopeRun) resource(ctx context.Context, v *vertex, r *Resource, in *instance, ectx *hcl.EvalContext) (cty.Value, bool) {
	name, ok := s.logicalName(v, &r.Decl, r.LogicalName, in, ectx)
	if !ok {
		return cty.DynamicVal, false
	}
	typ := s.r.types.resolved(r)
	req := deploy.RegisterRequest{Type: typ.token, Name: name, Parent: s.parent, Custom: !typ.component,
		Remote: typ.component, SourcePosition: s.r.sourcePosition(r.DeclRange)}
	opts := s.options(ectx)
	opts.read(&r.Options, &req)
	req.Version, req.Parameterization = s.r.prog.parameterize(req.Type, req.Version)
	req.Aliases = append(req.Aliases, s.movedAliases(r.Options.Moved, in)...)
	props, ok := s.properties(r.Properties, ectx)
	if !opts.ok || !ok {
		return cty.DynamicVal, false
	}
	if resource.IsProviderType(typ.token) {
		props = ephemeralAsSecret(props)
	} else if all, kept := typ.splitWriteOnly(props); !s.refuseEphemeral(kept, ephemeralAt(r.Properties, r.NameRange, kept), "Ephemeral value used in non-ephemeral context",
		"Ephemeral values are never kept, so a resource's arguments cannot refer to them, but for write-only ones; a provider's configuration, local values and ephemeral outputs can (ephemeralasnull(…) makes one null).") {
		return cty.DynamicVal, false
	} else {
		props = all
	}
	if req.Provider == "" && v.provider != nil {
		ref, err := providerRef(s.states[v.provider].current())
		if err != nil {
			s.r.report(hcl.Diagnostics{errorDiag(r.NameRange, "Invalid default provider", err.Error())})
			return cty.DynamicVal, false
		}
		req.Provider = ref
	}
	pm, pdeps, ok := s.propertyMap(rangeOr(r.Properties, r.NameRange), typ.markSecrets(props))
	if !ok {
		return cty.DynamicVal, false
	}
	req.Properties, req.PropertyDependencies = pm, pdeps
	req.Dependencies = mergeDeps(req.Dependencies, pdeps)
	if !s.conditions(r.Preconditions, ectx, "Resource precondition failed") {
		return cty.DynamicVal, false
	}

	if r.Get != nil || typ.token == StackReferenceType {
		return s.read(ctx, r, &req, ectx, typ)
	}
	resp, err := s.r.info.Monitor.RegisterResource(ctx, req)
	if err != nil {
		s.r.registerFailure(&r.Decl, "register", err)
		return cty.DynamicVal, false
	}
	// Built when first read: most resources of a large stack are referred
	// to by nothing, and their values would hold a copy of every output.
	// A preview knows the outputs of a resource it would not change.
	urn, id, custom, outputs, preview := resp.URN, resp.ID, req.Custom, resp.Outputs, s.r.info.DryRun && resp.Changed
	in.build = func() cty.Value { return typ.value(urn, id, custom, outputs, preview) }
	in.changed = resp.Changed && !resource.IsProviderType(typ.token)
	if r.Provisioners != nil && !s.provision(ctx, r, name, urn, withSelf(ectx, in.build())) {
		return cty.DynamicVal, false
	}
	if len(r.Postconditions) > 0 && !s.conditions(r.Postconditions, withSelf(ectx, in.build()), "Resource postcondition failed") {
		return cty.DynamicVal, false
	}
	return cty.NilVal, true
}

// provision registers the resource that runs the provisioners of the
// instance parent (see Resource.Provisioners), as its child named as it
// is, and waits for it: what refers to the instance waits for its
// provisioners, and a failed create of it taints the instance, as in
// Terraform.
func (s *scopeRun) provision(ctx context.Context, r *Resource, name string, parent resource.URN, ectx *hcl.EvalContext) bool {
	e := r.Provisioners.Properties
	props, ok := s.properties(e, ectx)
	if !ok {
		return false
	}
	pm, pdeps, ok := s.propertyMap(e.Range(), props)
	if !ok {
		return false
	}
	_, err := s.r.info.Monitor.RegisterResource(ctx, deploy.RegisterRequest{Type: r.Provisioners.Type, Name: name, Parent: parent,
		Custom: true, Properties: pm, PropertyDependencies: pdeps, Dependencies: mergeDeps(nil, pdeps),
		SourcePosition: s.r.sourcePosition(e.Range()), TaintsParent: true})
	if err != nil {
		s.r.registerFailure(&r.Decl, "run the provisioners of", err)
		return false
	}
	return true
}

// read reads an existing resource by ID (get) or another stack's outputs
// (a stack reference, whose ID is its name property).
func (s *scopeRun) read(ctx context.Context, r *Resource, req *deploy.RegisterRequest, ectx *hcl.EvalContext, typ *resourceType) (cty.Value, bool) {
	var id cty.Value
	props := req.Properties
	if r.Get != nil {
		var ok bool
		if id, ok = s.eval(ectx, r.Get.ID); !ok {
			return cty.DynamicVal, false
		}
		state, ok := s.properties(r.Get.State, ectx)
		if !ok {
			return cty.DynamicVal, false
		}
		if props, _, ok = s.propertyMap(rangeOr(r.Get.State, r.Get.Range), state); !ok {
			return cty.DynamicVal, false
		}
	} else {
		id = cty.StringVal(req.Name)
		if n, ok := props["name"]; ok {
			id = values.FromEngine(n)
		}
	}
	if id.HasMark(values.Secret) {
		rng, what := r.NameRange, "The name of the stack that "+r.Decl.String()+" reads"
		if r.Get != nil {
			rng, what = r.Get.ID.Range(), "The ID of "+r.Decl.String()
		}
		s.r.report(hcl.Diagnostics{errorDiag(rng, "Invalid resource ID", fmt.Sprintf(
			"%s is secret, or derived from a secret, but it becomes the resource's ID, which the state keeps in plain text. "+
				"If it is not secret, make it plain with %s.", what, s.r.prog.Dialect.Unsecret))})
		return cty.DynamicVal, false
	}
	id, _ = id.Unmark()
	if !id.IsKnown() {
		return cty.DynamicVal, true // a preview: the ID comes from a resource not created yet
	}
	if id.IsNull() || id.Type() != cty.String {
		s.r.report(hcl.Diagnostics{errorDiag(r.NameRange, "Invalid resource ID", fmt.Sprintf("The ID of %s must be a string.", &r.Decl))})
		return cty.DynamicVal, false
	}
	resp, err := s.r.info.Monitor.ReadResource(ctx, deploy.ReadResourceRequest{
		Type: req.Type, Name: req.Name, ID: resource.ID(id.AsString()), Parent: req.Parent, Properties: props,
		Dependencies: req.Dependencies, Provider: req.Provider, Version: req.Version,
		AdditionalSecretOutputs: req.AdditionalSecretOutputs,
	})
	if err != nil {
		s.r.registerFailure(&r.Decl, "read", err)
		return cty.DynamicVal, false
	}
	return typ.value(resp.URN, resource.ID(id.AsString()), true, resp.Outputs, s.r.info.DryRun), true
}

// properties evaluates a properties expression: an object, or null.
func (s *scopeRun) properties(e hcl.Expression, ectx *hcl.EvalContext) (cty.Value, bool) {
	v, ok := s.eval(ectx, e)
	if !ok {
		return cty.DynamicVal, false
	}
	plain, _ := v.Unmark()
	switch {
	case plain.IsNull():
		return cty.EmptyObjectVal, true
	case !plain.IsKnown():
		if s.r.info.DryRun {
			return cty.EmptyObjectVal, true
		}
	case plain.Type().IsObjectType() || plain.Type().IsMapType():
		return v, true
	}
	s.r.report(hcl.Diagnostics{errorDiag(e.Range(), "Invalid properties",
		fmt.Sprintf("Properties must be an object; this is a %s.", plain.Type().FriendlyName()))})
	return cty.DynamicVal, false
}

// propertyMap converts evaluated properties to engine values.
func (s *scopeRun) propertyMap(rng hcl.Range, v cty.Value) (resource.Map, map[string][]resource.URN, bool) {
	pm, deps, err := values.ObjectToEngine(v)
	if err != nil {
		s.r.report(hcl.Diagnostics{errorDiag(rng, "Invalid properties", err.Error())})
		return nil, nil, false
	}
	return pm, deps, true
}

// logicalName returns the name an instance is registered under: its
// declared name (after the module instance's, in a module body) with the
// instance key, or the name it is given.
func (s *scopeRun) logicalName(v *vertex, d *Decl, e hcl.Expression, in *instance, ectx *hcl.EvalContext) (string, bool) {
	suffix := ""
	if in.key != cty.NilVal {
		suffix = "[" + in.name + "]"
	}
	if e == nil {
		return s.prefix + d.Name + suffix, true
	}
	val, ok := s.eval(ectx, e)
	if !ok {
		return "", false
	}
	if val.HasMark(values.Secret) {
		s.r.report(hcl.Diagnostics{errorDiag(e.Range(), "Invalid resource name", fmt.Sprintf(
			"The name of %s is secret, or derived from a secret, but a name is part of the resource's URN, which the state keeps in plain text. "+
				"Give a name that is not secret, or make it plain with %s if it is not one.", d, s.r.prog.Dialect.Unsecret))})
		return "", false
	}
	val, _ = val.Unmark()
	if !val.IsKnown() || val.IsNull() || val.Type() != cty.String {
		s.r.report(hcl.Diagnostics{errorDiag(e.Range(), "Invalid resource name",
			fmt.Sprintf("The name of %s must be a string known before it is registered.", d))})
		return "", false
	}
	if suffix != "" && !s.refersToInstance(v.node, e) {
		return val.AsString() + suffix, true
	}
	return val.AsString(), true
}

// refersToInstance reports whether e uses count.index or each.
func (s *scopeRun) refersToInstance(n Node, e hcl.Expression) bool {
	for _, t := range e.Variables() {
		if r, diags := s.g.scope.Resolver.Resolve(n, t); !diags.HasErrors() && (r.Builtin == BuiltinCount || r.Builtin == BuiltinEach) {
			return true
		}
	}
	return false
}

// sourcePosition renders a range as the engine records it:
// project:///<path from the project root>#line,column.
func (r *run) sourcePosition(rng hcl.Range) string {
	if rng.Filename == "" {
		return ""
	}
	path := rng.Filename
	if rel, err := filepath.Rel(r.prog.RootDir, path); err == nil && filepath.IsLocal(rel) {
		path = rel
	}
	return fmt.Sprintf("project:///%s#%d,%d", filepath.ToSlash(path), rng.Start.Line, rng.Start.Column)
}

// mergeDeps adds the property dependencies to a list of dependencies.
func mergeDeps(deps []resource.URN, pdeps map[string][]resource.URN) []resource.URN {
	seen := map[resource.URN]bool{}
	var out []resource.URN
	add := func(u resource.URN) {
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	for _, u := range deps {
		add(u)
	}
	keys := make([]string, 0, len(pdeps))
	for k := range pdeps {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, u := range pdeps[k] {
			add(u)
		}
	}
	return out
}

// rangeOr returns e's range, or fallback when e is nil.
func rangeOr(e hcl.Expression, fallback hcl.Range) hcl.Range {
	if e == nil {
		return fallback
	}
	return e.Range()
}
