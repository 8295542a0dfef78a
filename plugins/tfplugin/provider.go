package tfplugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/plugins/tfinstall"
	"github.com/cairn-iac/cairn/plugins/tfplugin/tfplugin6"
)

const (
	// Name is the package of the built-in provider that serves Terraform
	// providers once parameterized with one.
	Name = "terraform-provider"
	// Version is its version.
	Version = "1.0.0"
	// terraformVersion is the Terraform version ConfigureProvider tells
	// providers: as OpenTofu does, a release every provider knows.
	terraformVersion = "1.13.0"
)

// Options configure the providers a Factory makes.
type Options struct {
	// Install says where providers are installed from and into, and which
	// folder holds the lock file (see tfinstall.Install).
	Install tfinstall.Options
	// Dir is the providers' working folder, the project's.
	Dir string
	// Env is added to the providers' environment.
	Env []string
	// Log receives what providers log; nil means slog.Default().
	Log *slog.Logger
	// StartTimeout bounds a provider's start; zero means a minute.
	StartTimeout time.Duration
}

func (o Options) log() *slog.Logger {
	if o.Log != nil {
		return o.Log
	}
	return slog.Default()
}

// Factory returns the built-in provider terraform-provider. Its instances
// share the packages they install and the schemas they read, one per
// provider binary.
func Factory(o Options) provider.Factory {
	schemas := &schemaCache{m: map[string]*providerSchema{}}
	in := &installs{opts: o.Install, m: map[tfinstall.Request]*installation{}}
	return provider.Factory{Pkg: Name, Version: Version, New: func(context.Context) (provider.Provider, error) {
		return &Provider{opts: o, installs: in, schemas: schemas}, nil
	}}
}

// parameter is the value a Provider is parameterized with, as JSON: the
// Terraform provider's fully qualified source address and version.
type parameter struct {
	Source  string `json:"source"`
	Version string `json:"version"`
}

// Provider is a provider.Provider served by a Terraform provider plugin,
// started on first use once Parameterize named it.
type Provider struct {
	provider.Unimplemented
	opts     Options
	installs *installs
	schemas  *schemaCache

	// log is the log of the provider it serves, set by Parameterize.
	log *slog.Logger

	mu     sync.Mutex
	param  *parameter
	pkg    string // the package it serves: the provider's type name
	exe    string
	proc   *process
	schema *providerSchema
}

var _ provider.Provider = (*Provider)(nil)

// Pkg implements provider.Provider.
func (p *Provider) Pkg() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pkg == "" {
		return Name
	}
	return p.pkg
}

// GetPluginInfo implements provider.Provider.
func (p *Provider) GetPluginInfo(context.Context) (provider.PluginInfo, error) {
	return provider.PluginInfo{Version: Version}, nil
}

