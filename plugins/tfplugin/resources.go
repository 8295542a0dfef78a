package tfplugin

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/tfstate"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// bounded bounds an operation by the resource's own timeout plus a
// minute's grace, or by two hours, as calls to Pulumi plugins are: a hung
// provider fails its step instead of hanging Cairn.
func bounded(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	if timeout > 0 {
		return context.WithTimeout(ctx, timeout+time.Minute)
	}
	return context.WithTimeout(ctx, 2*time.Hour)
}

// resourceType returns the typed schema of a resource type token, and
// the process that answers for the resource of urn: the provider's, or a
// mock's for a resource the test overrides (see Mocks), which needs the
// provider neither configured nor running.
func (p *Provider) resourceType(ctx context.Context, token string, urn resource.URN) (*process, *typed, error) {
	if mocks, err := loadMocks(); err != nil || len(mocks.Resources) > 0 {
		s, err2 := p.loadSchema(ctx)
		if err == nil {
			err = err2
		}
		if err != nil {
			return nil, nil, err
		}
		if t := s.resources[token]; t != nil {
			if values := mocks.override(t.name, urn); values != nil {
				return mockProcess(s, map[string]map[string]json.RawMessage{t.name: values}, nil), t, nil
			}
		}
	}
	proc, s, err := p.ready(ctx)
	if err != nil {
		return nil, nil, err
	}
	t := s.resources[token]
	if t == nil {
		return nil, nil, fmt.Errorf("the Terraform provider %s has no resource type for %s", p.param.Source, token)
	}
	return proc, t, nil
}

// Check implements provider.Provider with ValidateResourceConfig; the
// inputs are kept as given, but for the write-only attributes, which the
// Provider keeps until it sends them (see writeOnly).
func (p *Provider) Check(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	proc, t, err := p.resourceType(ctx, req.Type, req.URN)
	if err != nil {
		return provider.CheckResponse{}, err
	}
	if p.unvalidated.postpone(req, p.hash) {
		return provider.CheckResponse{Inputs: p.writeOnly.split(req.URN, t, req.News)}, nil
	}
	ds, err := p.validate(ctx, proc, t, req.News)
	if err != nil {
		return provider.CheckResponse{Failures: failure(err)}, nil
	}
	return provider.CheckResponse{Inputs: p.writeOnly.split(req.URN, t, req.News), Failures: p.failures(ds, req.URN)}, nil
}

// validate asks the provider to validate a resource's configuration,
// returning its diagnostics; an error is a configuration that does not
// fit the schema, or a failed call (see rpcError).
func (p *Provider) validate(ctx context.Context, proc *process, t *typed, inputs resource.Map) ([]*tfplugin6.Diagnostic, error) {
	cfg, _, err := configValue(t, inputs)
	if err != nil {
		return nil, err
	}
	dv, err := encode(cfg, t.ty)
	if err != nil {
		return nil, err
	}
	vreq := &tfplugin6.ValidateResourceConfig_Request{TypeName: t.name, Config: dv,
		ClientCapabilities: &tfplugin6.ClientCapabilities{WriteOnlyAttributesAllowed: true}}
	resp, err := ask(p.memo, p.memoKey(proc), "ValidateResourceConfig", nil, vreq, func() (*tfplugin6.ValidateResourceConfig_Response, error) {
		return proc.rpc.ValidateResourceConfig(ctx, vreq)
	})
	if err != nil {
		return nil, p.rpcError("ValidateResourceConfig", err)
	}
	return resp.GetDiagnostics(), nil
}

// validated validates the inputs whose validation Check left to later
// (see unvalidated) unless the recorded state, by outputs (nil: none), was
// written by the same provider package from the same inputs.
func (p *Provider) validated(ctx context.Context, proc *process, t *typed, urn resource.URN, outputs resource.Map) error {
	inputs, ok := p.unvalidated.take(urn)
	if !ok {
		return nil
	}
	if m, err := tfstate.MetaOf(outputs); err == nil && m.Provider != "" && m.Provider == p.hash {
		return nil
	}
	ds, err := p.validate(ctx, proc, t, inputs)
	if err != nil {
		return err
	}
	return p.diagnose(ds, "validating the configuration")
}

