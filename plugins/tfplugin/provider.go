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
	// CairnVersion is Cairn's version, which kept schemas are read by
	// (see schemaCache).
	CairnVersion string
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
	schemas := &schemaCache{dir: o.SchemaDir, version: o.CairnVersion, m: map[string]*providerSchema{}}
	in := &installs{opts: o.Install, m: map[tfinstall.Request]*installation{}}
	answers := &memo{m: map[[sha256.Size]byte]proto.Message{}}
	return provider.Factory{Pkg: Name, Version: Version, New: func(context.Context) (provider.Provider, error) {
		closing, stop := context.WithCancel(context.Background())
		return &Provider{opts: o, installs: in, schemas: schemas, memo: answers, closing: closing, stop: stop}, nil
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
// configured with what Configure was given. Its lock is never held during
// a call to the provider: the callers that need it started or configured
// share one start or configuration (see share).
type Provider struct {
	provider.Unimplemented
	opts     Options
	installs *installs
	schemas  *schemaCache
	memo     *memo

	// log is the log of the provider it serves, set by Parameterize.
	log *slog.Logger

	mu    sync.Mutex
	param *parameter
	pkg   string // the package it serves: the provider's type name
	exe   string
	hash  string // the package's h1: hash
	proc  *process
	// mocked answers instead of proc when a test mocks the
	// configuration Configure was given (see Mocks.provider).
	mocked *process
	schema *providerSchema
	// config is the configuration Configure was given, until the
	// provider is configured with it.
	config *tfplugin6.DynamicValue
	// configured is that configuration's msgpack form, which answers the
	// provider gives once configured depend on.
	configured []byte
	// starting and configuring are the start and the configuration in
	// flight.
	starting, configuring *flight
	// closed is set by Close, after which the provider is not started
	// again; closing ends then, and with it a start in flight.
	closed  bool
	closing context.Context
	stop    context.CancelFunc

	ephemerals  ephemerals
	writeOnly   writeOnly
	unvalidated unvalidated
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
	param := p.param
	p.mu.Unlock()
	if param == nil {
		return nil, p.unparameterized()
	}
	if s := p.kept(); s != nil {
		return s, nil
	}
	if _, err := p.started(ctx); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.schema, nil
}

// kept returns the schema known without starting the provider: the one
// read already, else the one kept for its package; nil when there is
// none. (Calls that need a schema follow Parameterize, which set p.exe,
// p.hash, p.pkg and p.param: they are read without the lock.)
func (p *Provider) kept() *providerSchema {
	p.mu.Lock()
	s := p.schema
	p.mu.Unlock()
	if s != nil {
		return s
	}
	s = p.schemas.get(p.exe, p.hash, p.pkg, p.param)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.schema == nil {
		p.schema = s
	}
	return p.schema
}

func (p *Provider) unparameterized() error {
	return fmt.Errorf("%s serves no Terraform provider until it is parameterized with one", Name)
}

// flight is a start or configuration of the provider that callers share:
// they wait for done, then read err.
type flight struct {
	done chan struct{}
	err  error
	// cancelled says the caller that ran it gave up: err is its
	// context's, and the next caller tries again.
	cancelled bool
}

// share brings the provider to the state done reports (with p.mu held):
// it runs do, unless a caller runs it already (*flying is its flight),
// and then waits for that caller. A caller whose ctx ends gets its
// context's error, and the callers that waited for it try again; the
// error of a flight that failed otherwise is every waiting caller's, and
// the next caller tries again. Nothing is kept of a flight that failed.
func (p *Provider) share(ctx context.Context, flying **flight, done func() bool, do func(context.Context) error) error {
	for {
		p.mu.Lock()
		if done() {
			p.mu.Unlock()
			return nil
		}
		if f := *flying; f != nil {
			p.mu.Unlock()
			select {
			case <-f.done:
			case <-ctx.Done():
				return ctx.Err()
			}
			if f.err != nil && !f.cancelled {
				return f.err
			}
			continue
		}
		f := &flight{done: make(chan struct{})}
		*flying = f
		p.mu.Unlock()
		f.err = do(ctx)
		if f.err != nil && ctx.Err() != nil {
			f.err, f.cancelled = ctx.Err(), true
		}
		p.mu.Lock()
		*flying = nil
		p.mu.Unlock()
		close(f.done)
		return f.err
	}
}

// started returns the running provider, starting it first.
func (p *Provider) started(ctx context.Context) (*process, error) {
	if err := p.share(ctx, &p.starting, func() bool { return p.proc != nil || p.closed }, p.start); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.proc == nil {
		return nil, p.closedError()
	}
	return p.proc, nil
}

func (p *Provider) closedError() error {
	return fmt.Errorf("the Terraform provider %s was shut down", p.param.Source)
}

// start starts the provider and reads its schema; Close ends a start in
// flight.
func (p *Provider) start(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(p.closing, cancel)()
	mocks, err := loadMocks()
	if err != nil {
		return err
	}
	mock := mocks.Providers[p.pkg]
	var proc *process
	if s := p.kept(); mock == nil || s == nil {
		if proc, err = start(ctx, p.exe, p.opts); err != nil {
			return err
		}
	} else {
		proc = mockProcess(s, mock.Resources, mock.Data)
	}
	s, err := p.readSchema(ctx, proc)
	if mock != nil && proc.client != nil {
		// A mocked provider runs only to give its schema.
		proc.kill()
		if err == nil {
			proc = mockProcess(s, mock.Resources, mock.Data)
		}
	}
	p.mu.Lock()
	closed := p.closed
	if err == nil && !closed {
		p.proc, p.schema = proc, s
	}
	p.mu.Unlock()
	if err == nil && !closed {
		return nil
	}
	proc.kill()
	if closed {
		return p.closedError()
	}
	return err
}

// readSchema returns the schema of the provider proc runs. A provider that
// does not declare its schema optional is asked for it in each process,
// as Terraform does; the answer is read once per binary.
func (p *Provider) readSchema(ctx context.Context, proc *process) (*providerSchema, error) {
	s := p.kept()
	if s != nil && s.resp.GetServerCapabilities().GetGetProviderSchemaOptional() {
		return s, nil
	}
	resp, err := proc.rpc.GetProviderSchema(ctx, &tfplugin6.GetProviderSchema_Request{})
	if err == nil {
		err = p.diagnose(resp.GetDiagnostics(), "reading its schema")
	}
	if err == nil && s == nil {
		if s, err = newProviderSchema(p.pkg, p.param, resp); err == nil {
			p.schemas.put(p.exe, p.hash, proc.version, s)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("the Terraform provider %s: %w", p.param.Source, err)
	}
	return s, nil
}

// ready returns the running provider, configured with what Configure was
// given, and its schema.
func (p *Provider) ready(ctx context.Context) (*process, *providerSchema, error) {
	p.mu.Lock()
	param := p.param
	p.mu.Unlock()
	if param == nil {
		return nil, nil, p.unparameterized()
	}
	proc, err := p.started(ctx)
	if err != nil {
		return nil, nil, err
	}
	p.mu.Lock()
	mocked, s := p.mocked, p.schema
	p.mu.Unlock()
	if mocked != nil {
		return mocked, s, nil
	}
	err = p.share(ctx, &p.configuring, func() bool { return p.config == nil }, func(ctx context.Context) error { return p.configure(ctx, proc) })
	if err != nil {
		return nil, nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return proc, p.schema, nil
}

// configure configures the provider proc runs with what Configure was
// given.
func (p *Provider) configure(ctx context.Context, proc *process) error {
	p.mu.Lock()
	cfg := p.config
	p.mu.Unlock()
	resp, err := proc.rpc.ConfigureProvider(ctx, &tfplugin6.ConfigureProvider_Request{TerraformVersion: terraformVersion, Config: cfg,
		ClientCapabilities: &tfplugin6.ClientCapabilities{WriteOnlyAttributesAllowed: true}})
	if err != nil {
		return p.rpcError("ConfigureProvider", err)
	}
	if err := p.diagnose(resp.GetDiagnostics(), fmt.Sprintf("configuring the %s provider", p.pkg)); err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.config == cfg {
		p.config = nil
	}
	return nil
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
	mocks, err := loadMocks()
	if err != nil {
		return provider.CheckResponse{}, err
	}
	// A mock's configuration is valid, whatever it holds.
	if (req.Olds != nil && req.Olds.Equal(req.News)) || mocks.provider(p.pkg, req.URN) != nil {
		return provider.CheckResponse{Inputs: req.News}, nil
	}
	dv, err := encode(cfg, s.provider.ty)
	if err != nil {
		return provider.CheckResponse{}, err
	}
	proc, err := p.started(ctx)
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
	mocks, err := loadMocks()
	if err != nil {
		return provider.ConfigureResponse{}, err
	}
	p.mu.Lock()
	p.config, p.configured = dv, dv.GetMsgpack()
	if mock := mocks.provider(p.pkg, req.URN); mock != nil {
		p.mocked = mockProcess(s, mock.Resources, mock.Data)
	}
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
// still open, and shuts the provider down, or ends its start in flight.
func (p *Provider) Close() error {
	p.mu.Lock()
	proc := p.proc
	p.proc, p.closed = nil, true
	p.mu.Unlock()
	p.stop()
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
