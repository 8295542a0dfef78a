package deploy

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// Provider resources carry two engine-internal inputs: the package version and
// the "__internal" bag. Neither is passed to the provider's configuration.
const (
	versionKey  = "version"
	internalKey = "__internal"
)

// registry manages provider instances. It treats providers as resources of
// type pulumi:providers:<pkg>: Check prepares an instance and runs
// CheckConfig, Diff runs DiffConfig, Create and Update configure the
// instance and make it reachable through its reference "<urn>::<id>",
// Delete closes it. Providers recorded in the base snapshot are prepared on
// first use. An instance loads its provider (starting a plugin process)
// only when a call needs it, and is configured before the first call that
// acts on resources (see instance).
type registry struct {
	host    provider.Host
	preview bool

	mu       sync.Mutex
	byRef    map[string]*instance
	byURN    map[resource.URN]*instance // prepared for provider resources, until configured
	oldState map[string]*resource.State // base provider resources by reference
	all      []*instance
}

func newRegistry(host provider.Host, base *snapshot.Snapshot, preview bool) *registry {
	r := &registry{host: host, preview: preview, byRef: map[string]*instance{},
		byURN: map[resource.URN]*instance{}, oldState: map[string]*resource.State{}}
	if base != nil {
		for _, s := range base.Resources {
			if resource.IsProviderType(s.Type) {
				r.oldState[resource.ProviderRef{URN: s.URN, ID: s.ID}.String()] = s
			}
		}
	}
	return r
}

// splitInputs separates a provider resource's inputs into its configuration
// and its version.
func splitInputs(m resource.Map) (resource.Map, string) {
	cfg := make(resource.Map, len(m))
	version := ""
	for k, v := range m {
		switch k {
		case versionKey:
			if v.IsString() {
				version = v.StringValue()
			}
		case internalKey:
		default:
			cfg[k] = v
		}
	}
	return cfg, version
}

// newInstance makes the instance of a provider resource of type typ with
// the inputs given, without loading its provider: their version and the
// envVarMappings of their "__internal" bag say which provider and how to
// start it. The host identifies the provider then, when it can without
// starting it.
func (r *registry) newInstance(ctx context.Context, typ string, inputs resource.Map) (*instance, error) {
	_, version := splitInputs(inputs)
	pkg := resource.ProviderTypePackage(typ)
	param, pluginVersion, err := parameterization(pkg, inputs)
	if err != nil {
		return nil, err
	}
	plugin := pkg
	if param != nil {
		plugin, version = param.Plugin, pluginVersion
	}
	mappings := envVarMappings(inputs)
	eh, envHost := r.host.(provider.EnvHost)
	if len(mappings) > 0 && !envHost {
		return nil, fmt.Errorf("envVarMappings of a %s provider: this deployment's providers cannot be started with renamed environment variables", plugin)
	}
	url := internalString(inputs, "pluginDownloadURL")
	inst := &instance{pkg: pkg, plugin: plugin, version: version, load: func(ctx context.Context) (provider.Provider, error) {
		var p provider.Provider
		var err error
		if len(mappings) > 0 {
			p, err = eh.LoadWithEnv(ctx, plugin, version, mappings)
		} else if dh, ok := r.host.(provider.DownloadHost); ok {
			p, err = dh.LoadFrom(ctx, plugin, version, url)
		} else {
			p, err = r.host.Load(ctx, plugin, version)
		}
		if err != nil {
			return nil, err
		}
		if param != nil {
			if err := parameterize(ctx, p, param); err != nil {
				_ = p.Close()
				return nil, err
			}
		}
		return p, nil
	}}
	if ih, ok := r.host.(provider.IdentifyHost); ok {
		inst.known, inst.identified = ih.Identify(ctx, plugin, version)
	}
	r.mu.Lock()
	r.all = append(r.all, inst)
	r.mu.Unlock()
	return inst, nil
}

// envVarMappings returns the envVarMappings kept in a provider resource's
// "__internal" bag.
func envVarMappings(inputs resource.Map) map[string]string {
	internal := inputs[internalKey]
	if !internal.IsObject() {
		return nil
	}
	m := internal.ObjectValue()["envVarMappings"]
	if !m.IsObject() {
		return nil
	}
	mappings := map[string]string{}
	for k, v := range m.ObjectValue() {
		if v.IsString() {
			mappings[k] = v.StringValue()
		}
	}
	return mappings
}

// parameterization reads the parameterization kept in the inputs of a
// provider resource of package pkg, if any, and the plugin version.
func parameterization(pkg string, inputs resource.Map) (*Parameterization, string, error) {
	internal := inputs[internalKey]
	if !internal.IsObject() || !internal.ObjectValue()["parameterization"].IsString() {
		return nil, "", nil
	}
	value, err := base64.StdEncoding.DecodeString(internal.ObjectValue()["parameterization"].StringValue())
	if err != nil {
		return nil, "", fmt.Errorf("the parameterization of package %q: its value is not base64: %w", pkg, err)
	}
	plugin := internalString(inputs, "name")
	if plugin == "" {
		plugin = pkg
	}
	_, version := splitInputs(inputs)
	return &Parameterization{Plugin: plugin, Name: pkg, Version: version, Value: value}, internalString(inputs, versionKey), nil
}

