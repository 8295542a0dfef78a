// Package analyzer runs Pulumi policy packs: analyzer plugins that speak
// Pulumi's Analyzer protocol over gRPC (GetPluginInfo, GetAnalyzerInfo,
// Configure, ConfigureStack, Analyze, AnalyzeStack), as engine
// policy.Analyzers.
//
// A pack is given as a path: an analyzer plugin executable, started with the
// engine's address as its argument, as Pulumi starts one; or a folder with a
// PulumiPolicy.yaml, whose runtime names the plugin that boots it
// (pulumi-analyzer-policy-<runtime>, started in the folder with the engine's
// address and "." as arguments).
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
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
	yaml "gopkg.in/yaml.v3"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/plugins/enginesvc"
	"github.com/cairn-iac/cairn/plugins/launch"
	"github.com/cairn-iac/cairn/plugins/locate"
	"github.com/cairn-iac/cairn/plugins/rpc"
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
	proc    *launch.Process
	engine  *launch.Server
}

// analyzerKind is the kind of analyzer plugins.
const analyzerKind locate.Kind = "analyzer"

// project is what Cairn reads of PulumiPolicy.yaml.
type project struct {
	Runtime any    `yaml:"runtime"`
	Version string `yaml:"version"`
}

// Start launches the policy pack at path, asks it what it is, and configures
// it.
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
	spec := launch.Spec{Name: filepath.Base(path), Path: path, Args: []string{engine.Addr()}, Log: opts.Log,
		StartTimeout: opts.StartTimeout}
	if info.IsDir() {
		spec, err = packSpec(path, engine.Addr(), opts)
	}
	if err == nil {
		c.proc, err = launch.Start(ctx, spec)
	}
	if err == nil {
		c.rpc = pulumirpc.NewAnalyzerClient(c.proc.Conn())
		err = c.init(ctx, path, opts)
	}
	if err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("policy pack %s: %w", path, err)
	}
	return c, nil
}

// packSpec is how a policy pack folder is started: by the analyzer plugin
// that boots packs of its runtime.
func packSpec(dir, engineAddr string, opts Options) (launch.Spec, error) {
	b, err := os.ReadFile(filepath.Join(dir, "PulumiPolicy.yaml"))
	if err != nil {
		return launch.Spec{}, fmt.Errorf("%w; a policy pack folder holds a PulumiPolicy.yaml naming its runtime", err)
	}
	var p project
	if err := yaml.Unmarshal(b, &p); err != nil {
		return launch.Spec{}, fmt.Errorf("PulumiPolicy.yaml: %w", err)
	}
	runtime, args := "", []string{engineAddr, "."}
	switch r := p.Runtime.(type) {
	case string:
		runtime = r
	case map[string]any:
		runtime, _ = r["name"].(string)
		if o, ok := r["options"].(map[string]any); ok {
			for k, v := range o {
				args = append(args, fmt.Sprintf("-%s=%v", k, v))
			}
		}
	}
	if runtime == "" {
		return launch.Spec{}, errors.New("PulumiPolicy.yaml names no runtime; add runtime: nodejs (or python)")
	}
	name := "policy-" + runtime
	found := opts.Dirs.Find(analyzerKind, name)
	if len(found) == 0 {
		return launch.Spec{}, fmt.Errorf("its runtime is %s, which needs the plugin %s to start it; install it, or give --policy-pack the path of an analyzer plugin",
			runtime, analyzerKind.Binary(name))
	}
	return launch.Spec{Name: analyzerKind.Binary(name), Path: found[0].Path, Args: args, Dir: dir, Log: opts.Log, StartTimeout: opts.StartTimeout}, nil
}

// init asks the pack its name and configures it.
func (c *Client) init(ctx context.Context, path string, opts Options) error {
	info, err := c.rpc.GetAnalyzerInfo(ctx, &emptypb.Empty{})
	if err != nil {
		return fmt.Errorf("GetAnalyzerInfo: %w", err)
	}
	c.name, c.version = info.GetName(), info.GetVersion()
	if c.name == "" {
		c.name = filepath.Base(path)
	}
	if _, err := c.rpc.GetPluginInfo(ctx, &emptypb.Empty{}); err != nil && status.Code(err) != codes.Unimplemented {
		return fmt.Errorf("GetPluginInfo: %w", err)
	}
	_, err = c.rpc.ConfigureStack(ctx, &pulumirpc.AnalyzerStackConfigureRequest{Stack: opts.Stack, Project: opts.Project,
		Organization: opts.Organization, DryRun: opts.DryRun, Config: opts.Config, ConfigSecretKeys: opts.SecretKeys})
	if err != nil && status.Code(err) != codes.Unimplemented {
		return fmt.Errorf("ConfigureStack: %w", err)
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
		return fmt.Errorf("Configure: %w", err)
	}
	return nil
}

// Name implements policy.Analyzer.
func (c *Client) Name() string { return c.name }

// Close stops the pack and the Engine service it logs to.
func (c *Client) Close() error {
	var err error
	if c.proc != nil {
		err = c.proc.Close()
	}
	c.engine.Stop(time.Second)
	return err
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
	ar := &pulumirpc.AnalyzerResource{Type: r.Type, Properties: props, Urn: string(r.URN), Name: r.Name, Parent: string(r.Parent),
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
		ar.Provider = &pulumirpc.AnalyzerProviderResource{Type: ref.URN.Type(), Urn: string(ref.URN), Name: ref.URN.Name()}
	}
	return ar, nil
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
