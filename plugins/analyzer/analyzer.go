// Package analyzer runs Pulumi policy packs: analyzer plugins that speak
// Pulumi's Analyzer protocol over gRPC (GetPluginInfo, GetAnalyzerInfo,
// Configure, ConfigureStack, Analyze, AnalyzeStack), as engine
// policy.Analyzers.
//
// A pack is given as a path: an analyzer plugin executable, started with the
// engine's address as its argument, as Pulumi starts one; or a folder with a
// PulumiPolicy.yaml, whose runtime names the plugin that boots it
// (pulumi-analyzer-policy-<runtime>, started in the folder with the engine's
// address and "." as arguments). A Node.js pack (@pulumi/policy) runs with
// Cairn's own Node.js language host, through the runner of the
// @pulumi/pulumi it installs, unless CAIRN_LANGUAGE_HOST=pulumi asks for
// Pulumi's pulumi-language-nodejs; packs of other runtimes run with
// Pulumi's host for them.
//
//	c, err := analyzer.Start(ctx, "./policies/pack", analyzer.Options{Stack: "dev", Project: "web", Diag: relay})
//	if err != nil {
//		return err
//	}
//	defer c.Close()
//	opts.Analyzers = append(opts.Analyzers, c)
package analyzer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	yaml "go.yaml.in/yaml/v4"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/childenv"
	"github.com/cairn-iac/cairn/internal/enginesvc"
	"github.com/cairn-iac/cairn/internal/launch"
	"github.com/cairn-iac/cairn/internal/locate"
	"github.com/cairn-iac/cairn/internal/rpc"
	"github.com/cairn-iac/cairn/plugins/langhost"
	"github.com/cairn-iac/cairn/plugins/langhost/runtimes"
)

// Options say how to start and configure a policy pack.
type Options struct {
	// Diag receives what the pack logs through the Engine service Cairn
	// serves it; nil drops it.
	Diag         func(deploy.DiagEvent)
	Stack        string
	Project      string
	Organization string
	DryRun       bool
	// Config is the stack's configuration as strings, by "<ns>:<key>";
	// SecretKeys names those that are secret.
	Config     map[string]string
	SecretKeys []string
	// Policies configure the pack's policies by name, as Pulumi's
	// --policy-pack-config file does; nil leaves the pack's own.
	Policies map[string]PolicyConfig
	// Dirs are searched for pulumi-analyzer-policy-<runtime>.
	Dirs         locate.Dirs
	Log          *slog.Logger
	StartTimeout time.Duration
}

// PolicyConfig is the configuration of one policy: its enforcement level
// ("" keeps the pack's) and its properties.
type PolicyConfig struct {
	Level      policy.Level
	Properties map[string]any
}

// Client is a running policy pack.
type Client struct {
	name    string
	version string
	rpc     pulumirpc.AnalyzerClient
	engine  *launch.Server
	closers []func() error // run in reverse by Close
}

// analyzerKind is the kind of analyzer plugins.
const analyzerKind locate.Kind = "analyzer"

// project is what Cairn reads of PulumiPolicy.yaml.
type project struct {
	Runtime any `yaml:"runtime"`
}

// runtime returns the runtime a PulumiPolicy.yaml names, and its options.
func (p project) runtime() (string, map[string]any) {
	switch r := p.Runtime.(type) {
	case string:
		return r, nil
	case map[string]any:
		name, _ := r["name"].(string)
		opts, _ := r["options"].(map[string]any)
		return name, opts
	}
	return "", nil
}