// parameterize parameterizes p with the value form of param and checks that
// it then serves the package param names.
func parameterize(ctx context.Context, p provider.Provider, param *Parameterization) error {
	resp, err := p.Parameterize(ctx, provider.ParameterizeRequest{Name: param.Name, Version: param.Version, Value: param.Value})
	if err != nil {
		return fmt.Errorf("parameterizing the %s provider for package %s %s: %w", param.Plugin, param.Name, param.Version, err)
	}
	if resp.Name != param.Name {
		return fmt.Errorf("parameterizing the %s provider for package %s: it serves package %q instead", param.Plugin, param.Name, resp.Name)
	}
	return nil
}

// internalString returns the string key of a provider resource's
// "__internal" bag, or "".
func internalString(inputs resource.Map, key string) string {
	if internal := inputs[internalKey]; internal.IsObject() {
		if v := internal.ObjectValue()[key]; v.IsString() {
			return v.StringValue()
		}
	}
	return ""
}

// prepared returns the instance a provider resource's registration
// uses, made from its new inputs on first call.
func (r *registry) prepared(ctx context.Context, urn resource.URN, inputs resource.Map) (*instance, error) {
	r.mu.Lock()
	inst := r.byURN[urn]
	r.mu.Unlock()
	if inst != nil {
		return inst, nil
	}
	inst, err := r.newInstance(ctx, urn.Type(), inputs)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if prev := r.byURN[urn]; prev != nil {
		return prev, nil
	}
	r.byURN[urn] = inst
	return inst, nil
}

// check checks a provider resource's configuration with its prepared
// instance.
func (r *registry) check(ctx context.Context, urn resource.URN, olds, news resource.Map) (provider.CheckResponse, error) {
	cfg, _ := splitInputs(news)
	var oldCfg resource.Map
	if olds != nil {
		oldCfg, _ = splitInputs(olds)
	}
	inst, err := r.prepared(ctx, urn, news)
	if err != nil {
		return provider.CheckResponse{}, err
	}
	resp, err := inst.CheckConfig(ctx, provider.CheckRequest{URN: urn, Name: urn.Name(), Type: urn.Type(), Olds: oldCfg, News: cfg})
	if err != nil {
		return resp, err
	}
	if resp.Inputs == nil {
		resp.Inputs = cfg
	}
	resp.Inputs = resp.Inputs.Copy()
	for _, k := range []string{versionKey, internalKey} {
		if v, ok := news[k]; ok {
			resp.Inputs[k] = v
		}
	}
	return resp, nil
}

// diff runs DiffConfig on the prepared instance; when the provider cannot
// tell, a change of configuration is an update, never a replacement.
func (r *registry) diff(ctx context.Context, urn resource.URN, old *resource.State, news resource.Map) (provider.DiffResponse, error) {
	inst, err := r.prepared(ctx, urn, news)
	if err != nil {
		return provider.DiffResponse{}, err
	}
	oldCfg, _ := splitInputs(old.Inputs)
	newCfg, _ := splitInputs(news)
	resp, err := inst.DiffConfig(ctx, provider.DiffRequest{URN: urn, Name: urn.Name(), Type: urn.Type(), ID: old.ID,
		OldInputs: oldCfg, OldOutputs: oldCfg, News: newCfg})
	if err != nil {
		return resp, err
	}
	if resp.Changes == provider.DiffUnknown {
		dd, changed := resource.DiffMaps(old.Inputs, news)
		resp = provider.DiffResponse{Changes: provider.DiffNone}
		if len(changed) > 0 {
			resp = provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: changed, DetailedDiff: dd}
		}
	}
	return resp, nil
}

// configure gives inst its configuration, once, and registers it under
// ref. With now (its CheckConfig ran) it is configured at once, so that a
// configuration it refuses fails the provider's own step; else (the
// provider resource took the fast path) before its first call on
// resources, if any.
func (r *registry) configure(ctx context.Context, inst *instance, urn resource.URN, id resource.ID, inputs resource.Map, now bool) error {
	inst.setConfig(urn, id, inputs)
	if now {
		if _, err := inst.ready(ctx); err != nil {
			return err
		}
	}
	r.mu.Lock()
	r.byRef[resource.ProviderRef{URN: urn, ID: id}.String()] = inst
	delete(r.byURN, urn)
	r.mu.Unlock()
	return nil
}

// create configures the prepared instance and gives it a new ID (unknown
// in a preview).
func (r *registry) create(ctx context.Context, urn resource.URN, inputs resource.Map) (resource.ID, error) {
	inst, err := r.prepared(ctx, urn, inputs)
	if err != nil {
		return "", err
	}
	id := resource.UnknownID
	if !r.preview {
		id = newUUID()
	}
	return id, r.configure(ctx, inst, urn, id, inputs, true)
}

