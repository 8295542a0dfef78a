package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// goal is a registration resolved against its parent and providers: the
// desired state of the resource and the options that are not part of state.
type goal struct {
	req     *RegisterRequest
	new     *resource.State
	aliases []resource.URN
	dbr     *bool // deleteBeforeReplace, when the program set it
	rec     *record
}

// RegisterResource implements Monitor.
func (d *deployment) RegisterResource(ctx context.Context, req RegisterRequest) (*RegisterResponse, error) {
	if d.isCancelled() {
		return nil, ErrCancelled
	}
	if err := resource.ValidateType(req.Type); err != nil {
		return nil, fmt.Errorf("resource %q: %w", req.Name, err)
	}
	if req.Name == "" {
		return nil, fmt.Errorf("a resource of type %s has no name", req.Type)
	}
	if strings.Contains(req.Name, "::") {
		return nil, fmt.Errorf("resource name %q must not contain \"::\"", req.Name)
	}
	d.learnMaps(req.Properties)
	if req.Remote && !req.Custom {
		return d.construct(ctx, &req)
	}
	g, err := d.newGoal(ctx, &req)
	if err != nil {
		return nil, err
	}
	urn := g.new.URN
	defer close(g.rec.done)

	chain, err := d.generate(ctx, g)
	if err != nil {
		d.markFailed(g)
		var se *StepError
		if !asStepError(err, &se) {
			err = d.fail(urn, OpCreate, err)
		}
		return nil, err
	}
	if chain == nil { // untargeted create, skipped
		return &RegisterResponse{URN: urn, ID: resource.UnknownID, Skipped: true,
			Outputs: resource.Map{}, PropertyDependencies: req.PropertyDependencies}, nil
	}
	final, err := d.execute(ctx, chain)
	if err != nil {
		d.markFailed(g)
		var se *StepError
		if req.TaintsParent && asStepError(err, &se) && (se.Op == OpCreate || se.Op == OpCreateReplacement || se.Op == OpUpdate) {
			if terr := d.taint(req.Parent); terr != nil {
				d.diag(req.Parent, SeverityError, "cannot record that it is tainted: %v", terr)
			}
		}
		return nil, err
	}
	d.mu.Lock()
	g.rec.state, g.rec.opID = final.state, final.opID
	d.mu.Unlock()
	changed := false
	for _, s := range chain {
		changed = changed || s.op.IsChange()
	}
	return &RegisterResponse{
		URN:                  urn,
		ID:                   final.state.ID,
		Outputs:              final.state.Outputs,
		Stables:              final.stables,
		PropertyDependencies: req.PropertyDependencies,
		Changed:              changed,
	}, nil
}

func asStepError(err error, target **StepError) bool {
	se, ok := err.(*StepError)
	if ok {
		*target = se
	}
	return ok
}

func (d *deployment) markFailed(g *goal) {
	d.mu.Lock()
	g.rec.failed = true
	d.failed[g.new.URN] = true
	d.mu.Unlock()
}

