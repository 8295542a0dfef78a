package enginesvc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	codegenrpc "github.com/pulumi/pulumi/sdk/v3/proto/go/codegen"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/internal/enginesvc"
	"github.com/cairn-iac/cairn/internal/launch"
)

// schemaHost is a provider host whose providers answer GetSchema with
// their package's name, as parameterized, and count the schemas they give.
type schemaHost struct {
	mu    sync.Mutex
	loads int
}

func (h *schemaHost) Load(_ context.Context, pkg, version string) (provider.Provider, error) {
	if pkg == "missing" {
		return nil, fmt.Errorf("no plugin for package %q", pkg)
	}
	return &schemaProvider{h: h, pkg: pkg, version: version}, nil
}

type schemaProvider struct {
	provider.Provider // only the methods below are called
	h                 *schemaHost
	pkg, version      string
	parameter         []byte
}

func (p *schemaProvider) GetSchema(context.Context, provider.GetSchemaRequest) ([]byte, error) {
	p.h.mu.Lock()
	p.h.loads++
	p.h.mu.Unlock()
	return json.Marshal(map[string]any{"name": p.pkg, "version": p.version, "parameter": string(p.parameter)})
}

func (p *schemaProvider) Parameterize(_ context.Context, req provider.ParameterizeRequest) (provider.ParameterizeResponse, error) {
	p.pkg, p.version, p.parameter = req.Name, req.Version, req.Value
	return provider.ParameterizeResponse{Name: req.Name, Version: req.Version}, nil
}

func (p *schemaProvider) Close() error { return nil }

// serve serves the engine's services and connects to them.
func serve(t *testing.T, o enginesvc.Options) *grpc.ClientConn {
	t.Helper()
	srv, err := launch.Listen(func(s *grpc.Server) { enginesvc.Register(s, o) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop(0) })
	conn, err := grpc.NewClient(srv.Addr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func TestHealthServiceServes(t *testing.T) {
	conn := serve(t, enginesvc.Options{})
	resp, err := healthpb.NewHealthClient(conn).Check(context.Background(), &healthpb.HealthCheckRequest{})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health check = %v, %v; want SERVING", resp, err)
	}
	if _, err := pulumirpc.NewEngineClient(conn).Log(context.Background(), &pulumirpc.LogRequest{Message: "hi"}); err != nil {
		t.Errorf("the Engine service beside it: %v", err)
	}
}

func TestLoaderServesSchemas(t *testing.T) {
	h := &schemaHost{}
	loader := codegenrpc.NewLoaderClient(serve(t, enginesvc.Options{Host: h}))
	ctx := context.Background()
	schemaOf := func(req *codegenrpc.GetSchemaRequest) map[string]string {
		t.Helper()
		resp, err := loader.GetSchema(ctx, req)
		if err != nil {
			t.Fatalf("GetSchema(%v): %v", req, err)
		}
		var got map[string]string
		if err := json.Unmarshal(resp.GetSchema(), &got); err != nil {
			t.Fatal(err)
		}
		return got
	}

	for range 2 {
		if got := schemaOf(&codegenrpc.GetSchemaRequest{Package: "kv", Version: "1.2.3"}); got["name"] != "kv" || got["version"] != "1.2.3" {
			t.Errorf("schema of kv = %v", got)
		}
	}
	if h.loads != 1 {
		t.Errorf("the schema was loaded %d times, want once", h.loads)
	}

	got := schemaOf(&codegenrpc.GetSchemaRequest{Package: "terraform-provider", Version: "0.9.0",
		Parameterization: &codegenrpc.Parameterization{Name: "tfe", Version: "0.3.0", Value: []byte("hashicorp/tfe")}})
	if want := map[string]string{"name": "tfe", "version": "0.3.0", "parameter": "hashicorp/tfe"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("schema of the parameterized package = %v, want %v", got, want)
	}

	_, err := loader.GetSchema(ctx, &codegenrpc.GetSchemaRequest{Package: "missing"})
	if status.Code(err) != codes.NotFound || !strings.Contains(err.Error(), `no plugin for package "missing"`) {
		t.Errorf("GetSchema of a package without a provider = %v, want NotFound naming it", err)
	}
}

func TestNoLoaderWithoutHost(t *testing.T) {
	_, err := codegenrpc.NewLoaderClient(serve(t, enginesvc.Options{})).GetSchema(context.Background(),
		&codegenrpc.GetSchemaRequest{Package: "kv"})
	if status.Code(err) != codes.Unimplemented {
		t.Errorf("GetSchema without a host = %v, want UNIMPLEMENTED", err)
	}
}