// state is a resource's state as Terraform sees it.
type state struct {
	value   cty.Value
	private []byte
	secrets []resource.Path // of the recorded outputs
	// by is the hash of the provider package that wrote value from inputs
	// it validated (see tfstate.Meta.Provider); "" when unknown.
	by string
}

// prior returns the state recorded in a resource's outputs, upgraded to
// the provider's current schema: UpgradeResourceState is called whatever
// the recorded schema version, as Terraform calls it, but for a state the
// same provider package wrote at its current version.
func (p *Provider) prior(ctx context.Context, proc *process, t *typed, outputs resource.Map) (state, error) {
	attrs := outputs.Copy()
	delete(attrs, tfstate.MetaKey)
	m, err := tfstate.MetaOf(outputs)
	if err != nil {
		return state{}, err
	}
	version, _ := strconv.ParseInt(m.SchemaVersion, 10, 64)
	private, err := base64.StdEncoding.DecodeString(m.Private)
	if err != nil {
		return state{}, fmt.Errorf("the recorded private data of the resource: %w", err)
	}
	var secrets []resource.Path
	if m.Provider != "" && m.Provider == p.hash && version == t.version {
		// The package's own state at its current version: upgrading it
		// would return it as it is.
		if v, err := toCty(resource.Object(attrs), t.ty, nil, &secrets); err == nil && v.IsWhollyKnown() {
			return state{value: v, private: private, secrets: secrets, by: m.Provider}, nil
		}
		secrets = nil
	}
	if _, err := toCty(resource.Object(attrs), cty.DynamicPseudoType, nil, &secrets); err != nil {
		return state{}, err
	}
	raw, err := rawJSON(attrs, t.ty)
	if err != nil {
		return state{}, fmt.Errorf("the recorded state of the resource: %w", err)
	}
	ureq := &tfplugin6.UpgradeResourceState_Request{TypeName: t.name, Version: version, RawState: &tfplugin6.RawState{Json: raw}}
	resp, err := ask(p.memo, p.memoKey(proc), "UpgradeResourceState", p.configuration(), ureq, func() (*tfplugin6.UpgradeResourceState_Response, error) {
		return proc.rpc.UpgradeResourceState(ctx, ureq)
	})
	if err != nil {
		return state{}, p.rpcError("UpgradeResourceState", err)
	}
	if err := p.diagnose(resp.GetDiagnostics(), "upgrading the recorded state of the resource"); err != nil {
		return state{}, err
	}
	v, err := decode(resp.GetUpgradedState(), t.ty)
	if err != nil {
		return state{}, fmt.Errorf("the upgraded state of the resource: %w", err)
	}
	return state{value: v, private: private, secrets: secrets}, nil
}

// planned is the answer of PlanResourceChange.
type planned struct {
	value   cty.Value
	private []byte
	replace []cty.Path
}

// plan plans a change from prior to config (both null: nothing; config
// null: a destroy) with PlanResourceChange.
func (p *Provider) plan(ctx context.Context, proc *process, t *typed, prior state, config cty.Value) (planned, error) {
	proposed := proposedNew(t.block, prior.value, config)
	pv, err := encode(prior.value, t.ty)
	if err != nil {
		return planned{}, err
	}
	nv, err := encode(proposed, t.ty)
	if err != nil {
		return planned{}, err
	}
	cv, err := encode(config, t.ty)
	if err != nil {
		return planned{}, err
	}
	preq := &tfplugin6.PlanResourceChange_Request{TypeName: t.name, PriorState: pv, ProposedNewState: nv, Config: cv,
		PriorPrivate: prior.private, ClientCapabilities: &tfplugin6.ClientCapabilities{WriteOnlyAttributesAllowed: true}}
	resp, err := ask(p.memo, p.memoKey(proc), "PlanResourceChange", p.configuration(), preq, func() (*tfplugin6.PlanResourceChange_Response, error) {
		return proc.rpc.PlanResourceChange(ctx, preq)
	})
	if err != nil {
		return planned{}, p.rpcError("PlanResourceChange", err)
	}
	if err := p.diagnose(resp.GetDiagnostics(), "planning the change"); err != nil {
		return planned{}, err
	}
	v, err := decode(resp.GetPlannedState(), t.ty)
	if err != nil {
		return planned{}, fmt.Errorf("the planned state of the resource: %w", err)
	}
	if bad := invalidPlan(t.block, prior.value, config, v, nil); len(bad) > 0 {
		msg := fmt.Sprintf("the Terraform provider %s produced an invalid plan for %s: %s", p.param.Source, t.name, strings.Join(bad, "; "))
		if !resp.GetLegacyTypeSystem() {
			return planned{}, errors.New(msg + "; this is a bug in the provider")
		}
		p.log.Warn(msg + "; tolerated because the provider uses the legacy plugin SDK")
	}
	out := planned{value: v, private: resp.GetPlannedPrivate()}
	for _, ap := range resp.GetRequiresReplace() {
		out.replace = append(out.replace, ctyPath(ap))
	}
	return out, nil
}