// same configures the prepared instance under the provider's existing ID;
// fast says the provider resource took the fast path.
func (r *registry) same(ctx context.Context, urn resource.URN, id resource.ID, inputs resource.Map, fast bool) error {
	inst, err := r.prepared(ctx, urn, inputs)
	if err != nil {
		return err
	}
	return r.configure(ctx, inst, urn, id, inputs, !fast)
}

// get returns the provider of a reference, preparing a provider of the base
// snapshot on first use.
func (r *registry) get(ctx context.Context, ref string) (provider.Provider, error) {
	inst, err := r.instanceFor(ctx, ref)
	if err != nil {
		return nil, err
	}
	return inst, nil
}

func (r *registry) instanceFor(ctx context.Context, ref string) (*instance, error) {
	r.mu.Lock()
	inst := r.byRef[ref]
	old := r.oldState[ref]
	r.mu.Unlock()
	if inst != nil {
		return inst, nil
	}
	if old == nil {
		pr, err := resource.ParseProviderRef(ref)
		if err != nil {
			return nil, err
		}
		if pr.ID == resource.UnknownID {
			return nil, fmt.Errorf("provider %s is not known yet", pr.URN)
		}
		return nil, fmt.Errorf("provider %s is not registered in this deployment or in the stack's state", ref)
	}
	made, err := r.newInstance(ctx, old.Type, old.Inputs)
	if err != nil {
		return nil, err
	}
	made.setConfig(old.URN, old.ID, old.Inputs)
	r.mu.Lock()
	defer r.mu.Unlock()
	// Another goroutine may have prepared it meanwhile.
	if inst = r.byRef[ref]; inst == nil {
		inst = made
		r.byRef[ref] = inst
	}
	return inst, nil
}

// unconfigured reports whether the provider behind ref was configured with
// unknown values, so that its answers cannot be trusted during a preview.
func (r *registry) unconfigured(ref string) bool {
	r.mu.Lock()
	inst := r.byRef[ref]
	r.mu.Unlock()
	return inst != nil && inst.configuredUnknown()
}

// cancel signals every loaded provider to stop.
func (r *registry) cancel(ctx context.Context) {
	r.mu.Lock()
	all := append([]*instance(nil), r.all...)
	r.mu.Unlock()
	for _, inst := range all {
		_ = inst.SignalCancellation(ctx)
	}
}

// close shuts every loaded provider down.
func (r *registry) close() {
	r.mu.Lock()
	all := r.all
	r.all = nil
	r.mu.Unlock()
	for _, inst := range all {
		_ = inst.Close()
	}
}

// defaultProviderName is the name of the default provider of a package at a
// version and download URL: "default", "default_1_2_3" for version 1.2.3,
// and the URL's letters, digits and dots appended the same way.
func defaultProviderName(version, url string) string {
	name := "default"
	if version != "" {
		name += "_" + strings.NewReplacer(".", "_", "-", "_", "+", "_").Replace(version)
	}
	if url != "" {
		name += "_" + strings.Map(func(r rune) rune {
			if r == '.' || r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				return r
			}
			return '_'
		}, url)
	}
	return name
}

// withInternals adds to a provider resource's inputs the engine-internal
// options Pulumi keeps under "__internal": the download URL, renamed
// environment variables and, for a parameterized package, the plugin that
// serves it ("name"), the plugin's version ("version", the top-level
// version being the package's) and the parameter value in base64
// ("parameterization"), Pulumi's checkpoint shape.
func withInternals(inputs resource.Map, url string, envVars map[string]string, param *Parameterization) resource.Map {
	internal := resource.Map{}
	out := inputs.Copy()
	if param != nil {
		internal["name"] = resource.String(param.Plugin)
		if v, ok := inputs[versionKey]; ok {
			internal[versionKey] = v
		}
		internal["parameterization"] = resource.String(base64.StdEncoding.EncodeToString(param.Value))
		out[versionKey] = resource.String(param.Version)
	}
	if url != "" {
		internal["pluginDownloadURL"] = resource.String(url)
	}
	if len(envVars) > 0 {
		m := resource.Map{}
		for k, v := range envVars {
			m[k] = resource.String(v)
		}
		internal["envVarMappings"] = resource.Object(m)
	}
	if len(internal) == 0 {
		return inputs
	}
	out[internalKey] = resource.Object(internal)
	return out
}

// isDefaultProvider reports whether the reference names a default provider.
func isDefaultProvider(ref string) bool {
	pr, err := resource.ParseProviderRef(ref)
	return err == nil && strings.HasPrefix(pr.URN.Name(), "default")
}

func newUUID() resource.ID {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return resource.ID(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16]))
}

// configOf returns the configuration of a loaded provider, without the
// engine's internal keys; nil when it is not loaded.
func (r *registry) configOf(ref string) resource.Map {
	r.mu.Lock()
	inst := r.byRef[ref]
	r.mu.Unlock()
	if inst == nil {
		return nil
	}
	cfg, _ := splitInputs(inst.configInputs())
	return cfg
}
