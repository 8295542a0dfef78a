package monitor

import (
	"context"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/rpc"
)

// ReadResource implements pulumirpc.ResourceMonitorServer.
func (m *Monitor) ReadResource(ctx context.Context, req *pulumirpc.ReadResourceRequest) (*pulumirpc.ReadResourceResponse, error) {
	props, err := rpc.UnmarshalMap(req.GetProperties(), m.reading)
	if err != nil {
		return nil, badRequest("resource %s: %v", req.GetName(), err)
	}
	version, _, err := m.packageVersion(req.GetPackageRef(), req.GetVersion(), req.GetPluginDownloadURL())
	if err != nil {
		return nil, err
	}
	resp, err := m.mon.ReadResource(ctx, deploy.ReadResourceRequest{
		Type: req.GetType(), Name: req.GetName(), ID: resource.ID(req.GetId()), Parent: resource.URN(req.GetParent()),
		Properties: props, Dependencies: rpc.URNs(req.GetDependencies()), Provider: req.GetProvider(), Version: version,
		AdditionalSecretOutputs: req.GetAdditionalSecretOutputs(),
	})
	if err != nil {
		return nil, failed(err)
	}
	out, err := rpc.MarshalMap(resp.Outputs, rpc.Options{KeepUnknowns: true, KeepSecrets: req.GetAcceptSecrets(),
		KeepResources: req.GetAcceptResources()})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "resource %s: writing its state: %v", resp.URN, err)
	}
	return &pulumirpc.ReadResourceResponse{Urn: string(resp.URN), Id: req.GetId(), Properties: out}, nil
}

// Invoke implements pulumirpc.ResourceMonitorServer.
func (m *Monitor) Invoke(ctx context.Context, req *pulumirpc.ResourceInvokeRequest) (*pulumirpc.ResourceInvokeResponse, error) {
	args, err := rpc.UnmarshalMap(req.GetArgs(), m.reading)
	if err != nil {
		return nil, badRequest("invoke %s: %v", req.GetTok(), err)
	}
	version, url, err := m.packageVersion(req.GetPackageRef(), req.GetVersion(), req.GetPluginDownloadURL())
	if err != nil {
		return nil, err
	}
	resp, err := m.mon.Invoke(ctx, deploy.InvokeRequest{Token: req.GetTok(), Args: args, Provider: req.GetProvider(), Version: version,
		PluginDownloadURL: url, Parameterization: m.parameterization(req.GetPackageRef())})
	if err != nil {
		return nil, failed(err)
	}
	ret, err := rpc.MarshalMap(resp.Return, rpc.Options{KeepUnknowns: true, KeepSecrets: true,
		KeepResources: req.GetAcceptResources(), KeepOutputValues: req.GetAcceptOutputValues()})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "invoke %s: writing its result: %v", req.GetTok(), err)
	}
	return &pulumirpc.ResourceInvokeResponse{Return: ret, Unknown: resp.Unknown}, nil
}

// Call implements pulumirpc.ResourceMonitorServer.
func (m *Monitor) Call(ctx context.Context, req *pulumirpc.ResourceCallRequest) (*pulumirpc.CallResponse, error) {
	args, err := rpc.UnmarshalMap(req.GetArgs(), m.reading)
	if err != nil {
		return nil, badRequest("call %s: %v", req.GetTok(), err)
	}
	version, _, err := m.packageVersion(req.GetPackageRef(), req.GetVersion(), req.GetPluginDownloadURL())
	if err != nil {
		return nil, err
	}
	resp, err := m.mon.Call(ctx, deploy.CallRequest{Token: req.GetTok(), Args: args,
		ArgDependencies: rpc.DepsFromWire(req.GetArgDependencies()), Provider: req.GetProvider(), Version: version})
	if err != nil {
		return nil, failed(err)
	}
	ret, err := rpc.MarshalMap(resp.Return, rpc.Options{KeepUnknowns: true, KeepSecrets: true, KeepResources: true,
		KeepOutputValues: req.GetAcceptOutputValues()})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "call %s: writing its result: %v", req.GetTok(), err)
	}
	return &pulumirpc.CallResponse{Return: ret,
		ReturnDependencies: rpc.DepsToWire(resp.ReturnDependencies, func(urns []string) *pulumirpc.CallResponse_ReturnDependencies {
			return &pulumirpc.CallResponse_ReturnDependencies{Urns: urns}
		})}, nil
}
