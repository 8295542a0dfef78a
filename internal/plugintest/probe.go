package plugintest

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	codegenrpc "github.com/pulumi/pulumi/sdk/v3/proto/go/codegen"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/encoding/protojson"
)

// ProbeHostRole is a language host, pulumi-language-probe, that shows what
// Cairn gives a host. The program needs the plugins its runtime option
// "require" lists ("name", "name@version" or "name@version@downloadURL",
// for GetRequiredPackages), and
// its dependencies are missing (GetProgramDependencies fails) until
// InstallDependencies has written "installed" in the program's folder. Run
// writes the RunRequest to run.json in the program's folder, with what the
// engine's health service and schema Loader (asked for the first required
// package) answered.
var ProbeHostRole = Role{Name: "pulumi-language-probe", Run: func(ctx context.Context, args []string) error {
	return ServeGRPC(ctx, func(s *grpc.Server) {
		pulumirpc.RegisterLanguageRuntimeServer(s, &probe{engine: args[len(args)-1]})
	})
}}

type probe struct {
	pulumirpc.UnimplementedLanguageRuntimeServer
	engine string
}

// Probed is what the probe host writes to run.json.
type Probed struct {
	Request json.RawMessage
	// Health is the health service's status, or its error.
	Health string
	// Schema is the name in the schema the Loader gave, or its error.
	Schema string
}

func (h *probe) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	var out Probed
	var err error
	if out.Request, err = protojson.Marshal(req); err != nil {
		return nil, err
	}
	if conn, err := grpc.NewClient(h.engine, grpc.WithTransportCredentials(insecure.NewCredentials())); err == nil {
		resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{})
		out.Health = resp.GetStatus().String()
		if err != nil {
			out.Health = err.Error()
		}
		_ = conn.Close()
	}
	if conn, err := grpc.NewClient(req.GetLoaderTarget(), grpc.WithTransportCredentials(insecure.NewCredentials())); err == nil {
		required := req.GetInfo().GetOptions().GetFields()["require"].GetListValue().GetValues()
		pkg, _, _ := strings.Cut(required[0].GetStringValue(), "@")
		resp, err := codegenrpc.NewLoaderClient(conn).GetSchema(ctx, &codegenrpc.GetSchemaRequest{Package: pkg})
		var schema struct{ Name string }
		if err == nil {
			err = json.Unmarshal(resp.GetSchema(), &schema)
		}
		out.Schema = schema.Name
		if err != nil {
			out.Schema = err.Error()
		}
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
		version, server, _ := strings.Cut(version, "@")
		resp.Packages = append(resp.Packages, &pulumirpc.PackageDependency{Name: name, Kind: "resource", Version: version, Server: server})
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
