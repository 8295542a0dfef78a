package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/internal/locate"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
	"github.com/cairn-iac/cairn/lang/yaml"
	"github.com/cairn-iac/cairn/plugins/builtin"
	"github.com/cairn-iac/cairn/plugins/command"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/install"
	"github.com/cairn-iac/cairn/plugins/langhost"
	"github.com/cairn-iac/cairn/plugins/random"
	"github.com/cairn-iac/cairn/plugins/tfbuiltin"
	"github.com/cairn-iac/cairn/plugins/tfinstall"
	"github.com/cairn-iac/cairn/plugins/tfplugin"
)

// builtins are the providers compiled into Cairn (Terraform's built-in
// provider, of terraform_data, among them); stacks serves stack
// references (nil outside a project); diag gets what provisioners print
// (nil: nothing does). Terraform providers run in the
// project's folder, start within CAIRN_PLUGIN_START_TIMEOUT and log to the
// plugin log; they are installed into $CAIRN_HOME/plugins/terraform and
// locked in the project's .terraform.lock.hcl, and only from folders when
// automatic plugin acquisition is disabled; their schemas are kept in
// $CAIRN_HOME/schemas/terraform, by package, protocol and Cairn version.
func (s *session) builtins(stacks builtin.StackReader, diag func(deploy.DiagEvent)) provider.Factories {
	start, _ := pluginStartTimeout() // a bad value is reported where plugins start
	tf := tfplugin.Options{Log: s.pluginLog(), Dir: s.cwd, StartTimeout: start, SchemaDir: s.terraformSchemas(), CairnVersion: buildVersion()}
	if s.project != nil {
		tf.Dir = s.project.Dir
	}
	tf.Install = tfinstall.Options{
		ProjectDir: tf.Dir,
		CacheDir:   filepath.Join(s.home, "plugins", "terraform"),
		Log:        func(format string, args ...any) { fmt.Fprintf(s.stderr, format+"\n", args...) },
		Offline:    !acquirePlugins(),
	}
	return provider.Factories{builtin.Factory(builtin.Options{Stacks: stacks}), random.Factory(), command.Factory(), tfplugin.Factory(tf), tfbuiltin.Factory(tf.Dir, diag)}
}

// schemaCache is the folder keeping the schemas of plugins, and
// terraformSchemas the one keeping those of Terraform providers.
func (s *session) schemaCache() string      { return filepath.Join(s.home, "schemas") }
func (s *session) terraformSchemas() string { return filepath.Join(s.schemaCache(), "terraform") }

// modules installs the modules Terraform configurations call into the
// project's .terraform/modules, as Terraform does, recording them in its
// manifest; only those installed already are used when automatic plugin
// acquisition is disabled.
func (s *session) modules() (*tfinstall.Modules, error) {
	return tfinstall.NewModules(tfinstall.ModuleOptions{
		Dir:     s.project.Dir,
		Log:     func(format string, args ...any) { fmt.Fprintf(s.stderr, format+"\n", args...) },
		Offline: !acquirePlugins(),
	})
}