// apply applies a planned change with ApplyResourceChange and returns the
// new state (null after a destroy). A change that fails but returns an
// object returns it with the error, its unknowns null, as Terraform keeps
// it; so does one whose result is not what was planned (see incompatible).
func (p *Provider) apply(ctx context.Context, proc *process, t *typed, prior state, plan planned, config cty.Value) (state, error) {
	pv, err := encode(prior.value, t.ty)
	if err != nil {
		return state{}, err
	}
	nv, err := encode(plan.value, t.ty)
	if err != nil {
		return state{}, err
	}
	cv, err := encode(config, t.ty)
	if err != nil {
		return state{}, err
	}
	resp, err := proc.rpc.ApplyResourceChange(ctx, &tfplugin6.ApplyResourceChange_Request{TypeName: t.name, PriorState: pv,
		PlannedState: nv, Config: cv, PlannedPrivate: plan.private})
	if err != nil {
		return state{}, p.rpcError("ApplyResourceChange", err)
	}
	v, derr := decode(resp.GetNewState(), t.ty)
	if derr != nil {
		return state{}, fmt.Errorf("the Terraform provider %s returned a new state for %s that does not fit its schema: %w; this is a bug in the provider", p.param.Source, t.name, derr)
	}
	out := state{value: cty.UnknownAsNull(v), private: resp.GetPrivate()}
	if err := p.diagnose(resp.GetDiagnostics(), "applying the change"); err != nil {
		return out, err
	}
	out.by = p.hash
	if v.IsNull() && !plan.value.IsNull() {
		return out, fmt.Errorf("the Terraform provider %s returned no object for %s after applying a change that keeps one; this is a bug in the provider", p.param.Source, t.name)
	}
	if bad := stillUnknown(v); len(bad) > 0 {
		return out, fmt.Errorf("the Terraform provider %s produced an invalid result after apply for %s: %s; this is a bug in the provider", p.param.Source, t.name, strings.Join(bad, "; "))
	}
	if bad := incompatible(plan.value, v, nil); len(bad) > 0 {
		msg := fmt.Sprintf("the Terraform provider %s produced an inconsistent result after apply for %s: %s", p.param.Source, t.name, strings.Join(bad, "; "))
		if !resp.GetLegacyTypeSystem() {
			return out, errors.New(msg + "; this is a bug in the provider")
		}
		// The legacy SDK's results routinely differ from its plans:
		// Terraform tolerates them with a warning, and so does Cairn.
		p.log.Warn(msg + "; tolerated because the provider uses the legacy plugin SDK")
	}
	return out, nil
}

// outputs are the outputs of a state: its attributes, secret where the
// schema says they are sensitive or the inputs had secrets, and tfstate.MetaKey.
func (p *Provider) outputs(t *typed, s state, secrets ...[]resource.Path) resource.Map {
	if s.value.IsNull() {
		return nil
	}
	out := stateToEngine(t.block, s.value)
	for _, paths := range secrets {
		markPaths(out, paths)
	}
	m := tfstate.Meta{SchemaVersion: strconv.FormatInt(t.version, 10), Provider: s.by}
	if len(s.private) > 0 {
		m.Private = base64.StdEncoding.EncodeToString(s.private)
	}
	out[tfstate.MetaKey] = m.Value()
	return out
}