// Parameterize implements provider.Provider: with arguments, the
// provider's source address and optional version constraints
// ("hashicorp/null", "~> 3.2"); with a value, what an earlier
// parameterization recorded. The provider is installed at the version the
// lock file or the constraints choose (with a value, the version it
// records), and serves the package named after its type.
func (p *Provider) Parameterize(ctx context.Context, req provider.ParameterizeRequest) (provider.ParameterizeResponse, error) {
	var want tfinstall.Request
	switch {
	case req.Args != nil && (len(req.Args) == 1 || len(req.Args) == 2):
		want.Source = req.Args[0]
		if len(req.Args) == 2 {
			want.Constraints = req.Args[1]
		}
	case req.Args != nil:
		return provider.ParameterizeResponse{}, fmt.Errorf("%s takes a Terraform provider's source address and optionally version constraints, such as hashicorp/null \"~> 3.2\", not %q", Name, req.Args)
	default:
		var v parameter
		if err := json.Unmarshal(req.Value, &v); err != nil || v.Source == "" {
			return provider.ParameterizeResponse{}, fmt.Errorf("%s: the parameterization %q does not name a Terraform provider", Name, req.Value)
		}
		want.Source, want.Version = v.Source, v.Version
	}
	addr, err := tfinstall.ParseProvider(want.Source)
	if err != nil {
		return provider.ParameterizeResponse{}, err
	}
	pkg, err := p.installs.install(ctx, want)
	if err != nil {
		return provider.ParameterizeResponse{}, err
	}
	version := pkg.Version
	if version == "" {
		version = devVersion
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.param != nil {
		return provider.ParameterizeResponse{}, fmt.Errorf("%s is parameterized already, with %s", Name, p.param.Source)
	}
	p.param, p.pkg, p.exe = &parameter{Source: pkg.Source, Version: version}, addr.Type, pkg.Executable
	p.log = p.opts.log().With("provider", pkg.Source)
	return provider.ParameterizeResponse{Name: addr.Type, Version: version}, nil
}

// ready returns the running provider and its schema, starting it first.
// A provider that does not declare its schema optional is asked for it in
// each process, as Terraform does; the answer is read once per binary.
func (p *Provider) ready(ctx context.Context) (*process, *providerSchema, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.param == nil {
		return nil, nil, fmt.Errorf("%s serves no Terraform provider until it is parameterized with one", Name)
	}
	if p.proc != nil {
		return p.proc, p.schema, nil
	}
	proc, err := start(p.exe, p.opts)
	if err != nil {
		return nil, nil, err
	}
	s := p.schemas.get(p.exe)
	if s == nil || !s.resp.GetServerCapabilities().GetGetProviderSchemaOptional() {
		resp, err := proc.rpc.GetProviderSchema(ctx, &tfplugin6.GetProviderSchema_Request{})
		if err == nil {
			err = p.diagnose(resp.GetDiagnostics(), "reading its schema")
		}
		if err == nil && s == nil {
			s, err = newProviderSchema(p.pkg, p.param, resp)
		}
		if err != nil {
			proc.kill()
			return nil, nil, fmt.Errorf("the Terraform provider %s: %w", p.param.Source, err)
		}
		p.schemas.put(p.exe, s)
	}
	p.proc, p.schema = proc, s
	return proc, s, nil
}

// GetSchema implements provider.Provider: the provider's schema as a
// package schema (see buildSchema), from the cache when it has it.
func (p *Provider) GetSchema(ctx context.Context, _ provider.GetSchemaRequest) ([]byte, error) {
	p.mu.Lock()
	s := p.schemas.get(p.exe)
	p.mu.Unlock()
	if s == nil {
		var err error
		if _, s, err = p.ready(ctx); err != nil {
			return nil, err
		}
	}
	return s.pkg, nil
}

// CheckConfig implements provider.Provider with ValidateProviderConfig
// (PrepareProviderConfig in protocol 5, whose prepared configuration
// Terraform ignores, and so does Cairn).
func (p *Provider) CheckConfig(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	proc, s, err := p.ready(ctx)
	if err != nil {
		return provider.CheckResponse{}, err
	}
	cfg, _, err := configValue(s.provider, req.News)
	if err != nil {
		return provider.CheckResponse{Failures: failure(err)}, nil
	}
	dv, err := encode(cfg, s.provider.ty)
	if err != nil {
		return provider.CheckResponse{}, err
	}
	resp, err := proc.rpc.ValidateProviderConfig(ctx, &tfplugin6.ValidateProviderConfig_Request{Config: dv})
	if err != nil {
		return provider.CheckResponse{}, p.rpcError("ValidateProviderConfig", err)
	}
	return provider.CheckResponse{Inputs: req.News, Failures: p.failures(resp.GetDiagnostics(), req.URN)}, nil
}

// DiffConfig implements provider.Provider: Terraform never replaces
// resources for a change of provider configuration, so the engine diffs
// it and updates.
func (p *Provider) DiffConfig(context.Context, provider.DiffRequest) (provider.DiffResponse, error) {
	return provider.DiffResponse{Changes: provider.DiffUnknown}, nil
}

// Configure implements provider.Provider with ConfigureProvider; during a
// preview the configuration may hold unknowns, as during a Terraform plan.
func (p *Provider) Configure(ctx context.Context, req provider.ConfigureRequest) (provider.ConfigureResponse, error) {
	proc, s, err := p.ready(ctx)
	if err != nil {
		return provider.ConfigureResponse{}, err
	}
	cfg, _, err := configValue(s.provider, req.Inputs)
	if err != nil {
		return provider.ConfigureResponse{}, fmt.Errorf("configuring the %s provider: %w", p.pkg, err)
	}
	dv, err := encode(cfg, s.provider.ty)
	if err != nil {
		return provider.ConfigureResponse{}, err
	}
	resp, err := proc.rpc.ConfigureProvider(ctx, &tfplugin6.ConfigureProvider_Request{TerraformVersion: terraformVersion, Config: dv,
		ClientCapabilities: &tfplugin6.ClientCapabilities{WriteOnlyAttributesAllowed: true}})
	if err != nil {
		return provider.ConfigureResponse{}, p.rpcError("ConfigureProvider", err)
	}
	if err := p.diagnose(resp.GetDiagnostics(), "configuring the provider"); err != nil {
		return provider.ConfigureResponse{}, err
	}
	return provider.ConfigureResponse{AcceptSecrets: true, SupportsPreview: true}, nil
}

// SignalCancellation implements provider.Provider with StopProvider, which
// asks the provider to stop what it is doing; operations in flight finish.
func (p *Provider) SignalCancellation(ctx context.Context) error {
	p.mu.Lock()
	proc := p.proc
	p.mu.Unlock()
	if proc == nil {
		return nil
	}
	resp, err := proc.rpc.StopProvider(ctx, &tfplugin6.StopProvider_Request{})
	if err != nil {
		return p.rpcError("StopProvider", err)
	}
	if resp.GetError() != "" {
		return errors.New(resp.GetError())
	}
	return nil
}

// Close implements provider.Provider: it shuts the provider down.
func (p *Provider) Close() error {
	p.mu.Lock()
	proc := p.proc
	p.proc = nil
	p.mu.Unlock()
	if proc != nil {
		proc.kill()
	}
	return nil
}

// schemaCache keeps providers' schemas by binary.
type schemaCache struct {
	mu sync.Mutex
	m  map[string]*providerSchema
}

func (c *schemaCache) get(exe string) *providerSchema {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[exe]
}

func (c *schemaCache) put(exe string, s *providerSchema) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[exe] = s
}

