package host

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/internal/enginesvc"
	"github.com/cairn-iac/cairn/internal/launch"
	"github.com/cairn-iac/cairn/internal/locate"
	"github.com/cairn-iac/cairn/plugins/install"
)

// ResolverOptions say where providers come from.
type ResolverOptions struct {
	// Options say how plugins are launched and called.
	Options
	// Project lists the project file's `plugins: providers:` entries. An
	// entry with a path serves its package whatever version is asked for;
	// one without a path pins the version found on disk.
	Project []workspace.PluginRef
	// Packages are the project file's `packages:`, served by parameterized
	// providers.
	Packages map[string]workspace.PackageSpec
	// Builtins are the providers compiled into Cairn.
	Builtins provider.Factories
	// Dirs are where plugin binaries are looked for.
	Dirs locate.Dirs
	// Isolate lists the packages whose built-in providers run in a child
	// process ("*" means all of them).
	Isolate []string
	// ServeCommand returns the command that serves the built-in provider of
	// pkg as a plugin; nil means the running binary with
	// "plugin serve <pkg>".
	ServeCommand func(pkg string) []string
	// SchemaCache, when set, is the folder where the schemas of plugins of
	// known versions are kept, e.g. $CAIRN_HOME/schemas.
	SchemaCache string
	// Install, when set, installs the plugins asked for at a version that
	// none on disk has (Pulumi's automatic plugin acquisition).
	Install *install.Installer
	// Diag receives the messages plugins log to the engine service; nil
	// drops them.
	Diag func(deploy.DiagEvent)
}

// Resolver is the provider.Host of a Cairn run: it decides which
// implementation serves each package and launches plugins as needed.
type Resolver struct {
	opts ResolverOptions

	mu      sync.Mutex
	engine  *launch.Server
	plugins map[*Plugin]bool
	// idle holds a plugin closed after it was only asked for its schema,
	// by package and version asked for: the next Load of them takes it
	// instead of starting another process.
	idle map[string]*Plugin
	// failed holds, by package and version asked for, why a plugin could
	// not be started: the next Load of them fails the same way at once
	// instead of paying a start timeout again.
	failed map[string]error
	// declared holds the packages a program declared (AddPackage), not
	// the project file.
	declared map[string]bool
	closed   bool
}

var (
	_ provider.EnvHost      = (*Resolver)(nil)
	_ provider.DownloadHost = (*Resolver)(nil)
	_ provider.SchemaHost   = (*Resolver)(nil)
)

// NewResolver returns a resolver; Close shuts down what it starts.
func NewResolver(opts ResolverOptions) *Resolver {
	return &Resolver{opts: opts, plugins: map[*Plugin]bool{}, idle: map[string]*Plugin{}, failed: map[string]error{}, declared: map[string]bool{}}
}

// Load implements provider.Host.
func (r *Resolver) Load(ctx context.Context, pkg, version string) (provider.Provider, error) {
	return r.load(ctx, pkg, version, "", nil)
}

// LoadFrom implements provider.DownloadHost: a plugin missing from disk is
// installed from url ("" means Pulumi's release locations).
func (r *Resolver) LoadFrom(ctx context.Context, pkg, version, url string) (provider.Provider, error) {
	return r.load(ctx, pkg, version, url, nil)
}

// LoadWithEnv implements provider.EnvHost: the provider runs as a plugin
// process, Cairn's own providers too, with the variables of mappings
// renamed in its environment.
func (r *Resolver) LoadWithEnv(ctx context.Context, pkg, version string, mappings map[string]string) (provider.Provider, error) {
	env := make([]string, 0, len(mappings))
	for from, to := range mappings {
		if v, ok := os.LookupEnv(from); ok {
			env = append(env, to+"="+v)
		}
	}
	slices.Sort(env)
	return r.load(ctx, pkg, version, "", env)
}

// load loads the provider of pkg at version, installing it from url when
// it is missing; a non-nil env (added to the plugin's environment) makes it
// a process of its own.
func (r *Resolver) load(ctx context.Context, pkg, version, url string, env []string) (provider.Provider, error) {
	if spec, ok := r.packageSpec(pkg); ok {
		return r.loadPackage(ctx, pkg, spec, env)
	}
	res, ok := r.resolve(pkg, version)
	if !ok || r.installable(res, version) {
		var err error
		if res, err = r.acquire(ctx, pkg, version, url); err != nil {
			return nil, err
		}
	}
	if res.Source == SourceBuiltin && !res.Isolated && env == nil {
		return res.factory.New(ctx)
	}
	key := pkg + "@" + version + "\x00" + strings.Join(env, "\x00")
	if p := r.takeIdle(key); p != nil {
		return p, nil
	}
	if err := r.failure(key); err != nil {
		return nil, err
	}
	o, err := r.launchOptions()
	if err != nil {
		return nil, err
	}
	o.Env = env
	var p *Plugin
	if res.Source == SourceBuiltin {
		var inst provider.Provider
		inst, err = Isolate(res.factory, r.serveCommand(pkg), o).New(ctx)
		p, _ = inst.(*Plugin)
	} else {
		p, err = Launch(ctx, pkg, []string{res.Path}, o)
	}
	if err != nil {
		err = fmt.Errorf("loading the provider of package %q from %s: %w", pkg, res.describe(), err)
		if ctx.Err() == nil {
			r.mu.Lock()
			r.failed[key] = err
			r.mu.Unlock()
		}
		return nil, err
	}
	r.track(p, key)
	return p, nil
}