// idOf is a resource's ID: its id attribute (unknown during a preview of
// a create).
func idOf(v cty.Value) resource.ID {
	if v.IsNull() || !v.Type().IsObjectType() || !v.Type().HasAttribute("id") {
		return tfstate.NoID
	}
	id := v.GetAttr("id")
	switch {
	case !id.IsKnown():
		return resource.UnknownID
	case id.IsNull() || id.Type() != cty.String || id.AsString() == "":
		return tfstate.NoID
	}
	return resource.ID(id.AsString())
}

// Diff implements provider.Provider with PlanResourceChange from the
// recorded state to the new inputs: no change when the planned state is
// the prior one; a replacement when an attribute that requires it
// changes.
func (p *Provider) Diff(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	proc, t, err := p.resourceType(ctx, req.Type, req.URN)
	if err != nil {
		return provider.DiffResponse{}, err
	}
	if err := p.validated(ctx, proc, t, req.URN, req.OldOutputs); err != nil {
		return provider.DiffResponse{}, err
	}
	prior, err := p.prior(ctx, proc, t, req.OldOutputs)
	if err != nil {
		return provider.DiffResponse{}, err
	}
	cfg, _, err := configValue(t, p.writeOnly.restore(req.URN, req.News))
	if err != nil {
		return provider.DiffResponse{}, err
	}
	plan, err := p.plan(ctx, proc, t, prior, cfg)
	if err != nil {
		return provider.DiffResponse{}, err
	}
	if plan.value.RawEquals(prior.value) {
		return provider.DiffResponse{Changes: provider.DiffNone}, nil
	}
	var changed []string
	for name := range t.ty.AttributeTypes() {
		if !plan.value.GetAttr(name).RawEquals(prior.value.GetAttr(name)) {
			changed = append(changed, name)
		}
	}
	sort.Strings(changed)
	var replace []string
	for _, path := range plan.replace {
		if len(path) == 0 || !changedAt(path, prior.value, plan.value) {
			continue
		}
		if step, ok := path[0].(cty.GetAttrStep); ok && !slices.Contains(replace, step.Name) {
			replace = append(replace, step.Name)
		}
	}
	sort.Strings(replace)
	detailed, _ := resource.DiffMaps(req.OldInputs, req.News)
	for _, k := range changed {
		_, inOld := req.OldInputs[k]
		_, inNew := req.News[k]
		if (inOld || inNew) && !hasPrefixPath(detailed, k) {
			detailed[k] = resource.PropertyDiff{Kind: resource.DiffUpdate}
		}
	}
	for path, pd := range detailed {
		if top, _ := resource.ParsePath(path); len(top) > 0 && slices.Contains(replace, fmt.Sprint(top[0])) {
			pd.Kind = pd.Kind.AsReplace()
			detailed[path] = pd
		}
	}
	return provider.DiffResponse{Changes: provider.DiffSome, ReplaceKeys: replace, ChangedKeys: changed, DetailedDiff: detailed}, nil
}

// hasPrefixPath reports whether a detailed diff has key or a path under it.
func hasPrefixPath(d resource.DetailedDiff, key string) bool {
	if _, ok := d[key]; ok {
		return true
	}
	for path := range d {
		if p, err := resource.ParsePath(path); err == nil && len(p) > 0 && p[0] == key {
			return true
		}
	}
	return false
}

// changedAt reports whether two values differ at path, as Terraform
// filters requires_replace: an unknown or a path that does not apply
// counts as a change.
func changedAt(path cty.Path, prior, planned cty.Value) bool {
	a, errA := path.Apply(prior)
	b, errB := path.Apply(planned)
	if errA != nil || errB != nil {
		return true
	}
	return !a.RawEquals(b)
}

// ctyPath converts an attribute path.
func ctyPath(ap *tfplugin6.AttributePath) cty.Path {
	var out cty.Path
	for _, s := range ap.GetSteps() {
		switch sel := s.GetSelector().(type) {
		case *tfplugin6.AttributePath_Step_AttributeName:
			out = out.GetAttr(sel.AttributeName)
		case *tfplugin6.AttributePath_Step_ElementKeyString:
			out = out.Index(cty.StringVal(sel.ElementKeyString))
		case *tfplugin6.AttributePath_Step_ElementKeyInt:
			out = out.Index(cty.NumberIntVal(sel.ElementKeyInt))
		}
	}
	return out
}