// Start launches the policy pack at path, configures it and asks it what it
// is. An analyzer plugin and an analyzer-booting plugin are started with
// the address of an Engine service as argument; a Node.js pack by Cairn's
// Node.js host; a pack whose runtime has Pulumi's language host
// (pulumi-language-<runtime>) is started by the host's RunPlugin, as Pulumi
// starts Node.js and Python packs.
func Start(ctx context.Context, path string, opts Options) (*Client, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("policy pack %s: %w", path, err)
	}
	diag := opts.Diag
	if diag == nil {
		diag = func(deploy.DiagEvent) {}
	}
	engine, err := launch.Listen(func(s *grpc.Server) { pulumirpc.RegisterEngineServer(s, enginesvc.New(diag)) })
	if err != nil {
		return nil, err
	}
	c := &Client{engine: engine}
	var conn *grpc.ClientConn
	if info.IsDir() {
		conn, err = c.startPack(ctx, path, opts)
	} else {
		conn, err = c.launch(ctx, launch.Spec{Name: filepath.Base(path), Path: path, Args: []string{engine.Addr()},
			Log: opts.Log, StartTimeout: opts.StartTimeout})
	}
	if err == nil {
		// The pack's directories are its folder, or the one holding it.
		dir := path
		if !info.IsDir() {
			dir = filepath.Dir(path)
		}
		c.rpc = pulumirpc.NewAnalyzerClient(conn)
		err = c.init(ctx, dir, filepath.Base(path), opts)
	}
	if err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("policy pack %s: %w", path, err)
	}
	return c, nil
}

// launch starts a plugin process and returns the connection to it.
func (c *Client) launch(ctx context.Context, spec launch.Spec) (*grpc.ClientConn, error) {
	proc, err := launch.Start(ctx, spec)
	if err != nil {
		return nil, err
	}
	c.closers = append(c.closers, proc.Close)
	return proc.Conn(), nil
}

// startPack starts a policy pack folder: through its runtime's language
// host, or else the plugin that boots packs of its runtime
// (pulumi-analyzer-policy-<runtime>).
func (c *Client) startPack(ctx context.Context, dir string, opts Options) (*grpc.ClientConn, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, "PulumiPolicy.yaml"))
	if err != nil {
		return nil, fmt.Errorf("%w; a policy pack folder holds a PulumiPolicy.yaml naming its runtime", err)
	}
	var p project
	if err := yaml.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("PulumiPolicy.yaml: %w", err)
	}
	runtime, options := p.runtime()
	if runtime == "" {
		return nil, errors.New("PulumiPolicy.yaml names no runtime; add runtime: nodejs (or python)")
	}
	if choice, err := langhost.Choose(runtime, opts.Dirs); err == nil && choice.BuiltIn && runtime == "nodejs" {
		return c.startNodePack(ctx, dir, options, opts)
	}
	if host, ok := locate.Best(opts.Dirs.Find(locate.Language, runtime), ""); ok {
		return c.runPlugin(ctx, host.Path, dir, runtime, options, opts)
	}
	name := "policy-" + runtime
	found := opts.Dirs.Find(analyzerKind, name)
	if len(found) == 0 {
		return nil, fmt.Errorf("its runtime is %s, which needs the language host %s (or the plugin %s) to start it; install it, or give --policy-pack the path of an analyzer plugin",
			runtime, locate.Language.Binary(runtime), analyzerKind.Binary(name))
	}
	args := []string{c.engine.Addr(), "."}
	for k, v := range options {
		args = append(args, fmt.Sprintf("-%s=%v", k, v))
	}
	return c.launch(ctx, launch.Spec{Name: analyzerKind.Binary(name), Path: found[0].Path, Args: args, Dir: dir,
		Log: opts.Log, StartTimeout: opts.StartTimeout})
}

// startNodePack starts the @pulumi/policy pack in dir with Cairn's Node.js
// language host: node runs the SDK's policy pack runner, told the stack.
func (c *Client) startNodePack(ctx context.Context, dir string, options map[string]any, opts Options) (*grpc.ClientConn, error) {
	node := runtimes.NodeJS{Options: runtimes.Options{Engine: c.engine.Addr()}}
	path, args, env, err := node.PolicyPack(dir, options, runtimes.PolicyPackStack{Organization: opts.Organization,
		Project: opts.Project, Stack: opts.Stack, DryRun: opts.DryRun, Config: opts.Config})
	if err != nil {
		return nil, err
	}
	return c.launch(ctx, launch.Spec{Name: "policy pack " + filepath.Base(dir), Path: path, Args: args, Env: env, Dir: dir,
		Log: opts.Log, StartTimeout: opts.StartTimeout})
}

