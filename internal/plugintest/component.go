package plugintest

import (
	"context"
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/rpc"
)

// Construct implements provider.Provider: the component <pkg>:index:Pair
// registers itself and two items, "<name>-left" and "<name>-right", whose
// values are the input "prefix" followed by "-left" and "-right", on the
// engine's monitor, as a component written in another language would.
// Its outputs are the two values.
func (k *KV) Construct(ctx context.Context, req provider.ConstructRequest) (provider.ConstructResponse, error) {
	if req.Type != k.pkg+":index:Pair" {
		return provider.ConstructResponse{}, fmt.Errorf("unknown component %s", req.Type)
	}
	conn, err := grpc.NewClient(req.MonitorAddress, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return provider.ConstructResponse{}, err
	}
	defer conn.Close()
	mon := pulumirpc.NewResourceMonitorClient(conn)
	comp, err := mon.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: req.Type, Name: req.Name,
		Parent: string(req.Parent), Object: &structpb.Struct{}, Dependencies: rpc.Strings(req.Dependencies)})
	if err != nil {
		return provider.ConstructResponse{}, fmt.Errorf("registering the component: %w", err)
	}
	prefix := req.Inputs["prefix"].Unsecret()
	if !prefix.IsString() {
		prefix = resource.String(req.Name)
	}
	outs := resource.Map{}
	for _, side := range []string{"left", "right"} {
		obj, err := rpc.MarshalMap(resource.Map{"value": resource.String(prefix.StringValue() + "-" + side)}, rpc.Everything)
		if err != nil {
			return provider.ConstructResponse{}, err
		}
		child, err := mon.RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{Type: k.pkg + ":index:Item",
			Name: req.Name + "-" + side, Parent: comp.GetUrn(), Custom: true, Object: obj, Providers: req.Providers,
			AcceptSecrets: true, AcceptResources: true, SupportsPartialValues: true})
		if err != nil {
			return provider.ConstructResponse{}, fmt.Errorf("registering the %s item: %w", side, err)
		}
		state, err := rpc.UnmarshalMap(child.GetObject(), rpc.Everything)
		if err != nil {
			return provider.ConstructResponse{}, err
		}
		outs[side] = state["value"]
	}
	wire, err := rpc.MarshalMap(outs, rpc.Everything)
	if err != nil {
		return provider.ConstructResponse{}, err
	}
	if _, err := mon.RegisterResourceOutputs(ctx, &pulumirpc.RegisterResourceOutputsRequest{Urn: comp.GetUrn(), Outputs: wire}); err != nil {
		return provider.ConstructResponse{}, fmt.Errorf("registering the component's outputs: %w", err)
	}
	return provider.ConstructResponse{URN: resource.URN(comp.GetUrn()), Outputs: outs}, nil
}
