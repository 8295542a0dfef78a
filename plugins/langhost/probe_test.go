package langhost_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	codegenrpc "github.com/pulumi/pulumi/sdk/v3/proto/go/codegen"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/cairn-iac/cairn/plugins/plugintest"
)

// probeRole is a language host, pulumi-language-probe, that shows what
// Cairn gives a host. Its Run writes the RunRequest to run.json in the
// program's folder, with what the engine's health service and schema
// Loader (asked for package kv) answered. The program needs the plugins its
// runtime option "require" lists (GetRequiredPackages), and its
// dependencies are missing (GetProgramDependencies fails) until
// InstallDependencies has written "installed" in the program's folder.
var probeRole = plugintest.Role{Name: "pulumi-language-probe", Run: func(ctx context.Context, args []string) error {
	return plugintest.ServeGRPC(ctx, func(s *grpc.Server) {
		pulumirpc.RegisterLanguageRuntimeServer(s, &probe{engine: args[len(args)-1]})
	})
}}

type probe struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engine string
}

// probed is what run.json holds.
type probed struct {
	Request json.RawMessage
	Health  string
	Schema  string
}

func (h *probe) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	var out probed
	var err error
	if out.Request, err = protojson.Marshal(req); err != nil {
		return nil, err
	}
	if conn, err := grpc.NewClient(h.engine, grpc.WithTransportCredentials(insecure.NewCredentials())); err == nil {
		resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{})
		out.Health = fmt.Sprint(resp.GetStatus(), err)
		_ = conn.Close()
	}
	if conn, err := grpc.NewClient(req.GetLoaderTarget(), grpc.WithTransportCredentials(insecure.NewCredentials())); err == nil {
		resp, err := codegenrpc.NewLoaderClient(conn).GetSchema(ctx, &codegenrpc.GetSchemaRequest{Package: "kv"})
		out.Schema = fmt.Sprint(string(resp.GetSchema()), err)
		_ = conn.Close()
	}
	data, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return &pulumirpc.RunResponse{}, os.WriteFile(filepath.Join(req.GetInfo().GetProgramDirectory(), "run.json"), data, 0o644)
}

func (h *probe) GetRequiredPackages(_ context.Context, req *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	var resp pulumirpc.GetRequiredPackagesResponse
	for _, r := range req.GetInfo().GetOptions().GetFields()["require"].GetListValue().GetValues() {
		name, version, _ := strings.Cut(r.GetStringValue(), "@")
		resp.Packages = append(resp.Packages, &pulumirpc.PackageDependency{Name: name, Kind: "resource", Version: version})
	}
	return &resp, nil
}

func (h *probe) GetProgramDependencies(_ context.Context, req *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	if _, err := os.Stat(filepath.Join(req.GetInfo().GetProgramDirectory(), "installed")); err != nil {
		return nil, errors.New("missing: left-pad")
	}
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

func (h *probe) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, s pulumirpc.LanguageRuntime_InstallDependenciesServer) error {
	if err := s.Send(&pulumirpc.InstallDependenciesResponse{Stdout: []byte("added left-pad\n")}); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(req.GetInfo().GetProgramDirectory(), "installed"), nil, 0o644)
}

func (e *env) probe(require ...any) (*bytes.Buffer, error) {
	prog := e.program("main.js")
	prog.Runtime, prog.Host, prog.Options = "probe", e.resolver, map[string]any{"require": require, "packagemanager": "pnpm"}
	var out bytes.Buffer
	prog.Output = &out
	_, err := e.update(prog, nil, true)
	return &out, err
}

func TestLanguageHostGetsTheEngineServices(t *testing.T) {
	e := newEnv(t)
	out, err := e.probe("kv@1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "missing: left-pad") || !strings.Contains(out.String(), "added left-pad") {
		t.Errorf("installing the dependencies printed %q, want why and the host's output", out)
	}
	data, err := os.ReadFile(filepath.Join(e.dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got probed
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	var req pulumirpc.RunRequest
	if err := protojson.Unmarshal(got.Request, &req); err != nil {
		t.Fatal(err)
	}
	info := req.GetInfo()
	if req.GetLoaderTarget() == "" || info.GetEntryPoint() != "main.js" || info.GetProgramDirectory() != e.dir ||
		info.GetOptions().GetFields()["packagemanager"].GetStringValue() != "pnpm" {
		t.Errorf("RunRequest = %s", got.Request)
	}
	if got.Health != "SERVING <nil>" {
		t.Errorf("the health service answered %s", got.Health)
	}
	if !strings.Contains(got.Schema, `"name":"kv"`) {
		t.Errorf("the Loader answered %s, want kv's schema", got.Schema)
	}

	// Installed, the dependencies are not installed again.
	out, err = e.probe("kv")
	if err != nil || out.Len() != 0 {
		t.Errorf("second run: %v, printed %q", err, out)
	}
}

func TestMissingPluginsAreNamed(t *testing.T) {
	e := newEnv(t)
	_, err := e.probe("kv@1.0.0", "aws@6.0.0", "gcp")
	for _, want := range []string{"not installed: aws 6.0.0, gcp", "cairn plugin install resource aws 6.0.0 and cairn plugin install resource gcp"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want it to say %q", err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(e.dir, "run.json")); err == nil {
		t.Error("the program ran without its plugins")
	}
}