// runPlugin starts the pack in dir through the language host at hostPath:
// RunPlugin streams the pack's output, whose first line is its port.
func (c *Client) runPlugin(ctx context.Context, hostPath, dir, runtime string, options map[string]any, opts Options) (*grpc.ClientConn, error) {
	hostConn, err := c.launch(ctx, launch.Spec{Name: locate.Language.Binary(runtime), Path: hostPath,
		Args: []string{c.engine.Addr()}, Dir: dir, Log: opts.Log, StartTimeout: opts.StartTimeout})
	if err != nil {
		return nil, err
	}
	o, err := structpb.NewStruct(options)
	if err != nil {
		return nil, fmt.Errorf("runtime options: %w", err)
	}
	sctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	c.closers = append(c.closers, func() error { stop(); return nil })
	stream, err := pulumirpc.NewLanguageRuntimeClient(hostConn).RunPlugin(sctx, &pulumirpc.RunPluginRequest{
		Pwd: dir, Args: []string{c.engine.Addr()}, Env: childenv.Environ(), Kind: string(analyzerKind),
		Info: &pulumirpc.ProgramInfo{RootDirectory: dir, ProgramDirectory: dir, EntryPoint: ".", Options: o},
	})
	if err != nil {
		return nil, fmt.Errorf("RunPlugin: %w", err)
	}
	log := opts.Log
	if log == nil {
		log = slog.Default()
	}
	log = log.With("plugin", "policy pack "+filepath.Base(dir))
	port, ended := make(chan string, 1), make(chan string, 1)
	go func() {
		var out, errs strings.Builder
		first := true
		for {
			msg, err := stream.Recv()
			if err != nil {
				ended <- strings.TrimSpace(errs.String())
				return
			}
			if b := msg.GetStderr(); len(b) > 0 {
				errs.Write(b)
				log.Info(strings.TrimSpace(string(b)), "stream", "stderr")
			}
			out.Write(msg.GetStdout())
			for first {
				line, rest, ok := strings.Cut(out.String(), "\n")
				if !ok {
					break
				}
				first = false
				port <- strings.TrimSpace(line)
				out.Reset()
				out.WriteString(rest)
			}
		}
	}()
	timeout := opts.StartTimeout
	if timeout == 0 {
		timeout = time.Minute
	}
	var line string
	select {
	case line = <-port:
	case stderr := <-ended:
		return nil, fmt.Errorf("the pack exited before printing its port: %s", stderr)
	case <-time.After(timeout):
		return nil, fmt.Errorf("the pack did not print its port within %s", timeout)
	}
	if n, err := strconv.Atoi(line); err != nil || n <= 0 || n > 65535 {
		return nil, fmt.Errorf("the pack printed %q where its port was expected", line)
	}
	conn, err := grpc.NewClient("127.0.0.1:"+line, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(launch.MaxMessageSize), grpc.MaxCallSendMsgSize(launch.MaxMessageSize)))
	if err != nil {
		return nil, err
	}
	c.closers = append(c.closers, conn.Close)
	return conn, nil
}

