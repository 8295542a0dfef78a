package host

import (
	"context"
	"errors"
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/rpc"
)

// Invoke implements provider.Provider. When the arguments held secrets that
// the plugin could not accept, every result is secret.
func (p *Plugin) Invoke(ctx context.Context, req provider.InvokeRequest) (provider.InvokeResponse, error) {
	f, unknownConfig := p.negotiated()
	if unknownConfig {
		return provider.InvokeResponse{}, nil
	}
	args, err := rpc.MarshalMap(orEmpty(req.Args), rpc.Options{KeepSecrets: f.secrets, KeepResources: f.resources})
	if err != nil {
		return provider.InvokeResponse{}, err
	}
	resp, err := rpcCall(ctx, p, "Invoke "+req.Token, 0, p.client.Invoke,
		&pulumirpc.InvokeRequest{Tok: req.Token, Args: args, Preview: req.Preview})
	if err != nil {
		return provider.InvokeResponse{}, err
	}
	ret, err := rpc.UnmarshalMap(resp.GetReturn(), receiving(false))
	if err != nil {
		return provider.InvokeResponse{}, err
	}
	if !f.secrets && req.Args.ContainsSecrets() {
		for k, v := range ret {
			ret[k] = resource.MakeSecret(v)
		}
	}
	return provider.InvokeResponse{Return: ret, Failures: rpc.FailuresFromWire(resp.GetFailures())}, nil
}

// Call implements provider.Provider.
func (p *Plugin) Call(ctx context.Context, req provider.CallRequest) (provider.CallResponse, error) {
	f, unknownConfig := p.negotiated()
	if unknownConfig {
		return provider.CallResponse{}, nil
	}
	args, err := rpc.MarshalMap(orEmpty(req.Args), rpc.Options{KeepUnknowns: true, KeepSecrets: true, KeepResources: true,
		KeepOutputValues: f.outputs})
	if err != nil {
		return provider.CallResponse{}, err
	}
	resp, err := rpcCall(ctx, p, "Call "+req.Token, 0, p.client.Call, &pulumirpc.CallRequest{
		Tok: req.Token, Args: args, Project: req.Project, Stack: req.Stack, Config: req.Config, ConfigSecretKeys: req.ConfigSecretKeys,
		DryRun: req.DryRun, Parallel: int32(req.Parallel), MonitorEndpoint: req.MonitorAddress, AcceptsOutputValues: true,
		ArgDependencies: rpc.DepsToWire(req.ArgDependencies, func(urns []string) *pulumirpc.CallRequest_ArgumentDependencies {
			return &pulumirpc.CallRequest_ArgumentDependencies{Urns: urns}
		}),
	})
	if err != nil {
		return provider.CallResponse{}, err
	}
	ret, err := rpc.UnmarshalMap(resp.GetReturn(), componentOutputs(req.DryRun))
	if err != nil {
		return provider.CallResponse{}, err
	}
	return provider.CallResponse{Return: ret, ReturnDependencies: rpc.DepsFromWire(resp.GetReturnDependencies()),
		Failures: rpc.FailuresFromWire(resp.GetFailures())}, nil
}

// componentOutputs says how the results of Construct and Call are read:
// output values are kept, unknowns only in a preview.
func componentOutputs(dryRun bool) rpc.Options {
	o := receiving(dryRun)
	o.KeepOutputValues = true
	return o
}

