package analyzer

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/launch"
)

// The test binary is also the analyzer plugin under test: started with
// servePack set, it serves a policy pack over gRPC.
const servePack = "CAIRN_TEST_SERVE_POLICY_PACK"

func TestMain(m *testing.M) {
	if os.Getenv(servePack) != "" {
		s, err := launch.Listen(func(s *grpc.Server) { pulumirpc.RegisterAnalyzerServer(s, &pack{}) })
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(s.Port())
		<-s.Done()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// pack is a policy pack: "no-public" flags resources whose input public is
// true; "few" flags a stack of more than two resources.
type pack struct {
	pulumirpc.UnimplementedAnalyzerServer
	mu     sync.Mutex
	levels map[string]pulumirpc.EnforcementLevel
}

func (p *pack) level(name string, def pulumirpc.EnforcementLevel) pulumirpc.EnforcementLevel {
	p.mu.Lock()
	defer p.mu.Unlock()
	if l, ok := p.levels[name]; ok {
		return l
	}
	return def
}

func (p *pack) GetAnalyzerInfo(context.Context, *emptypb.Empty) (*pulumirpc.AnalyzerInfo, error) {
	return &pulumirpc.AnalyzerInfo{Name: "guards", Version: "1.0.0", SupportsConfig: true,
		Policies: []*pulumirpc.PolicyInfo{{Name: "no-public"}, {Name: "few"}}}, nil
}

func (p *pack) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: "1.0.0"}, nil
}

func (p *pack) Configure(_ context.Context, req *pulumirpc.ConfigureAnalyzerRequest) (*emptypb.Empty, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.levels = map[string]pulumirpc.EnforcementLevel{}
	for name, c := range req.GetPolicyConfig() {
		p.levels[name] = c.GetEnforcementLevel()
	}
	return &emptypb.Empty{}, nil
}

func (p *pack) Analyze(_ context.Context, req *pulumirpc.AnalyzeRequest) (*pulumirpc.AnalyzeResponse, error) {
	public := req.GetProperties().GetFields()["public"]
	if public == nil || !public.GetBoolValue() {
		return &pulumirpc.AnalyzeResponse{}, nil
	}
	return &pulumirpc.AnalyzeResponse{Diagnostics: []*pulumirpc.AnalyzeDiagnostic{{PolicyName: "no-public", PolicyPackName: "guards",
		Message: req.GetName() + " is public (provider " + req.GetProvider().GetName() + ")", Urn: req.GetUrn(),
		EnforcementLevel: p.level("no-public", pulumirpc.EnforcementLevel_MANDATORY)}}}, nil
}

func (p *pack) AnalyzeStack(_ context.Context, req *pulumirpc.AnalyzeStackRequest) (*pulumirpc.AnalyzeResponse, error) {
	if n := len(req.GetResources()); n > 2 {
		return &pulumirpc.AnalyzeResponse{Diagnostics: []*pulumirpc.AnalyzeDiagnostic{{PolicyName: "few", PolicyPackName: "guards",
			Message: fmt.Sprintf("%d resources, at most 2", n), EnforcementLevel: p.level("few", pulumirpc.EnforcementLevel_ADVISORY)}}}, nil
	}
	return &pulumirpc.AnalyzeResponse{}, nil
}

func start(t *testing.T, opts Options) *Client {
	t.Helper()
	t.Setenv(servePack, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := Start(context.Background(), exe, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func thing(name string, public bool) policy.Resource {
	urn := resource.NewURN("dev", "proj", "", "pkgA:index:Thing", name)
	prov := string(resource.NewURN("dev", "proj", "", "pulumi:providers:pkgA", "default")) + "::id-1"
	return policy.Resource{URN: urn, Type: "pkgA:index:Thing", Name: name, Custom: true, Provider: prov,
		Inputs: resource.Map{"public": resource.Bool(public), "later": resource.Unknown(), "key": resource.MakeSecret(resource.String("s"))}}
}

func TestAnalyzeOverGRPC(t *testing.T) {
	c := start(t, Options{})
	if c.Name() != "guards" {
		t.Errorf("name = %q, want the pack's", c.Name())
	}
	vs, err := c.Analyze(context.Background(), thing("a", true))
	if err != nil {
		t.Fatal(err)
	}
	want := []policy.Violation{{Pack: "guards", Policy: "no-public", Message: "a is public (provider default)",
		URN: thing("a", true).URN, Level: policy.Mandatory}}
	if fmt.Sprint(vs) != fmt.Sprint(want) {
		t.Errorf("violations = %v, want %v", vs, want)
	}
	if vs, err := c.Analyze(context.Background(), thing("b", false)); err != nil || len(vs) != 0 {
		t.Errorf("compliant resource: %v, %v", vs, err)
	}
}

func TestAnalyzeStackOverGRPC(t *testing.T) {
	c := start(t, Options{})
	vs, err := c.AnalyzeStack(context.Background(), []policy.Resource{thing("a", false), thing("b", false), thing("c", false)})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || vs[0].Policy != "few" || vs[0].Level != policy.Advisory || vs[0].URN != "" || vs[0].Message != "3 resources, at most 2" {
		t.Errorf("violations = %+v", vs)
	}
}

func TestConfigureSetsLevels(t *testing.T) {
	c := start(t, Options{Policies: map[string]PolicyConfig{"no-public": {Level: policy.Advisory}, "few": {Level: policy.Mandatory}}})
	vs, err := c.Analyze(context.Background(), thing("a", true))
	if err != nil || len(vs) != 1 || vs[0].Level != policy.Advisory {
		t.Errorf("after Configure: %+v, %v", vs, err)
	}
	vs, err = c.AnalyzeStack(context.Background(), []policy.Resource{thing("a", false), thing("b", false), thing("c", false)})
	if err != nil || len(vs) != 1 || vs[0].Level != policy.Mandatory {
		t.Errorf("after Configure: %+v, %v", vs, err)
	}
}

func TestConfigureUnknownPolicy(t *testing.T) {
	t.Setenv(servePack, "1")
	exe, _ := os.Executable()
	_, err := Start(context.Background(), exe, Options{Policies: map[string]PolicyConfig{"no-publik": {Level: policy.Advisory}}})
	if err == nil {
		t.Fatal("configuring a policy the pack does not have succeeded")
	}
}

func TestPackFolderNeedsRuntime(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/PulumiPolicy.yaml", []byte("runtime: cobol\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Start(context.Background(), dir, Options{})
	if err == nil || !strings.Contains(err.Error(), "pulumi-analyzer-policy-cobol") {
		t.Errorf("err = %v, want it to name the plugin the runtime needs", err)
	}
}