// init introduces the engine to the pack, configures it for the stack,
// asks its name and configures its policies, in Pulumi's order: a Node.js
// pack started by its language host waits for the stack's configuration
// before it answers anything else.
func (c *Client) init(ctx context.Context, dir, name string, opts Options) error {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	_, err := c.rpc.Handshake(ctx, &pulumirpc.AnalyzerHandshakeRequest{EngineAddress: c.engine.Addr(), RootDirectory: &dir, ProgramDirectory: &dir})
	if err != nil && status.Code(err) != codes.Unimplemented {
		return fmt.Errorf("the analyzer handshake: %w", err)
	}
	_, err = c.rpc.ConfigureStack(ctx, &pulumirpc.AnalyzerStackConfigureRequest{Stack: opts.Stack, Project: opts.Project,
		Organization: opts.Organization, DryRun: opts.DryRun, Config: opts.Config, ConfigSecretKeys: opts.SecretKeys})
	if err != nil && status.Code(err) != codes.Unimplemented {
		return fmt.Errorf("ConfigureStack: %w", err)
	}
	info, err := c.rpc.GetAnalyzerInfo(ctx, &emptypb.Empty{})
	if err != nil {
		return fmt.Errorf("GetAnalyzerInfo: %w", err)
	}
	c.name, c.version = info.GetName(), info.GetVersion()
	if c.name == "" {
		c.name = name
	}
	if _, err := c.rpc.GetPluginInfo(ctx, &emptypb.Empty{}); err != nil && status.Code(err) != codes.Unimplemented {
		return fmt.Errorf("GetPluginInfo: %w", err)
	}
	if len(opts.Policies) == 0 {
		return nil
	}
	known := map[string]pulumirpc.EnforcementLevel{"all": pulumirpc.EnforcementLevel_ADVISORY}
	for _, p := range info.GetPolicies() {
		known[p.GetName()] = p.GetEnforcementLevel()
	}
	req := &pulumirpc.ConfigureAnalyzerRequest{PolicyConfig: map[string]*pulumirpc.PolicyConfig{}}
	for name, pc := range opts.Policies {
		level, ok := known[name]
		if !ok {
			return fmt.Errorf("the policy configuration names %q, which is not a policy of pack %s", name, c.name)
		}
		if pc.Level != "" {
			level = toWireLevel(pc.Level)
		}
		props, err := structpb.NewStruct(pc.Properties)
		if err != nil {
			return fmt.Errorf("the configuration of policy %s: %w", name, err)
		}
		req.PolicyConfig[name] = &pulumirpc.PolicyConfig{EnforcementLevel: level, Properties: props}
	}
	if _, err := c.rpc.Configure(ctx, req); err != nil {
		return fmt.Errorf("configuring the analyzer: %w", err)
	}
	return nil
}

// Name implements policy.Analyzer.
func (c *Client) Name() string { return c.name }

// Close stops the pack and the Engine service it logs to.
func (c *Client) Close() error {
	var errs []error
	for i := len(c.closers) - 1; i >= 0; i-- {
		errs = append(errs, c.closers[i]())
	}
	c.engine.Stop(time.Second)
	return errors.Join(errs...)
}

// Analyze implements policy.Analyzer.
func (c *Client) Analyze(ctx context.Context, r policy.Resource) ([]policy.Violation, error) {
	ar, err := wireResource(r)
	if err != nil {
		return nil, err
	}
	resp, err := c.rpc.Analyze(ctx, &pulumirpc.AnalyzeRequest{Type: ar.Type, Properties: ar.Properties, Urn: ar.Urn,
		Name: ar.Name, Options: ar.Options, Provider: ar.Provider})
	if err != nil {
		return nil, fmt.Errorf("Analyze %s: %w", r.URN, err)
	}
	return c.violations(resp, r.URN), nil
}

// AnalyzeStack implements policy.Analyzer.
func (c *Client) AnalyzeStack(ctx context.Context, rs []policy.Resource) ([]policy.Violation, error) {
	req := &pulumirpc.AnalyzeStackRequest{}
	for _, r := range rs {
		ar, err := wireResource(r)
		if err != nil {
			return nil, err
		}
		req.Resources = append(req.Resources, ar)
	}
	resp, err := c.rpc.AnalyzeStack(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("AnalyzeStack: %w", err)
	}
	return c.violations(resp, ""), nil
}

func (c *Client) violations(resp *pulumirpc.AnalyzeResponse, urn resource.URN) []policy.Violation {
	var out []policy.Violation
	for _, d := range resp.GetDiagnostics() {
		v := policy.Violation{Pack: d.GetPolicyPackName(), Policy: d.GetPolicyName(), Description: d.GetDescription(),
			Message: d.GetMessage(), URN: resource.URN(d.GetUrn()), Level: fromWireLevel(d.GetEnforcementLevel())}
		if v.Pack == "" {
			v.Pack = c.name
		}
		if v.URN == "" {
			v.URN = urn
		}
		if v.Message == "" {
			v.Message = v.Description
		}
		out = append(out, v)
	}
	return out
}

