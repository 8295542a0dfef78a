package plugintest

import (
	"context"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"
)

// BareRole serves pulumi-resource-bare, a provider of package "bare" that
// implements only Configure, Check, Diff (leaving the comparison to the
// engine), Create and Delete: every optional method answers UNIMPLEMENTED,
// as many real plugins (Pulumi's Node.js dynamic provider among them) do.
// Its resources get the ID "b1" and their inputs as outputs.
var BareRole = Role{Name: "pulumi-resource-bare", Run: func(ctx context.Context, _ []string) error {
	return ServeGRPC(ctx, func(s *grpc.Server) { pulumirpc.RegisterResourceProviderServer(s, bare{}) })
}}

type bare struct {
	pulumirpc.UnimplementedResourceProviderServer
}

func (bare) Configure(context.Context, *pulumirpc.ConfigureRequest) (*pulumirpc.ConfigureResponse, error) {
	return &pulumirpc.ConfigureResponse{AcceptSecrets: true}, nil
}

func (bare) Check(_ context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	return &pulumirpc.CheckResponse{Inputs: req.GetNews()}, nil
}

func (bare) Diff(context.Context, *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	return &pulumirpc.DiffResponse{}, nil
}

func (bare) Create(_ context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	return &pulumirpc.CreateResponse{Id: "b1", Properties: req.GetProperties()}, nil
}

func (bare) Delete(context.Context, *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}
