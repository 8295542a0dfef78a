package tfplugin

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/proto"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/plugins/tfaddr"
	"github.com/cairn-iac/cairn/plugins/tfinstall"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
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
	// SchemaDir, when set, keeps providers' schemas by package hash, so
	// that a command that makes no provider call starts no provider.
	SchemaDir string
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
// share the packages they install, the schemas they read, one per
// provider binary, and the answers they keep (see memo).
func Factory(o Options) provider.Factory {
	schemas := &schemaCache{dir: o.SchemaDir, m: map[string]*providerSchema{}}
	in := &installs{opts: o.Install, m: map[tfinstall.Request]*installation{}}
	answers := &memo{m: map[[sha256.Size]byte]proto.Message{}}
	return provider.Factory{Pkg: Name, Version: Version, New: func(context.Context) (provider.Provider, error) {
		return &Provider{opts: o, installs: in, schemas: schemas, memo: answers}, nil
	}}
}

// parameter is the value a Provider is parameterized with, as JSON: the
// Terraform provider's fully qualified source address and version.
type parameter struct {
	Source  string `json:"source"`
	Version string `json:"version"`
}

// parameterOf reads a parameterization value: Cairn's, or the one Pulumi's
// terraform-provider records and the SDKs generated for it carry
// ({"remote": {"url": SOURCE, "version": VERSION}}).
func parameterOf(value []byte) (parameter, bool) {
	var v struct {
		parameter
		Remote *struct {
			URL     string `json:"url"`
			Version string `json:"version"`
		} `json:"remote"`
	}
	if json.Unmarshal(value, &v) != nil {
		return parameter{}, false
	}
	if v.Remote != nil {
		v.Source, v.Version = v.Remote.URL, v.Remote.Version
	}
	return v.parameter, v.Source != ""
}

// Provider is a provider.Provider served by a Terraform provider plugin,
// started when a call first needs it once Parameterize named it, and then
// configured with what Configure was given.
type Provider struct {
	provider.Unimplemented
	opts     Options
	installs *installs
	schemas  *schemaCache
	memo     *memo

	// log is the log of the provider it serves, set by Parameterize.
	log *slog.Logger

	mu     sync.Mutex
	param  *parameter
	pkg    string // the package it serves: the provider's type name
	exe    string
	hash   string // the package's h1: hash
	proc   *process
	schema *providerSchema
	// config is the configuration Configure was given, until the
	// provider is configured with it.
	config *tfplugin6.DynamicValue
	// configured is that configuration's msgpack form, which answers the
	// provider gives once configured depend on.
	configured []byte
	// failed is why the provider could not be started or configured: it
	// is not tried again.
	failed error

	ephemerals ephemerals
	writeOnly  writeOnly
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
		v, ok := parameterOf(req.Value)
		if !ok {
			return provider.ParameterizeResponse{}, fmt.Errorf("%s: the parameterization %q does not name a Terraform provider", Name, req.Value)
		}
		want.Source, want.Version = v.Source, v.Version
	}
	addr, err := tfaddr.ParseProvider(want.Source)
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
	p.param, p.pkg, p.exe, p.hash = &parameter{Source: pkg.Source, Version: version}, addr.Type, pkg.Executable, pkg.Hash
	p.log = p.opts.log().With("provider", pkg.Source)
	return provider.ParameterizeResponse{Name: addr.Type, Version: version}, nil
}

// loadSchema returns the provider's schema: the one kept for its package,
// else the one it gives once started.
func (p *Provider) loadSchema(ctx context.Context) (*providerSchema, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.param == nil {
		return nil, p.unparameterized()
	}
	if p.schema == nil {
		p.schema = p.schemas.get(p.exe, p.hash, p.pkg, p.param)
	}
	if p.schema == nil {
		if _, err := p.started(ctx); err != nil {
			return nil, err
		}
	}
	return p.schema, nil
}

func (p *Provider) unparameterized() error {
	return fmt.Errorf("%s serves no Terraform provider until it is parameterized with one", Name)
}

// started returns the running provider, starting it first; p.mu is held.
// A provider that does not declare its schema optional is asked for it in
// each process, as Terraform does; the answer is read once per binary.
func (p *Provider) started(ctx context.Context) (*process, error) {
	if p.proc != nil || p.failed != nil {
		return p.proc, p.failed
	}
	proc, err := start(p.exe, p.opts)
	if err != nil {
		p.failed = err
		return nil, err
	}
	if p.schema == nil {
		p.schema = p.schemas.get(p.exe, p.hash, p.pkg, p.param)
	}
	if s := p.schema; s == nil || !s.resp.GetServerCapabilities().GetGetProviderSchemaOptional() {
		resp, err := proc.rpc.GetProviderSchema(ctx, &tfplugin6.GetProviderSchema_Request{})
		if err == nil {
			err = p.diagnose(resp.GetDiagnostics(), "reading its schema")
		}
		if err == nil && s == nil {
			if s, err = newProviderSchema(p.pkg, p.param, resp); err == nil {
				p.schemas.put(p.exe, p.hash, s)
				p.schema = s
			}
		}
		if err != nil {
			proc.kill()
			p.failed = fmt.Errorf("the Terraform provider %s: %w", p.param.Source, err)
			return nil, p.failed
		}
	}
	p.proc = proc
	return proc, nil
}