// installable reports whether a plugin resolved for a version asked for is
// another version while automatic installation is on: Pulumi then installs
// the version asked for rather than use a newer one. Without automatic
// installation the newest compatible version serves, as the seeds say.
func (r *Resolver) installable(res Resolution, version string) bool {
	v := strings.TrimPrefix(r.pinned(res.Pkg, version), "v")
	return r.opts.Install != nil && res.Source == SourcePlugin && res.Version != "" && v != "" && res.Version != v
}

// acquire installs the plugin of pkg at the version asked for (or pinned by
// the project) and resolves to it.
func (r *Resolver) acquire(ctx context.Context, pkg, version, url string) (Resolution, error) {
	version = r.pinned(pkg, version)
	if r.opts.Install == nil || version == "" {
		return Resolution{}, &provider.NotFoundError{Pkg: pkg, Version: version}
	}
	spec := install.Spec{Kind: locate.Resource, Name: pkg, Version: strings.TrimPrefix(version, "v"), Server: url}
	if _, err := r.opts.Install.Ensure(ctx, r.opts.Dirs, spec); err != nil {
		return Resolution{}, fmt.Errorf("the provider of package %q is not installed, and installing it failed: %w", pkg, err)
	}
	if res, ok := r.resolve(pkg, version); ok {
		return res, nil
	}
	return Resolution{}, &provider.NotFoundError{Pkg: pkg, Version: version}
}

// takeIdle returns the idle plugin of key, if it is still running.
func (r *Resolver) takeIdle(key string) *Plugin {
	r.mu.Lock()
	p := r.idle[key]
	delete(r.idle, key)
	r.mu.Unlock()
	if p == nil {
		return nil
	}
	select {
	case <-p.proc.Done():
		_ = p.Close()
		return nil
	default:
		return p
	}
}

// failure returns why the plugin of key could not be started, if it could not.
func (r *Resolver) failure(key string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.failed[key]
}

// launchOptions returns the options plugins are launched with, starting the
// engine service they log to on first use.
func (r *Resolver) launchOptions() (Options, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return Options{}, fmt.Errorf("the plugin host is closed")
	}
	o := r.opts.Options
	if o.EngineAddress != "" {
		return o, nil
	}
	if r.engine == nil {
		srv, err := launch.Listen(func(s *grpc.Server) {
			enginesvc.Register(s, enginesvc.Options{Diag: r.opts.Diag})
		})
		if err != nil {
			return Options{}, fmt.Errorf("serving the engine service for plugins: %w", err)
		}
		r.engine = srv
	}
	o.EngineAddress = r.engine.Addr()
	return o, nil
}

// track keeps p until it is closed; closed while reusable, it is kept
// idle under key.
func (r *Resolver) track(p *Plugin, key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.plugins[p] = true
	p.release = func(p *Plugin) bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		if !r.closed && r.idle[key] == nil && !p.used.Load() {
			r.idle[key] = p
			return true
		}
		delete(r.plugins, p)
		return false
	}
}

func (r *Resolver) serveCommand(pkg string) []string {
	if r.opts.ServeCommand != nil {
		return r.opts.ServeCommand(pkg)
	}
	self, err := os.Executable()
	if err != nil {
		self = os.Args[0]
	}
	return []string{self, "plugin", "serve", pkg}
}

func (r *Resolver) isolated(pkg string) bool {
	return slices.Contains(r.opts.Isolate, pkg) || slices.Contains(r.opts.Isolate, "*")
}

// Close shuts down every plugin still running and the engine service.
func (r *Resolver) Close() error {
	r.mu.Lock()
	r.closed = true
	plugins := make([]*Plugin, 0, len(r.plugins))
	for p := range r.plugins {
		plugins = append(plugins, p)
	}
	engine := r.engine
	r.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range plugins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = p.Close()
		}()
	}
	wg.Wait()
	if engine != nil {
		engine.Stop(time.Second)
	}
	return nil
}