// Create implements provider.Provider: PlanResourceChange from nothing,
// then ApplyResourceChange; in a preview the planned state is the
// outputs, its unknowns unknown.
func (p *Provider) Create(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	ctx, cancel := bounded(ctx, req.Timeout)
	defer cancel()
	proc, t, err := p.resourceType(ctx, req.Type, req.URN)
	if err != nil {
		return provider.CreateResponse{}, err
	}
	if err := p.validated(ctx, proc, t, req.URN, nil); err != nil {
		return provider.CreateResponse{}, err
	}
	cfg, secrets, err := configValue(t, p.writeOnly.restore(req.URN, req.Inputs))
	if err != nil {
		return provider.CreateResponse{}, err
	}
	none := state{value: cty.NullVal(t.ty)}
	plan, err := p.plan(ctx, proc, t, none, cfg)
	if err != nil {
		return provider.CreateResponse{}, err
	}
	if req.Preview {
		return provider.CreateResponse{ID: idOf(plan.value), Outputs: p.outputs(t, state{value: plan.value}, secrets)}, nil
	}
	s, err := p.apply(ctx, proc, t, none, plan, cfg)
	if err != nil {
		if s.value.IsNull() {
			return provider.CreateResponse{}, err
		}
		return provider.CreateResponse{}, &provider.InitError{ID: idOf(s.value), Outputs: p.outputs(t, s, secrets), Reasons: []string{err.Error()}, Taint: true}
	}
	return provider.CreateResponse{ID: idOf(s.value), Outputs: p.outputs(t, s, secrets)}, nil
}

// Update implements provider.Provider: PlanResourceChange from the
// recorded state, then ApplyResourceChange.
func (p *Provider) Update(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	ctx, cancel := bounded(ctx, req.Timeout)
	defer cancel()
	proc, t, err := p.resourceType(ctx, req.Type, req.URN)
	if err != nil {
		return provider.UpdateResponse{}, err
	}
	if err := p.validated(ctx, proc, t, req.URN, req.OldOutputs); err != nil {
		return provider.UpdateResponse{}, err
	}
	prior, err := p.prior(ctx, proc, t, req.OldOutputs)
	if err != nil {
		return provider.UpdateResponse{}, err
	}
	cfg, secrets, err := configValue(t, p.writeOnly.restore(req.URN, req.News))
	if err != nil {
		return provider.UpdateResponse{}, err
	}
	plan, err := p.plan(ctx, proc, t, prior, cfg)
	if err != nil {
		return provider.UpdateResponse{}, err
	}
	if req.Preview {
		return provider.UpdateResponse{Outputs: p.outputs(t, state{value: plan.value}, secrets, prior.secrets)}, nil
	}
	s, err := p.apply(ctx, proc, t, prior, plan, cfg)
	if err != nil {
		if s.value.IsNull() {
			return provider.UpdateResponse{}, err
		}
		return provider.UpdateResponse{}, &provider.InitError{ID: idOf(s.value), Outputs: p.outputs(t, s, secrets, prior.secrets), Reasons: []string{err.Error()}}
	}
	return provider.UpdateResponse{Outputs: p.outputs(t, s, secrets, prior.secrets)}, nil
}

// Delete implements provider.Provider: ApplyResourceChange to nothing,
// after PlanResourceChange when the provider asks to plan destroys.
func (p *Provider) Delete(ctx context.Context, req provider.DeleteRequest) error {
	ctx, cancel := bounded(ctx, req.Timeout)
	defer cancel()
	proc, t, err := p.resourceType(ctx, req.Type, req.URN)
	if err != nil {
		return err
	}
	prior, err := p.prior(ctx, proc, t, req.Outputs)
	if err != nil {
		return err
	}
	none := cty.NullVal(t.ty)
	plan := planned{value: none, private: prior.private}
	if p.schema.resp.GetServerCapabilities().GetPlanDestroy() {
		if plan, err = p.plan(ctx, proc, t, prior, none); err != nil {
			return err
		}
		if !plan.value.IsNull() {
			return fmt.Errorf("the Terraform provider %s planned a non-null destroy value for %s", p.param.Source, t.name)
		}
	}
	s, err := p.apply(ctx, proc, t, prior, plan, none)
	if err != nil {
		return err
	}
	if !s.value.IsNull() {
		return fmt.Errorf("the Terraform provider %s returned a state for %s after deleting it", p.param.Source, t.name)
	}
	return nil
}