// wireResource is a resource as the Analyzer protocol sends it: inputs with
// unknowns and secrets kept, as Pulumi sends them.
func wireResource(r policy.Resource) (*pulumirpc.AnalyzerResource, error) {
	props, err := rpc.MarshalMap(r.Inputs, rpc.Options{KeepUnknowns: true, KeepSecrets: true})
	if err != nil {
		return nil, fmt.Errorf("the inputs of %s: %w", r.URN, err)
	}
	ar := &pulumirpc.AnalyzerResource{Type: r.Type, Properties: orEmpty(props), Urn: string(r.URN), Name: r.Name, Parent: string(r.Parent),
		Options:              &pulumirpc.AnalyzerResourceOptions{Protect: r.Protect, IgnoreChanges: r.IgnoreChanges, Parent: string(r.Parent)},
		PropertyDependencies: map[string]*pulumirpc.AnalyzerPropertyDependencies{}}
	for _, d := range r.Dependencies {
		ar.Dependencies = append(ar.Dependencies, string(d))
	}
	for k, deps := range r.PropertyDependencies {
		pd := &pulumirpc.AnalyzerPropertyDependencies{}
		for _, d := range deps {
			pd.Urns = append(pd.Urns, string(d))
		}
		ar.PropertyDependencies[k] = pd
	}
	if ref, err := resource.ParseProviderRef(r.Provider); err == nil && r.Provider != "" {
		pprops, err := rpc.MarshalMap(r.ProviderInputs, rpc.Options{KeepUnknowns: true, KeepSecrets: true})
		if err != nil {
			return nil, fmt.Errorf("the provider configuration of %s: %w", r.URN, err)
		}
		ar.Provider = &pulumirpc.AnalyzerProviderResource{Type: ref.URN.Type(), Urn: string(ref.URN), Name: ref.URN.Name(), Properties: orEmpty(pprops)}
	}
	return ar, nil
}

// orEmpty returns s, or an empty struct for nil: @pulumi/policy reads the
// properties of every resource and provider it is sent.
func orEmpty(s *structpb.Struct) *structpb.Struct {
	if s == nil {
		return &structpb.Struct{}
	}
	return s
}

// wireLevels are the enforcement levels as the Analyzer protocol numbers
// them.
var wireLevels = map[policy.Level]pulumirpc.EnforcementLevel{
	policy.Advisory:  pulumirpc.EnforcementLevel_ADVISORY,
	policy.Mandatory: pulumirpc.EnforcementLevel_MANDATORY,
	policy.Disabled:  pulumirpc.EnforcementLevel_DISABLED,
}

func toWireLevel(l policy.Level) pulumirpc.EnforcementLevel { return wireLevels[l] }

func fromWireLevel(w pulumirpc.EnforcementLevel) policy.Level {
	for l, lw := range wireLevels {
		if lw == w {
			return l
		}
	}
	return policy.Advisory
}

var _ policy.Analyzer = (*Client)(nil)

// ReadConfig reads a policy pack configuration file, as Pulumi's
// --policy-pack-config takes: a JSON object of policies by name (or "all"),
// each an enforcement level, or an object with enforcementLevel and the
// policy's properties.
func ReadConfig(path string) (map[string]PolicyConfig, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%s: %w; it must be a JSON object of policies by name", path, err)
	}
	out := map[string]PolicyConfig{}
	for name, v := range raw {
		var level string
		var props map[string]any
		if json.Unmarshal(v, &level) != nil {
			if err := json.Unmarshal(v, &props); err != nil {
				return nil, fmt.Errorf("%s: policy %s: give an enforcement level or an object of its configuration", path, name)
			}
			level, _ = props["enforcementLevel"].(string)
			delete(props, "enforcementLevel")
		}
		pc := PolicyConfig{Properties: props}
		if level != "" {
			if pc.Level, err = policy.ParseLevel(level); err != nil {
				return nil, fmt.Errorf("%s: policy %s: %w", path, name, err)
			}
		}
		out[name] = pc
	}
	return out, nil
}