// providerSchema is a provider's schema, typed, by Cairn's tokens.
type providerSchema struct {
	resp      *tfplugin6.GetProviderSchema_Response
	pkg       []byte // the package schema
	provider  *typed
	resources map[string]*typed // by token
	data      map[string]*typed
	functions map[string]string // function names by token
}

// typed is the schema of a resource type, data source or provider
// configuration with its implied type.
type typed struct {
	name    string // Terraform's
	version int64
	block   *block
	ty      cty.Type
}

func newTyped(name string, s *tfplugin6.Schema) (*typed, error) {
	b := s.GetBlock()
	if b == nil {
		b = &block{}
	}
	ty, err := blockType(b)
	if err != nil {
		return nil, fmt.Errorf("the schema of %s: %w", name, err)
	}
	return &typed{name: name, version: s.GetVersion(), block: b, ty: ty}, nil
}

func newProviderSchema(pkg string, param *parameter, resp *tfplugin6.GetProviderSchema_Response) (*providerSchema, error) {
	s := &providerSchema{resp: resp, resources: map[string]*typed{}, data: map[string]*typed{}, functions: map[string]string{}}
	var err error
	if s.provider, err = newTyped("the provider configuration", resp.GetProvider()); err != nil {
		return nil, err
	}
	for name, rs := range resp.GetResourceSchemas() {
		if s.resources[resourceToken(pkg, name)], err = newTyped(name, rs); err != nil {
			return nil, err
		}
	}
	for name, ds := range resp.GetDataSourceSchemas() {
		if s.data[dataToken(pkg, name)], err = newTyped(name, ds); err != nil {
			return nil, err
		}
	}
	for name := range resp.GetFunctions() {
		s.functions[functionToken(pkg, name)] = name
	}
	value, err := json.Marshal(param)
	if err != nil {
		return nil, err
	}
	ps := packageSchema{Package: buildSchema(pkg, param.Version, param.Source, resp), Parameterization: &parameterization{Parameter: value}}
	ps.Parameterization.BaseProvider.Name, ps.Parameterization.BaseProvider.Version = Name, Version
	if s.pkg, err = json.Marshal(ps); err != nil {
		return nil, err
	}
	return s, nil
}
