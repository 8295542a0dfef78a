package host

import (
	"context"
	"errors"
	"slices"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/internal/rpc"
)

// GetPluginInfo implements provider.Provider: the plugin declares
// InputsOnly by the response header rpc.InputsOnlyHeader.
func (p *Plugin) GetPluginInfo(ctx context.Context) (provider.PluginInfo, error) {
	var header metadata.MD
	resp, err := rpcCall(ctx, p, "GetPluginInfo", 0, p.client.GetPluginInfo, &emptypb.Empty{}, grpc.Header(&header))
	if err != nil {
		return provider.PluginInfo{}, err
	}
	return provider.PluginInfo{Version: trimV(resp.GetVersion()), InputsOnly: slices.Contains(header.Get(rpc.InputsOnlyHeader), "true")}, nil
}

// GetSchema implements provider.Provider.
func (p *Plugin) GetSchema(ctx context.Context, req provider.GetSchemaRequest) ([]byte, error) {
	resp, err := rpcCall(ctx, p, "GetSchema", 0, p.client.GetSchema, &pulumirpc.GetSchemaRequest{Version: int32(req.Version)})
	if err != nil {
		return nil, err
	}
	return []byte(resp.GetSchema()), nil
}

// Parameterize implements provider.Provider.
func (p *Plugin) Parameterize(ctx context.Context, req provider.ParameterizeRequest) (provider.ParameterizeResponse, error) {
	wire := &pulumirpc.ParameterizeRequest{}
	if req.Args != nil {
		wire.Parameters = &pulumirpc.ParameterizeRequest_Args{Args: &pulumirpc.ParameterizeRequest_ParametersArgs{Args: req.Args}}
	} else {
		wire.Parameters = &pulumirpc.ParameterizeRequest_Value{Value: &pulumirpc.ParameterizeRequest_ParametersValue{
			Name: req.Name, Version: req.Version, Value: req.Value}}
	}
	resp, err := rpcCall(ctx, p, "Parameterize", 0, p.client.Parameterize, wire)
	if err != nil {
		return provider.ParameterizeResponse{}, err
	}
	return provider.ParameterizeResponse{Name: resp.GetName(), Version: trimV(resp.GetVersion())}, nil
}

// SignalCancellation implements provider.Provider. A plugin that does not
// implement Cancel has nothing to stop early, as Pulumi treats it.
func (p *Plugin) SignalCancellation(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, err := rpcCall(ctx, p, "Cancel", 0, p.client.Cancel, &emptypb.Empty{})
	if errors.Is(err, provider.ErrNotImplemented) {
		return nil
	}
	return err
}

func trimV(v string) string {
	if len(v) > 1 && v[0] == 'v' {
		return v[1:]
	}
	return v
}