// ready returns the running provider, configured with what Configure was
// given, and its schema.
func (p *Provider) ready(ctx context.Context) (*process, *providerSchema, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.param == nil {
		return nil, nil, p.unparameterized()
	}
	proc, err := p.started(ctx)
	if err != nil {
		return nil, nil, err
	}
	if p.config != nil {
		resp, err := proc.rpc.ConfigureProvider(ctx, &tfplugin6.ConfigureProvider_Request{TerraformVersion: terraformVersion, Config: p.config,
			ClientCapabilities: &tfplugin6.ClientCapabilities{WriteOnlyAttributesAllowed: true}})
		if err != nil {
			err = p.rpcError("ConfigureProvider", err)
		} else {
			err = p.diagnose(resp.GetDiagnostics(), fmt.Sprintf("configuring the %s provider", p.pkg))
		}
		if err != nil {
			p.failed = err
			return nil, nil, err
		}
		p.config = nil
	}
	return proc, p.schema, nil
}

// configuration returns the msgpack form of what Configure was given.
func (p *Provider) configuration() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.configured
}

// GetSchema implements provider.Provider: the provider's schema as a
// package schema (see buildSchema).
func (p *Provider) GetSchema(ctx context.Context, _ provider.GetSchemaRequest) ([]byte, error) {
	s, err := p.loadSchema(ctx)
	if err != nil {
		return nil, err
	}
	return s.pkg, nil
}

// CheckConfig implements provider.Provider with ValidateProviderConfig
// (PrepareProviderConfig in protocol 5, whose prepared configuration
// Terraform ignores, and so does Cairn). A configuration the same as the
// one recorded was checked then, and is not sent again.
func (p *Provider) CheckConfig(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	s, err := p.loadSchema(ctx)
	if err != nil {
		return provider.CheckResponse{}, err
	}
	cfg, _, err := configValue(s.provider, req.News)
	if err != nil {
		return provider.CheckResponse{Failures: failure(err)}, nil
	}
	if req.Olds != nil && req.Olds.Equal(req.News) {
		return provider.CheckResponse{Inputs: req.News}, nil
	}
	dv, err := encode(cfg, s.provider.ty)
	if err != nil {
		return provider.CheckResponse{}, err
	}
	p.mu.Lock()
	proc, err := p.started(ctx)
	p.mu.Unlock()
	if err != nil {
		return provider.CheckResponse{}, err
	}
	resp, err := proc.rpc.ValidateProviderConfig(ctx, &tfplugin6.ValidateProviderConfig_Request{Config: dv})
	if err != nil {
		return provider.CheckResponse{}, p.rpcError("ValidateProviderConfig", err)
	}
	return provider.CheckResponse{Inputs: req.News, Failures: p.failures(resp.GetDiagnostics(), req.URN)}, nil
}

// DiffConfig implements provider.Provider: no change, as Terraform keeps
// no provider configuration and its plans never show one. The engine
// records the new configuration all the same (a same step), and the
// provider is configured with it. An ephemeral value in a configuration,
// new in each operation, so changes nothing.
func (p *Provider) DiffConfig(context.Context, provider.DiffRequest) (provider.DiffResponse, error) {
	return provider.DiffResponse{Changes: provider.DiffNone}, nil
}

// Configure implements provider.Provider with ConfigureProvider, called
// when the provider is first needed: during a preview the configuration
// may hold unknowns, as during a Terraform plan.
func (p *Provider) Configure(ctx context.Context, req provider.ConfigureRequest) (provider.ConfigureResponse, error) {
	s, err := p.loadSchema(ctx)
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
	p.mu.Lock()
	p.config, p.configured = dv, dv.GetMsgpack()
	p.mu.Unlock()
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

// Close implements provider.Provider: it closes the ephemeral resources
// still open, and shuts the provider down.
func (p *Provider) Close() error {
	p.mu.Lock()
	proc := p.proc
	p.proc = nil
	p.mu.Unlock()
	if proc != nil {
		p.closeEphemerals(proc)
		proc.kill()
	}
	return nil
}

// providerSchema is a provider's schema, typed, by Cairn's tokens.
type providerSchema struct {
	resp      *tfplugin6.GetProviderSchema_Response
	pkg       []byte // the package schema
	provider  *typed
	resources map[string]*typed // by token
	data      map[string]*typed
	ephemeral map[string]*typed
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
	s := &providerSchema{resp: resp, resources: map[string]*typed{}, data: map[string]*typed{}, ephemeral: map[string]*typed{}, functions: map[string]string{}}
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
	for name, es := range resp.GetEphemeralResourceSchemas() {
		if s.ephemeral[ephemeralToken(pkg, name)], err = newTyped(name, es); err != nil {
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