// isolated lists the packages whose built-in providers run as plugin
// processes: --provider-isolation, comma-separated, "*" for all.
func (s *session) isolated() []string {
	var out []string
	for _, p := range strings.Split(global(s.c, "provider-isolation"), ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// diagRelay forwards what plugins and programs log to the display of the
// engine run under way; what comes before the first display waits for it.
type diagRelay struct {
	mu      sync.Mutex
	to      func(deploy.Event)
	pending []deploy.Event
}

func (r *diagRelay) set(to func(deploy.Event)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.to = to
	if to != nil {
		for _, e := range r.pending {
			to(e)
		}
		r.pending = nil
	}
}

func (r *diagRelay) diag(e deploy.DiagEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.to == nil {
		r.pending = append(r.pending, e)
		return
	}
	r.to(e)
}

// providerHost resolves packages to providers: the project's pinned plugins,
// then the built-in providers, then plugins found on disk.
func (s *session) providerHost(sm secrets.Manager, relay *diagRelay) (*host.Resolver, error) {
	start, err := pluginStartTimeout()
	if err != nil {
		return nil, err
	}
	o := host.Options{Log: s.pluginLog(), StartTimeout: start}
	if s.project != nil {
		o.RootDirectory, o.ProgramDirectory = s.project.Dir, s.project.ProgramDir()
	}
	var project []workspace.PluginRef
	var packages map[string]workspace.PackageSpec
	if s.project != nil {
		project, packages = s.project.Plugins.Providers, s.project.Packages
	}
	opts := host.ResolverOptions{
		Options: o, Project: project, Packages: packages, Builtins: s.builtins(&stackReader{s: s, sm: sm}, relay.diag),
		Dirs: locate.DefaultDirs(), Isolate: s.isolated(), Diag: relay.diag,
		SchemaCache: s.schemaCache(),
	}
	if s.project != nil {
		opts.Dirs.Path = append(opts.Dirs.Path, langhost.ProviderDirs(s.project.Runtime, s.project.ProgramDir())...)
	}
	if acquirePlugins() {
		if opts.Install, err = s.installer(); err != nil {
			return nil, err
		}
	}
	return host.NewResolver(opts), nil
}

// installer installs plugins into $CAIRN_HOME/plugins, with the URL
// overrides of CAIRN_PLUGIN_DOWNLOAD_URL_OVERRIDES (or Pulumi's
// PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES), GITHUB_TOKEN for api.github.com
// and the GitHub Enterprise hosts of CAIRN_GITHUB_HOSTS (comma-separated),
// and a progress bar on a terminal.
func (s *session) installer() (*install.Installer, error) {
	in := &install.Installer{Dir: filepath.Join(s.home, "plugins"), GitHubToken: os.Getenv("GITHUB_TOKEN"), Warn: s.warn}
	for _, h := range strings.Split(os.Getenv("CAIRN_GITHUB_HOSTS"), ",") {
		if h = strings.TrimSpace(h); h != "" {
			in.GitHubHosts = append(in.GitHubHosts, h)
		}
	}
	for _, name := range []string{"CAIRN_PLUGIN_DOWNLOAD_URL_OVERRIDES", "PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES"} {
		if v := os.Getenv(name); v != "" {
			o, err := install.ParseOverrides(v)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			in.Overrides = append(in.Overrides, o...)
		}
	}
	if isTerminal(s.stderr) {
		in.Progress = s.stderr
	}
	return in, nil
}

// acquirePlugins reports whether missing plugins may be downloaded: not
// when CAIRN_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION (or Pulumi's
// PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION) is true.
func acquirePlugins() bool {
	return !envBool("CAIRN_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION") && !envBool("PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION")
}

// envBool reports whether the variable name is set to a true value.
func envBool(name string) bool {
	b, _ := strconv.ParseBool(os.Getenv(name))
	return b
}

// pluginStartTimeout is how long a plugin may take to print its port:
// CAIRN_PLUGIN_START_TIMEOUT, or zero for the default of a minute.
func pluginStartTimeout() (time.Duration, error) {
	v := os.Getenv("CAIRN_PLUGIN_START_TIMEOUT")
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("CAIRN_PLUGIN_START_TIMEOUT=%q is not a duration; set it to one such as 90s or 5m", v)
	}
	return d, nil
}

// pluginLog shows what plugins and language hosts log on stderr: warnings
// and above; with --verbose or CAIRN_LOG=debug also what they print on
// their standard error and each call to them with its duration.
func (s *session) pluginLog() *slog.Logger {
	level := slog.LevelWarn
	if globalBool(s.c, "verbose") {
		level = slog.LevelDebug
	} else if v := os.Getenv("CAIRN_LOG"); v != "" {
		if err := level.UnmarshalText([]byte(v)); err != nil {
			s.warn(fmt.Sprintf("CAIRN_LOG=%s: use debug, info, warn or error", v))
		}
	}
	return slog.New(slog.NewTextHandler(s.stderr, &slog.HandlerOptions{Level: level}))
}

// stackReader reads the outputs of the backend's other stacks for stack
// references.
type stackReader struct {
	s  *session
	sm secrets.Manager
}

func (r *stackReader) StackOutputs(ctx context.Context, name string) (resource.Map, error) {
	parts := strings.Split(name, "/")
	ref := backend.StackRef{Name: parts[len(parts)-1]}
	if r.s.project != nil {
		ref.Project = r.s.project.Name
	}
	if len(parts) > 1 {
		ref.Project = parts[len(parts)-2]
	}
	ok, err := r.s.stackExists(ref)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: %s", builtin.ErrStackNotFound, ref)
	}
	return r.s.backend.Outputs(ctx, ref, r.sm)
}

