package deploy

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// instance is one provider of a deployment, and a provider.Provider
// itself: it loads its provider (starting its plugin process, if it has
// one) on the first call that needs it, and configures it before the first
// call that acts on resources or functions. A deployment whose resources
// all take the fast path needs neither, so it starts no plugin.
type instance struct {
	pkg     string // the package it serves
	plugin  string // the plugin serving it: pkg, or the base plugin of a parameterized package
	version string // the version asked for
	load    func(context.Context) (provider.Provider, error)
	// known identifies the provider without loading it, when identified
	// (see provider.IdentifyHost).
	known      provider.Identity
	identified bool

	loadOnce sync.Once
	loading  atomic.Bool // set when loading starts
	prov     provider.Provider
	loadErr  error

	mu        sync.Mutex
	configReq *provider.ConfigureRequest // the first configuration given; nil until then
	inputs    resource.Map               // the provider resource's inputs configured with
	unknown   bool                       // configured with unknown values (preview)

	configOnce sync.Once
	configErr  error

	infoOnce sync.Once
	info     provider.PluginInfo
	infoErr  error

	idOnce   sync.Once
	id       []byte // see identity
	idSecret bool
}

var _ provider.Provider = (*instance)(nil)

// loaded returns the provider, loading it on first use. A load is not
// cancelled with the call that caused it: other calls share its outcome.
func (inst *instance) loaded(ctx context.Context) (provider.Provider, error) {
	inst.loadOnce.Do(func() {
		inst.loading.Store(true)
		inst.prov, inst.loadErr = inst.load(context.WithoutCancel(ctx))
	})
	return inst.prov, inst.loadErr
}

// isLoaded reports whether the provider was loaded, or is being loaded.
func (inst *instance) isLoaded() bool { return inst.loading.Load() }

// setConfig records the configuration of the provider resource the
// instance serves; the first one given stays.
func (inst *instance) setConfig(urn resource.URN, id resource.ID, inputs resource.Map) {
	cfg, _ := splitInputs(inputs)
	inst.mu.Lock()
	defer inst.mu.Unlock()
	if inst.configReq != nil {
		return
	}
	inst.configReq = &provider.ConfigureRequest{URN: urn, Name: urn.Name(), Type: urn.Type(), ID: id, Inputs: cfg}
	inst.inputs, inst.unknown = inputs, cfg.ContainsUnknowns()
}

// configInputs returns the inputs of the provider resource the instance
// was configured with; nil before.
func (inst *instance) configInputs() resource.Map {
	inst.mu.Lock()
	defer inst.mu.Unlock()
	return inst.inputs
}

// configuredUnknown reports whether the configuration holds unknowns.
func (inst *instance) configuredUnknown() bool {
	inst.mu.Lock()
	defer inst.mu.Unlock()
	return inst.unknown
}

// ready returns the provider loaded and configured.
func (inst *instance) ready(ctx context.Context) (provider.Provider, error) {
	p, err := inst.loaded(ctx)
	if err != nil {
		return nil, err
	}
	inst.mu.Lock()
	req := inst.configReq
	inst.mu.Unlock()
	if req == nil {
		return nil, fmt.Errorf("the %s provider was called before it was configured", inst.pkg)
	}
	inst.configOnce.Do(func() {
		if _, err := p.Configure(context.WithoutCancel(ctx), *req); err != nil {
			inst.configErr = fmt.Errorf("configuring provider %s: %w", req.URN, err)
		}
	})
	return p, inst.configErr
}

// pluginInfo asks the provider about itself, once, loading it; like the
// load, the answer is shared, so it is not cancelled with its caller.
func (inst *instance) pluginInfo(ctx context.Context) (provider.PluginInfo, error) {
	inst.infoOnce.Do(func() {
		p, err := inst.loaded(ctx)
		if err == nil {
			inst.info, err = p.GetPluginInfo(context.WithoutCancel(ctx))
		}
		inst.infoErr = err
	})
	return inst.info, inst.infoErr
}

// Pkg implements provider.Provider.
func (inst *instance) Pkg() string { return inst.pkg }

// GetPluginInfo implements provider.Provider.
func (inst *instance) GetPluginInfo(ctx context.Context) (provider.PluginInfo, error) {
	return inst.pluginInfo(ctx)
}

// GetSchema implements provider.Provider.
func (inst *instance) GetSchema(ctx context.Context, req provider.GetSchemaRequest) ([]byte, error) {
	p, err := inst.loaded(ctx)
	if err != nil {
		return nil, err
	}
	return p.GetSchema(ctx, req)
}

