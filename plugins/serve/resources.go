package serve

import (
	"context"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/rpc"
)

func (s *Server) check(ctx context.Context, req *pulumirpc.CheckRequest,
	method func(context.Context, provider.CheckRequest) (provider.CheckResponse, error)) (*pulumirpc.CheckResponse, error) {
	m, err := maps(req.GetOlds(), req.GetNews())
	if err != nil {
		return nil, err
	}
	urn, name, typ := names(req.GetUrn(), req.GetName(), req.GetType())
	resp, err := method(ctx, provider.CheckRequest{URN: urn, Name: name, Type: typ, Olds: m[0], News: m[1], Seed: func() ([]byte, error) { return req.GetRandomSeed(), nil }})
	if err != nil {
		return reply[*pulumirpc.CheckResponse](nil, err)
	}
	return reply(rpc.WithProperties(&pulumirpc.CheckResponse{Failures: rpc.FailuresToWire(resp.Failures)},
		rpc.Property{Field: "inputs", Map: resp.Inputs, Opts: sending}))
}

func (s *Server) diff(ctx context.Context, req *pulumirpc.DiffRequest,
	method func(context.Context, provider.DiffRequest) (provider.DiffResponse, error)) (*pulumirpc.DiffResponse, error) {
	m, err := maps(req.GetOldInputs(), req.GetOlds(), req.GetNews())
	if err != nil {
		return nil, err
	}
	urn, name, typ := names(req.GetUrn(), req.GetName(), req.GetType())
	resp, err := method(ctx, provider.DiffRequest{URN: urn, Name: name, Type: typ, ID: resource.ID(req.GetId()),
		OldInputs: m[0], OldOutputs: m[1], News: m[2], IgnoreChanges: req.GetIgnoreChanges()})
	if err != nil {
		return reply[*pulumirpc.DiffResponse](nil, err)
	}
	return rpc.DiffToWire(resp), nil
}

// CheckConfig implements pulumirpc.ResourceProviderServer.
func (s *Server) CheckConfig(ctx context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	return s.check(ctx, req, s.p.CheckConfig)
}

// DiffConfig implements pulumirpc.ResourceProviderServer.
func (s *Server) DiffConfig(ctx context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	return s.diff(ctx, req, s.p.DiffConfig)
}

// Configure implements pulumirpc.ResourceProviderServer. Engines that send
// only the deprecated variables have their values passed as strings.
func (s *Server) Configure(ctx context.Context, req *pulumirpc.ConfigureRequest) (*pulumirpc.ConfigureResponse, error) {
	m, err := maps(req.GetArgs())
	if err != nil {
		return nil, err
	}
	inputs := m[0]
	if req.GetArgs() == nil {
		inputs = resource.Map{}
		//lint:ignore SA1019 an engine that predates Args sends only the variables
		for k, v := range req.GetVariables() {
			inputs[k[strings.LastIndexByte(k, ':')+1:]] = resource.String(v)
		}
	}
	resp, err := s.p.Configure(ctx, provider.ConfigureRequest{URN: resource.URN(req.GetUrn()), Name: req.GetName(),
		Type: req.GetType(), ID: resource.ID(req.GetId()), Inputs: inputs})
	return reply(&pulumirpc.ConfigureResponse{AcceptSecrets: resp.AcceptSecrets, AcceptResources: resp.AcceptResources,
		AcceptOutputs: resp.AcceptOutputs, SupportsPreview: resp.SupportsPreview}, err)
}

// Check implements pulumirpc.ResourceProviderServer.
func (s *Server) Check(ctx context.Context, req *pulumirpc.CheckRequest) (*pulumirpc.CheckResponse, error) {
	return s.check(ctx, req, s.p.Check)
}

// Diff implements pulumirpc.ResourceProviderServer.
func (s *Server) Diff(ctx context.Context, req *pulumirpc.DiffRequest) (*pulumirpc.DiffResponse, error) {
	return s.diff(ctx, req, s.p.Diff)
}

// Create implements pulumirpc.ResourceProviderServer.
func (s *Server) Create(ctx context.Context, req *pulumirpc.CreateRequest) (*pulumirpc.CreateResponse, error) {
	m, err := maps(req.GetProperties())
	if err != nil {
		return nil, err
	}
	urn, name, typ := names(req.GetUrn(), req.GetName(), req.GetType())
	resp, err := s.p.Create(ctx, provider.CreateRequest{URN: urn, Name: name, Type: typ, Inputs: m[0],
		Timeout: seconds(req.GetTimeout()), Preview: req.GetPreview()})
	if err != nil {
		return reply[*pulumirpc.CreateResponse](nil, err)
	}
	return reply(rpc.WithProperties(&pulumirpc.CreateResponse{Id: string(resp.ID)}, rpc.Property{Field: "properties", Map: resp.Outputs, Opts: sending}))
}

// Read implements pulumirpc.ResourceProviderServer.
func (s *Server) Read(ctx context.Context, req *pulumirpc.ReadRequest) (*pulumirpc.ReadResponse, error) {
	m, err := maps(req.GetInputs(), req.GetProperties())
	if err != nil {
		return nil, err
	}
	urn, name, typ := names(req.GetUrn(), req.GetName(), req.GetType())
	resp, err := s.p.Read(ctx, provider.ReadRequest{URN: urn, Name: name, Type: typ, ID: resource.ID(req.GetId()),
		Inputs: m[0], Outputs: m[1], Timeout: seconds(req.GetTimeout())})
	if err != nil {
		return reply[*pulumirpc.ReadResponse](nil, err)
	}
	return reply(rpc.WithProperties(&pulumirpc.ReadResponse{Id: string(resp.ID)},
		rpc.Property{Field: "properties", Map: resp.Outputs, Opts: sending}, rpc.Property{Field: "inputs", Map: resp.Inputs, Opts: sending}))
}

// Update implements pulumirpc.ResourceProviderServer.
func (s *Server) Update(ctx context.Context, req *pulumirpc.UpdateRequest) (*pulumirpc.UpdateResponse, error) {
	m, err := maps(req.GetOldInputs(), req.GetOlds(), req.GetNews())
	if err != nil {
		return nil, err
	}
	urn, name, typ := names(req.GetUrn(), req.GetName(), req.GetType())
	resp, err := s.p.Update(ctx, provider.UpdateRequest{URN: urn, Name: name, Type: typ, ID: resource.ID(req.GetId()),
		OldInputs: m[0], OldOutputs: m[1], News: m[2], Timeout: seconds(req.GetTimeout()),
		IgnoreChanges: req.GetIgnoreChanges(), Preview: req.GetPreview()})
	if err != nil {
		return reply[*pulumirpc.UpdateResponse](nil, err)
	}
	return reply(rpc.WithProperties(&pulumirpc.UpdateResponse{}, rpc.Property{Field: "properties", Map: resp.Outputs, Opts: sending}))
}

// Delete implements pulumirpc.ResourceProviderServer.
func (s *Server) Delete(ctx context.Context, req *pulumirpc.DeleteRequest) (*emptypb.Empty, error) {
	m, err := maps(req.GetOldInputs(), req.GetProperties())
	if err != nil {
		return nil, err
	}
	urn, name, typ := names(req.GetUrn(), req.GetName(), req.GetType())
	err = s.p.Delete(ctx, provider.DeleteRequest{URN: urn, Name: name, Type: typ, ID: resource.ID(req.GetId()),
		Inputs: m[0], Outputs: m[1], Timeout: seconds(req.GetTimeout())})
	return reply(&emptypb.Empty{}, err)
}