// program loads the project's program for its runtime, from the folder
// main: names: YAML and HCL in-process, any other runtime through its Pulumi
// language host. YAML and HCL programs are checked first, so that their
// errors show before anything runs.
func (s *session) program(ctx context.Context, h *host.Resolver, config map[string]resource.Value, relay *diagRelay) (deploy.Program, error) {
	p := s.project
	if err := p.CheckMain(); err != nil {
		return nil, err
	}
	schemas := eval.ProviderSchemas(h)
	var prog *eval.Program
	var diags hcl.Diagnostics
	switch p.Runtime {
	case "yaml":
		prog, diags = yaml.Load(p.Dir, yaml.Options{Schemas: schemas})
	case "hcl":
		mods, err := s.modules()
		if err != nil {
			return nil, err
		}
		install := func(call langhcl.ModuleCall) (string, error) { return mods.Install(ctx, tfinstall.ModuleCall(call)) }
		prog, diags = langhcl.Load(p.Dir, langhcl.Options{Schemas: schemas, Project: p.Name, ProgramDir: p.ProgramDir(),
			DeclarePackage: h.AddPackage, TerraformProviders: tfplugin.Name, Modules: install, Vars: s.vars, Env: os.Environ()})
		if err := mods.Save(!diags.HasErrors()); err != nil {
			return nil, fmt.Errorf("recording the modules installed: %w", err)
		}
	default:
		start, err := pluginStartTimeout()
		if err != nil {
			return nil, err
		}
		return &langhost.Program{
			Runtime: p.Runtime, Options: p.RuntimeOptions, RootDirectory: p.Dir, ProgramDirectory: p.ProgramDir(),
			EntryPoint: p.EntryPoint(), Dirs: locate.DefaultDirs(), Host: h, Output: s.stderr, Log: s.pluginLog(),
			Diag: relay.diag, StartTimeout: start,
		}, nil
	}
	if !diags.HasErrors() {
		var err error
		if prog.Packages, err = packages(ctx, h); err != nil {
			return nil, err
		}
		// The check's warnings come again from the run, through Warn.
		if checked := prog.Check(ctx, p.Name, config); checked.HasErrors() {
			diags = append(diags, checked...)
		}
	}
	if diags.HasErrors() {
		return nil, &eval.DiagnosticsError{Diags: diags, Files: filesOf(prog)}
	}
	w := &eval.DiagnosticWriter{Files: prog.Files, Width: 100}
	for _, d := range diags {
		relay.diag(warningEvent(w, d))
	}
	prog.Warn = func(d *hcl.Diagnostic) { relay.diag(warningEvent(w, d)) }
	return prog, nil
}

// packages returns how the packages served by parameterized providers (the
// project's `packages:` and those the program declares) are served, for
// the engine to parameterize their providers.
func packages(ctx context.Context, h *host.Resolver) (map[string]eval.Package, error) {
	out := map[string]eval.Package{}
	for _, name := range h.Packages() {
		version, param, err := h.Parameterization(ctx, name)
		if err != nil {
			return nil, err
		}
		out[name] = eval.Package{PluginVersion: version, Parameterization: param}
	}
	return out, nil
}

// warningEvent renders a program warning, with its source snippet, as an
// engine diagnostic.
func warningEvent(w *eval.DiagnosticWriter, d *hcl.Diagnostic) deploy.DiagEvent {
	var b strings.Builder
	_ = w.WriteDiagnostic(&b, d)
	return deploy.DiagEvent{Severity: deploy.SeverityWarning, Message: strings.TrimPrefix(strings.TrimSpace(b.String()), "Warning: ")}
}

func filesOf(p *eval.Program) map[string]*hcl.File {
	if p == nil {
		return nil
	}
	return p.Files
}