// parentRecord returns the record of a registered parent, waiting until its
// registration has finished.
func (d *deployment) parentRecord(ctx context.Context, parent resource.URN) (*record, error) {
	if parent == "" {
		return nil, nil
	}
	d.mu.Lock()
	rec := d.records[parent]
	d.mu.Unlock()
	if rec == nil {
		return nil, fmt.Errorf("parent %s is not registered in this deployment; register the parent first", parent)
	}
	select {
	case <-rec.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if rec.failed {
		return nil, fmt.Errorf("parent %s failed", parent)
	}
	return rec, nil
}

// urnFor returns the URN of a resource of this stack.
func (d *deployment) urnFor(parent resource.URN, typ, name string) resource.URN {
	parentType := ""
	if parent != "" {
		parentType = parent.QualifiedType()
	}
	return resource.NewURN(d.opts.Stack, d.opts.Project, parentType, typ, name)
}

// newGoal resolves a registration: inherited options, provider, URN and
// aliases. It reserves the URN.
func (d *deployment) newGoal(ctx context.Context, req *RegisterRequest) (*goal, error) {
	parent, err := d.parentRecord(ctx, req.Parent)
	if err != nil {
		return nil, fmt.Errorf("resource %s %q: %w", req.Type, req.Name, err)
	}
	urn := d.urnFor(req.Parent, req.Type, req.Name)
	s := &resource.State{
		URN: urn, Type: req.Type, Custom: req.Custom, Parent: req.Parent,
		Inputs:                  req.Properties.Resolve(),
		Dependencies:            dedupURNs(req.Dependencies),
		PropertyDependencies:    req.PropertyDependencies,
		IgnoreChanges:           req.IgnoreChanges,
		ReplaceOnChanges:        req.ReplaceOnChanges,
		AdditionalSecretOutputs: req.AdditionalSecretOutputs,
		HideDiff:                req.HideDiffs,
		ImportID:                req.ImportID,
		DeletedWith:             req.DeletedWith,
		ReplaceWith:             req.ReplaceWith,
		ReplacementTrigger:      req.ReplacementTrigger.Resolve(),
		SourcePosition:          req.SourcePosition,
	}
	if s.Inputs == nil {
		s.Inputs = resource.Map{}
	}
	if req.CustomTimeouts != nil && req.Custom {
		s.CustomTimeouts = *req.CustomTimeouts
	}
	// Options inherited from the parent.
	if req.Protect != nil {
		s.Protect = *req.Protect
	} else if parent != nil && parent.state != nil {
		s.Protect = parent.state.Protect
	}
	if req.RetainOnDelete != nil {
		s.RetainOnDelete = *req.RetainOnDelete
	} else if parent != nil && parent.state != nil {
		s.RetainOnDelete = parent.state.RetainOnDelete
	}
	if s.DeletedWith == "" && parent != nil && parent.state != nil {
		s.DeletedWith = parent.state.DeletedWith
	}

	providers, err := inheritedProviders(parent, req)
	if err != nil {
		return nil, fmt.Errorf("resource %s: %w", urn, err)
	}
	rec := &record{done: make(chan struct{}), providers: providers}
	switch {
	case resource.IsProviderType(req.Type):
		s.Inputs = withInternals(s.Inputs, req.PluginDownloadURL, req.EnvVarMappings, req.Parameterization)
	case len(req.EnvVarMappings) > 0:
		return nil, fmt.Errorf("resource %s: envVarMappings is only valid on provider resources", urn)
	case req.Custom:
		if s.Provider, err = d.providerRef(ctx, req, providers); err != nil {
			return nil, fmt.Errorf("resource %s: %w", urn, err)
		}
	}

	g := &goal{req: req, new: s, dbr: req.DeleteBeforeReplace, rec: rec}
	g.aliases = d.aliasURNs(req, parent)
	rec.aliases = g.aliases

	d.mu.Lock()
	defer d.mu.Unlock()
	if _, dup := d.records[urn]; dup {
		return nil, fmt.Errorf("duplicate resource URN %s: two resources of type %s are named %q; give one of them another name", urn, req.Type, req.Name)
	}
	if d.forgotten[urn] {
		return nil, fmt.Errorf("resource %s is both declared and forgotten by the program; remove one of the two", urn)
	}
	d.records[urn] = rec
	return g, nil
}

// inheritedProviders returns the providers, by package, that a registration
// passes on to its children: its parent's, overridden by its own.
func inheritedProviders(parent *record, req *RegisterRequest) (map[string]string, error) {
	out := map[string]string{}
	if parent != nil {
		maps.Copy(out, parent.providers)
	}
	maps.Copy(out, req.Providers)
	if req.Provider != "" {
		ref, err := resource.ParseProviderRef(req.Provider)
		if err != nil {
			return nil, err
		}
		out[ref.Package()] = req.Provider
	}
	return out, nil
}

// providerRef picks the provider of the registration's package: the
// explicit one, an inherited one, or the default provider.
func (d *deployment) providerRef(ctx context.Context, req *RegisterRequest, providers map[string]string) (string, error) {
	pkg := resource.TypePackage(req.Type)
	if ref := req.Provider; ref != "" {
		if pr, _ := resource.ParseProviderRef(ref); pr.Package() != pkg {
			return "", fmt.Errorf("its provider %s serves package %q, not %q", pr.URN, pr.Package(), pkg)
		}
		return ref, nil
	}
	if ref, ok := providers[pkg]; ok {
		return ref, nil
	}
	return d.defaultProvider(ctx, pkg, req.Version, req.PluginDownloadURL, req.Parameterization)
}

// aliasURNs resolves the request's aliases, plus those inherited from the
// parent's aliases, to URNs.
func (d *deployment) aliasURNs(req *RegisterRequest, parent *record) []resource.URN {
	var out []resource.URN
	for _, a := range req.Aliases {
		if a.URN != "" {
			out = append(out, a.URN)
			continue
		}
		name, typ, stack, project := or(a.Name, req.Name), or(a.Type, req.Type), or(a.Stack, d.opts.Stack), or(a.Project, d.opts.Project)
		if a.AnyParent {
			if u := d.oldNamed(stack, project, typ, name); u != "" {
				out = append(out, u)
			}
			continue
		}
		p := req.Parent
		switch {
		case a.NoParent:
			p = ""
		case a.Parent != "":
			p = a.Parent
		}
		pt := ""
		if p != "" {
			pt = p.QualifiedType()
		}
		out = append(out, resource.NewURN(stack, project, pt, typ, name))
	}
	if parent != nil {
		parentName := req.Parent.Name()
		for _, pa := range parent.aliases {
			name := req.Name
			if strings.HasPrefix(name, parentName) && pa.Name() != parentName {
				name = pa.Name() + strings.TrimPrefix(name, parentName)
			}
			out = append(out, resource.NewURN(pa.Stack(), pa.Project(), pa.QualifiedType(), req.Type, name))
		}
	}
	return out
}

// oldNamed returns the URN of the one old resource of a stack, project,
// type and name, whatever its parents' types; none when there are more.
func (d *deployment) oldNamed(stack, project, typ, name string) resource.URN {
	var found resource.URN
	for u := range d.olds {
		if u.Name() == name && u.Type() == typ && u.Stack() == stack && u.Project() == project {
			if found != "" {
				return ""
			}
			found = u
		}
	}
	return found
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func dedupURNs(us []resource.URN) []resource.URN {
	if len(us) < 2 {
		return us
	}
	seen := make(map[resource.URN]bool, len(us))
	out := make([]resource.URN, 0, len(us))
	for _, u := range us {
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}

// defaultProvider returns the reference of the default provider of a package
// at a version and download URL, and parameterization if any, registering it
// on first use: each combination has its own.
func (d *deployment) defaultProvider(ctx context.Context, pkg, version, url string, param *Parameterization) (string, error) {
	key := pkg + "@" + version + "@" + url
	if param != nil {
		key += "@" + param.Plugin + "@" + param.Version + "@" + string(param.Value)
	}
	d.mu.Lock()
	dp := d.defaults[key]
	first := dp == nil
	if first {
		dp = &defaultProvider{done: make(chan struct{})}
		d.defaults[key] = dp
	}
	d.mu.Unlock()
	if first {
		dp.ref, dp.err = d.registerDefaultProvider(ctx, pkg, version, url, param)
		close(dp.done)
	} else {
		select {
		case <-dp.done:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	return dp.ref, dp.err
}

func (d *deployment) registerDefaultProvider(ctx context.Context, pkg, version, url string, param *Parameterization) (string, error) {
	if d.defaultProvidersDisabled(pkg) {
		return "", fmt.Errorf("default providers for package %q are disabled by the config pulumi:disable-default-providers; give the resource an explicit provider", pkg)
	}
	inputs := resource.Map{}
	prefix := pkg + ":"
	for k, v := range d.opts.Config {
		if key, ok := strings.CutPrefix(k, prefix); ok {
			inputs[key] = v
		}
	}
	if version != "" {
		inputs[versionKey] = resource.String(version)
	}
	name := defaultProviderName(version, url)
	if param != nil {
		name = defaultProviderName(param.Version, url)
	}
	resp, err := d.RegisterResource(ctx, RegisterRequest{
		Type: resource.ProviderType(pkg), Name: name, Custom: true, Properties: inputs,
		PluginDownloadURL: url, Parameterization: param,
	})
	if err != nil {
		return "", fmt.Errorf("default provider for %q: %w", pkg, err)
	}
	return resource.ProviderRef{URN: resp.URN, ID: resp.ID}.String(), nil
}

func (d *deployment) defaultProvidersDisabled(pkg string) bool {
	v, ok := d.opts.Config["pulumi:disable-default-providers"]
	if !ok {
		return false
	}
	v = v.Unsecret()
	var names []string
	switch {
	case v.IsArray():
		for _, e := range v.ArrayValue() {
			if e.IsString() {
				names = append(names, e.StringValue())
			}
		}
	case v.IsString():
		s := strings.TrimSpace(v.StringValue())
		if err := json.Unmarshal([]byte(s), &names); err != nil {
			names = strings.Split(s, ",")
		}
	}
	for _, n := range names {
		if n = strings.TrimSpace(n); n == "*" || n == pkg {
			return true
		}
	}
	return false
}

// providerFor returns the provider that manages a custom resource.
func (d *deployment) providerFor(ctx context.Context, s *resource.State) (provider.Provider, error) {
	if s.Provider == "" {
		return nil, fmt.Errorf("resource %s has no provider", s.URN)
	}
	return d.reg.get(ctx, s.Provider)
}

// RegisterResourceOutputs implements Monitor.
func (d *deployment) RegisterResourceOutputs(ctx context.Context, urn resource.URN, outputs resource.Map) error {
	d.mu.Lock()
	rec := d.records[urn]
	d.mu.Unlock()
	d.learnMaps(outputs)
	if rec == nil {
		return fmt.Errorf("cannot register outputs of %s: it is not registered in this deployment", urn)
	}
	<-rec.done
	d.mu.Lock()
	defer d.mu.Unlock()
	if rec.state == nil {
		return fmt.Errorf("cannot register outputs of %s: its registration failed or was skipped", urn)
	}
	s := rec.state.Copy()
	s.Outputs = outputs.Resolve()
	rec.state = s
	if d.opts.DryRun {
		return nil
	}
	return d.journal.append(snapshot.JournalEntry{Kind: snapshot.EntryOutputs, OperationID: rec.opID, TargetNew: int64p(rec.opID), State: s})
}

// taint marks a resource registered in this deployment tainted (see
// RegisterRequest.TaintsParent).
func (d *deployment) taint(urn resource.URN) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	rec := d.records[urn]
	if d.opts.DryRun || rec == nil || rec.state == nil {
		return nil
	}
	s := rec.state.Copy()
	s.Taint = true
	rec.state = s
	return d.journal.append(snapshot.JournalEntry{Kind: snapshot.EntryOutputs, OperationID: rec.opID, TargetNew: int64p(rec.opID), State: s})
}

// resolveProvider finds the provider for an invoke or read: the explicit
// reference, or the default provider of the token's package.
func (d *deployment) resolveProvider(ctx context.Context, ref, token, version, url string, param *Parameterization) (string, provider.Provider, error) {
	if ref == "" {
		var err error
		if ref, err = d.defaultProvider(ctx, resource.TypePackage(token), version, url, param); err != nil {
			return "", nil, err
		}
	}
	p, err := d.reg.get(ctx, ref)
	return ref, p, err
}

// Invoke implements Monitor.
func (d *deployment) Invoke(ctx context.Context, req InvokeRequest) (*InvokeResponse, error) {
	ref, p, err := d.resolveProvider(ctx, req.Provider, req.Token, req.Version, req.PluginDownloadURL, req.Parameterization)
	if err != nil {
		return nil, fmt.Errorf("invoke %s: %w", req.Token, err)
	}
	if d.opts.DryRun && d.reg.unconfigured(ref) {
		return &InvokeResponse{Unknown: true}, nil
	}
	d.learnMaps(req.Args)
	d.acquire()
	resp, err := p.Invoke(context.WithoutCancel(ctx), provider.InvokeRequest{Token: req.Token, Args: req.Args.Resolve(), Preview: d.opts.DryRun})
	d.release()
	if err != nil {
		return nil, fmt.Errorf("invoke %s: %w", req.Token, err)
	}
	if len(resp.Failures) > 0 {
		return nil, fmt.Errorf("invoke %s: %s", req.Token, failureText(resp.Failures))
	}
	d.learnMaps(resp.Return)
	return &InvokeResponse{Return: resp.Return}, nil
}

// Call implements Monitor.
func (d *deployment) Call(ctx context.Context, req CallRequest) (*CallResponse, error) {
	_, p, err := d.resolveProvider(ctx, req.Provider, req.Token, req.Version, "", nil)
	if err != nil {
		return nil, fmt.Errorf("call %s: %w", req.Token, err)
	}
	env, err := d.componentEnv()
	if err != nil {
		return nil, fmt.Errorf("call %s: %w", req.Token, err)
	}
	d.learnMaps(req.Args)
	resp, err := p.Call(context.WithoutCancel(ctx), provider.CallRequest{
		Token: req.Token, Args: req.Args.Resolve(), ArgDependencies: req.ArgDependencies,
		Project: d.opts.Project, Stack: d.opts.Stack, Config: env.config, ConfigSecretKeys: env.secretKeys,
		DryRun: d.opts.DryRun, Parallel: d.opts.parallel(), MonitorAddress: env.monitor,
	})
	if err != nil {
		return nil, fmt.Errorf("call %s: %w", req.Token, err)
	}
	if len(resp.Failures) > 0 {
		return nil, fmt.Errorf("call %s: %s", req.Token, failureText(resp.Failures))
	}
	d.learnMaps(resp.Return)
	return &CallResponse{Return: resp.Return, ReturnDependencies: resp.ReturnDependencies}, nil
}

// ReadResource implements Monitor.
func (d *deployment) ReadResource(ctx context.Context, req ReadResourceRequest) (*ReadResourceResponse, error) {
	if d.isCancelled() {
		return nil, ErrCancelled
	}
	if _, err := d.parentRecord(ctx, req.Parent); err != nil {
		return nil, err
	}
	urn := d.urnFor(req.Parent, req.Type, req.Name)
	ref, p, err := d.resolveProvider(ctx, req.Provider, req.Type, req.Version, "", nil)
	if err != nil {
		return nil, d.fail(urn, OpRead, err)
	}
	rec := &record{done: make(chan struct{}), providers: map[string]string{}}
	defer close(rec.done)
	d.mu.Lock()
	if _, dup := d.records[urn]; dup {
		d.mu.Unlock()
		return nil, d.fail(urn, OpRead, fmt.Errorf("duplicate resource URN %s; give the resource another name", urn))
	}
	d.records[urn] = rec
	old := d.olds[urn]
	if old != nil {
		d.claimed[urn] = urn
	}
	d.mu.Unlock()

	s := &resource.State{URN: urn, Type: req.Type, Custom: true, External: true, ID: req.ID, Parent: req.Parent,
		Inputs: req.Properties.Resolve(), Dependencies: req.Dependencies, Provider: ref,
		AdditionalSecretOutputs: req.AdditionalSecretOutputs}
	op := OpRead
	if old != nil && !old.External {
		op = OpReadReplacement
	}
	st := &step{op: op, urn: urn, old: old, new: s, prov: p, logical: true}
	final, err := d.execute(ctx, []*step{st})
	if err != nil {
		rec.failed = true
		return nil, err
	}
	d.mu.Lock()
	rec.state, rec.opID = final.state, final.opID
	d.mu.Unlock()
	return &ReadResourceResponse{URN: urn, Outputs: final.state.Outputs}, nil
}

func failureText(fs []provider.CheckFailure) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		if f.Property != "" {
			parts[i] = f.Property + ": " + f.Reason
		} else {
			parts[i] = f.Reason
		}
	}
	return strings.Join(parts, "; ")
}

func now() *time.Time {
	t := time.Now().UTC()
	return &t
}