// Read implements provider.Provider. A resource with recorded outputs is
// refreshed with ReadResource (no state back: it is gone); one without is
// imported by ID with ImportResourceState, then read, and its inputs are
// the attributes a configuration may set.
func (p *Provider) Read(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	ctx, cancel := bounded(ctx, req.Timeout)
	defer cancel()
	proc, t, err := p.resourceType(ctx, req.Type, req.URN)
	if err != nil {
		return provider.ReadResponse{}, err
	}
	var cur state
	if req.Outputs == nil {
		if cur, err = p.importState(ctx, proc, t, req.ID); err != nil {
			return provider.ReadResponse{}, err
		}
	} else if cur, err = p.prior(ctx, proc, t, req.Outputs); err != nil {
		return provider.ReadResponse{}, err
	}
	cv, err := encode(cur.value, t.ty)
	if err != nil {
		return provider.ReadResponse{}, err
	}
	resp, err := proc.rpc.ReadResource(ctx, &tfplugin6.ReadResource_Request{TypeName: t.name, CurrentState: cv, Private: cur.private,
		ClientCapabilities: &tfplugin6.ClientCapabilities{WriteOnlyAttributesAllowed: true}})
	if err != nil {
		return provider.ReadResponse{}, p.rpcError("ReadResource", err)
	}
	if err := p.diagnose(resp.GetDiagnostics(), "reading the resource"); err != nil {
		return provider.ReadResponse{}, err
	}
	v, err := decode(resp.GetNewState(), t.ty)
	if err != nil {
		return provider.ReadResponse{}, fmt.Errorf("the state read of the resource: %w", err)
	}
	if v.IsNull() {
		return provider.ReadResponse{}, nil
	}
	s := state{value: v, private: resp.GetPrivate()}
	if cur.by == p.hash {
		s.by = cur.by // still the state of the inputs that package validated
	}
	inputs := req.Inputs
	if req.Outputs == nil {
		inputs = configurable(t.block, stateToEngine(t.block, v))
	}
	return provider.ReadResponse{ID: idOf(v), Inputs: inputs, Outputs: p.outputs(t, s, cur.secrets)}, nil
}

// importState imports the resource with an ID.
func (p *Provider) importState(ctx context.Context, proc *process, t *typed, id resource.ID) (state, error) {
	resp, err := proc.rpc.ImportResourceState(ctx, &tfplugin6.ImportResourceState_Request{TypeName: t.name, Id: string(id),
		ClientCapabilities: &tfplugin6.ClientCapabilities{WriteOnlyAttributesAllowed: true}})
	if err != nil {
		return state{}, p.rpcError("ImportResourceState", err)
	}
	if err := p.diagnose(resp.GetDiagnostics(), "importing "+string(id)); err != nil {
		return state{}, err
	}
	imported := resp.GetImportedResources()
	if len(imported) != 1 {
		return state{}, fmt.Errorf("importing %s: the Terraform provider %s returned %d resources where one was expected", id, p.param.Source, len(imported))
	}
	v, err := decode(imported[0].GetState(), t.ty)
	if err != nil {
		return state{}, fmt.Errorf("the imported state of %s: %w", id, err)
	}
	return state{value: v, private: imported[0].GetPrivate()}, nil
}

// configurable returns the properties of a state a configuration may set:
// the inputs of an imported resource.
func configurable(b *block, m resource.Map) resource.Map {
	out := resource.Map{}
	for _, a := range b.GetAttributes() {
		if v, ok := m[a.GetName()]; ok && (a.GetRequired() || a.GetOptional()) {
			out[a.GetName()] = v
		}
	}
	for _, nb := range b.GetBlockTypes() {
		if v, ok := m[nb.GetTypeName()]; ok {
			out[nb.GetTypeName()] = v
		}
	}
	return out
}