// CheckConfig implements provider.Provider.
func (inst *instance) CheckConfig(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	p, err := inst.loaded(ctx)
	if err != nil {
		return provider.CheckResponse{}, err
	}
	return p.CheckConfig(ctx, req)
}

// DiffConfig implements provider.Provider.
func (inst *instance) DiffConfig(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	p, err := inst.loaded(ctx)
	if err != nil {
		return provider.DiffResponse{}, err
	}
	return p.DiffConfig(ctx, req)
}

// Configure implements provider.Provider: the registry configures an
// instance itself (setConfig), so a direct call is a mistake.
func (inst *instance) Configure(context.Context, provider.ConfigureRequest) (provider.ConfigureResponse, error) {
	return provider.ConfigureResponse{}, fmt.Errorf("the %s provider is configured by the engine's provider registry", inst.pkg)
}

// Parameterize implements provider.Provider.
func (inst *instance) Parameterize(ctx context.Context, req provider.ParameterizeRequest) (provider.ParameterizeResponse, error) {
	p, err := inst.loaded(ctx)
	if err != nil {
		return provider.ParameterizeResponse{}, err
	}
	return p.Parameterize(ctx, req)
}

// Check implements provider.Provider.
func (inst *instance) Check(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	p, err := inst.ready(ctx)
	if err != nil {
		return provider.CheckResponse{}, err
	}
	return p.Check(ctx, req)
}

// Diff implements provider.Provider.
func (inst *instance) Diff(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	p, err := inst.ready(ctx)
	if err != nil {
		return provider.DiffResponse{}, err
	}
	return p.Diff(ctx, req)
}

// Create implements provider.Provider.
func (inst *instance) Create(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	p, err := inst.ready(ctx)
	if err != nil {
		return provider.CreateResponse{}, err
	}
	return p.Create(ctx, req)
}

// Read implements provider.Provider.
func (inst *instance) Read(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	p, err := inst.ready(ctx)
	if err != nil {
		return provider.ReadResponse{}, err
	}
	return p.Read(ctx, req)
}

// Update implements provider.Provider.
func (inst *instance) Update(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	p, err := inst.ready(ctx)
	if err != nil {
		return provider.UpdateResponse{}, err
	}
	return p.Update(ctx, req)
}

// Delete implements provider.Provider.
func (inst *instance) Delete(ctx context.Context, req provider.DeleteRequest) error {
	p, err := inst.ready(ctx)
	if err != nil {
		return err
	}
	return p.Delete(ctx, req)
}

// Move implements provider.Mover for a provider that does.
func (inst *instance) Move(ctx context.Context, req provider.MoveRequest) (provider.MoveResponse, error) {
	p, err := inst.ready(ctx)
	if err != nil {
		return provider.MoveResponse{}, err
	}
	m, ok := p.(provider.Mover)
	if !ok {
		return provider.MoveResponse{}, provider.ErrNotImplemented
	}
	return m.Move(ctx, req)
}

// Invoke implements provider.Provider.
func (inst *instance) Invoke(ctx context.Context, req provider.InvokeRequest) (provider.InvokeResponse, error) {
	p, err := inst.ready(ctx)
	if err != nil {
		return provider.InvokeResponse{}, err
	}
	return p.Invoke(ctx, req)
}

// Call implements provider.Provider.
func (inst *instance) Call(ctx context.Context, req provider.CallRequest) (provider.CallResponse, error) {
	p, err := inst.ready(ctx)
	if err != nil {
		return provider.CallResponse{}, err
	}
	return p.Call(ctx, req)
}

// Construct implements provider.Provider.
func (inst *instance) Construct(ctx context.Context, req provider.ConstructRequest) (provider.ConstructResponse, error) {
	p, err := inst.ready(ctx)
	if err != nil {
		return provider.ConstructResponse{}, err
	}
	return p.Construct(ctx, req)
}

// SignalCancellation implements provider.Provider; a provider never
// loaded has nothing to stop.
func (inst *instance) SignalCancellation(ctx context.Context) error {
	if !inst.isLoaded() {
		return nil
	}
	p, err := inst.loaded(ctx)
	if err != nil {
		return nil
	}
	return p.SignalCancellation(ctx)
}

// Close implements provider.Provider; a provider never loaded has nothing
// to release.
func (inst *instance) Close() error {
	if !inst.isLoaded() {
		return nil
	}
	p, err := inst.loaded(context.Background())
	if err != nil {
		return nil
	}
	return p.Close()
}
