package serve

import (
	"context"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/rpc"
)

// Invoke implements pulumirpc.ResourceProviderServer.
func (s *Server) Invoke(ctx context.Context, req *pulumirpc.InvokeRequest) (*pulumirpc.InvokeResponse, error) {
	m, err := maps(req.GetArgs())
	if err != nil {
		return nil, err
	}
	resp, err := s.p.Invoke(ctx, provider.InvokeRequest{Token: req.GetTok(), Args: m[0], Preview: req.GetPreview()})
	if err != nil {
		return reply[*pulumirpc.InvokeResponse](nil, err)
	}
	ret, err := rpc.MarshalMap(resp.Return, sending)
	return reply(&pulumirpc.InvokeResponse{Return: ret, Failures: rpc.FailuresToWire(resp.Failures)}, err)
}

// Call implements pulumirpc.ResourceProviderServer.
func (s *Server) Call(ctx context.Context, req *pulumirpc.CallRequest) (*pulumirpc.CallResponse, error) {
	m, err := maps(req.GetArgs())
	if err != nil {
		return nil, err
	}
	resp, err := s.p.Call(ctx, provider.CallRequest{Token: req.GetTok(), Args: m[0],
		ArgDependencies: rpc.DepsFromWire(req.GetArgDependencies()), Project: req.GetProject(), Stack: req.GetStack(),
		Config: req.GetConfig(), ConfigSecretKeys: req.GetConfigSecretKeys(), DryRun: req.GetDryRun(), Parallel: int(req.GetParallel()), MonitorAddress: req.GetMonitorEndpoint()})
	if err != nil {
		return reply[*pulumirpc.CallResponse](nil, err)
	}
	ret, err := rpc.MarshalMap(resp.Return, sendingOutputs(req.GetAcceptsOutputValues()))
	return reply(&pulumirpc.CallResponse{Return: ret, Failures: rpc.FailuresToWire(resp.Failures),
		ReturnDependencies: rpc.DepsToWire(resp.ReturnDependencies, func(urns []string) *pulumirpc.CallResponse_ReturnDependencies {
			return &pulumirpc.CallResponse_ReturnDependencies{Urns: urns}
		})}, err)
}

// Construct implements pulumirpc.ResourceProviderServer.
func (s *Server) Construct(ctx context.Context, req *pulumirpc.ConstructRequest) (*pulumirpc.ConstructResponse, error) {
	m, err := maps(req.GetInputs())
	if err != nil {
		return nil, err
	}
	timeouts, err := rpc.Timeouts(req.GetCustomTimeouts())
	if err != nil {
		return nil, badRequest(err)
	}
	var aliases []resource.URN
	for _, a := range req.GetAliases() {
		if u := a.GetUrn(); u != "" {
			aliases = append(aliases, resource.URN(u))
		}
	}
	resp, err := s.p.Construct(ctx, provider.ConstructRequest{
		Project: req.GetProject(), Stack: req.GetStack(), Config: req.GetConfig(), ConfigSecretKeys: req.GetConfigSecretKeys(),
		DryRun: req.GetDryRun(), Parallel: int(req.GetParallel()), MonitorAddress: req.GetMonitorEndpoint(),
		Type: req.GetType(), Name: req.GetName(), Parent: resource.URN(req.GetParent()), Inputs: m[0],
		InputDependencies: rpc.DepsFromWire(req.GetInputDependencies()), Providers: req.GetProviders(),
		Protect: req.GetProtect(), Dependencies: rpc.URNs(req.GetDependencies()), Aliases: aliases,
		AdditionalSecretOutputs: req.GetAdditionalSecretOutputs(), CustomTimeouts: timeouts,
		DeletedWith: resource.URN(req.GetDeletedWith()), DeleteBeforeReplace: req.GetDeleteBeforeReplace(),
		IgnoreChanges: req.GetIgnoreChanges(), ReplaceOnChanges: req.GetReplaceOnChanges(), RetainOnDelete: req.GetRetainOnDelete(),
	})
	if err != nil {
		return reply[*pulumirpc.ConstructResponse](nil, err)
	}
	state, err := rpc.MarshalMap(resp.Outputs, sendingOutputs(req.GetAcceptsOutputValues()))
	return reply(&pulumirpc.ConstructResponse{Urn: string(resp.URN), State: state,
		StateDependencies: rpc.DepsToWire(resp.OutputDependencies, func(urns []string) *pulumirpc.ConstructResponse_PropertyDependencies {
			return &pulumirpc.ConstructResponse_PropertyDependencies{Urns: urns}
		})}, err)
}