// Construct implements provider.Provider: the plugin registers the
// component and its children on the monitor at req.MonitorAddress and
// returns the component's URN and outputs. A plugin that is not configured
// yet (during a preview) is not asked: the component is registered without
// children and its outputs are unknown.
func (p *Plugin) Construct(ctx context.Context, req provider.ConstructRequest) (provider.ConstructResponse, error) {
	f, unknownConfig := p.negotiated()
	if unknownConfig {
		return registerUnknownComponent(ctx, req)
	}
	if !f.secrets {
		return provider.ConstructResponse{}, fmt.Errorf("%s cannot construct %s: plugins that construct components must accept secrets", p.proc.Name(), req.Type)
	}
	inputs, err := rpc.MarshalMap(orEmpty(req.Inputs), rpc.Options{KeepUnknowns: true, KeepSecrets: true,
		KeepResources: f.resources, KeepOutputValues: f.outputs})
	if err != nil {
		return provider.ConstructResponse{}, err
	}
	wire := &pulumirpc.ConstructRequest{
		Project: req.Project, Stack: req.Stack, Config: req.Config, ConfigSecretKeys: req.ConfigSecretKeys,
		DryRun: req.DryRun, Parallel: int32(req.Parallel), MonitorEndpoint: req.MonitorAddress,
		Type: req.Type, Name: req.Name, Parent: string(req.Parent), Inputs: inputs,
		InputDependencies: rpc.DepsToWire(req.InputDependencies, func(urns []string) *pulumirpc.ConstructRequest_PropertyDependencies {
			return &pulumirpc.ConstructRequest_PropertyDependencies{Urns: urns}
		}),
		Providers: req.Providers, Protect: &req.Protect, Dependencies: rpc.Strings(req.Dependencies),
		AdditionalSecretOutputs: req.AdditionalSecretOutputs, DeletedWith: string(req.DeletedWith),
		DeleteBeforeReplace: &req.DeleteBeforeReplace, IgnoreChanges: req.IgnoreChanges,
		ReplaceOnChanges: req.ReplaceOnChanges, RetainOnDelete: &req.RetainOnDelete, AcceptsOutputValues: true,
	}
	for _, a := range req.Aliases {
		wire.Aliases = append(wire.Aliases, &pulumirpc.Alias{Alias: &pulumirpc.Alias_Urn{Urn: string(a)}})
	}
	if t := req.CustomTimeouts; !t.IsZero() {
		wire.CustomTimeouts = &pulumirpc.ConstructRequest_CustomTimeouts{
			Create: rpc.Duration(t.Create), Update: rpc.Duration(t.Update), Delete: rpc.Duration(t.Delete), Read: rpc.Duration(t.Read)}
	}
	resp, err := rpcCall(ctx, p, "Construct "+req.Type, 0, p.client.Construct, wire)
	if err != nil {
		return provider.ConstructResponse{}, err
	}
	outputs, err := rpc.UnmarshalMap(resp.GetState(), componentOutputs(req.DryRun))
	if err != nil {
		return provider.ConstructResponse{}, err
	}
	return provider.ConstructResponse{URN: resource.URN(resp.GetUrn()), Outputs: outputs,
		OutputDependencies: rpc.DepsFromWire(resp.GetStateDependencies())}, nil
}

// registerUnknownComponent registers a component whose provider cannot
// construct it yet, so that a preview still shows it.
func registerUnknownComponent(ctx context.Context, req provider.ConstructRequest) (provider.ConstructResponse, error) {
	if req.MonitorAddress == "" {
		return provider.ConstructResponse{}, errors.New("constructing a component needs the address of the resource monitor")
	}
	conn, err := grpc.NewClient(req.MonitorAddress, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return provider.ConstructResponse{}, err
	}
	defer conn.Close()
	resp, err := pulumirpc.NewResourceMonitorClient(conn).RegisterResource(ctx, &pulumirpc.RegisterResourceRequest{
		Type: req.Type, Name: req.Name, Parent: string(req.Parent), Object: &structpb.Struct{},
		Protect: &req.Protect, Dependencies: rpc.Strings(req.Dependencies), Providers: req.Providers,
	})
	if err != nil {
		return provider.ConstructResponse{}, fmt.Errorf("registering component %s: %w", req.Name, err)
	}
	return provider.ConstructResponse{URN: resource.URN(resp.GetUrn()), Outputs: resource.Map{}}, nil
}
