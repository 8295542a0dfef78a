package host

import (
	"context"
	"errors"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/rpc"
)

// sending returns how values go to the plugin: with what it accepts, and
// unknowns only when they are allowed.
func (f features) sending(unknowns bool) rpc.Options {
	return rpc.Options{KeepUnknowns: unknowns, RejectUnknowns: !unknowns, KeepSecrets: f.secrets, KeepResources: f.resources}
}

// receiving says how values from a plugin are read: everything it sends is
// kept, and unknowns only when they are allowed.
func receiving(unknowns bool) rpc.Options {
	return rpc.Options{KeepUnknowns: unknowns, RejectUnknowns: !unknowns, KeepSecrets: true, KeepResources: true}
}

// remark re-applies the secret marks a plugin that does not accept secrets
// could not keep, to outputs and to the outputs of a partial failure.
func (f features) remark(outputs, inputs resource.Map, err error) (resource.Map, error) {
	if f.secrets {
		return outputs, err
	}
	var ie *provider.InitError
	if errors.As(err, &ie) {
		ie.Outputs = rpc.RemarkSecrets(ie.Outputs, inputs)
	}
	return rpc.RemarkSecrets(outputs, inputs), err
}

// checkMethod and diffMethod are the RPCs Check and CheckConfig, and Diff
// and DiffConfig, share.
type (
	checkMethod func(context.Context, *pulumirpc.CheckRequest, ...grpc.CallOption) (*pulumirpc.CheckResponse, error)
	diffMethod  func(context.Context, *pulumirpc.DiffRequest, ...grpc.CallOption) (*pulumirpc.DiffResponse, error)
)

// check sends a check request with o and reads the answer, re-marking the
// secrets f says the plugin could not keep.
func (p *Plugin) check(ctx context.Context, op string, method checkMethod, req provider.CheckRequest, o rpc.Options, f features) (provider.CheckResponse, error) {
	seed, err := req.RandomSeed()
	if err != nil {
		return provider.CheckResponse{}, err
	}
	wire, err := rpc.WithProperties(&pulumirpc.CheckRequest{Urn: string(req.URN), Name: req.Name, Type: req.Type, RandomSeed: seed},
		rpc.Property{Field: "olds", Map: orEmpty(req.Olds), Opts: o}, rpc.Property{Field: "news", Map: orEmpty(req.News), Opts: o})
	if err != nil {
		return provider.CheckResponse{}, err
	}
	resp, err := rpcCall(ctx, p, op, 0, method, wire)
	if err != nil {
		return provider.CheckResponse{}, err
	}
	inputs, err := rpc.UnmarshalMap(resp.GetInputs(), receiving(true))
	if err != nil {
		return provider.CheckResponse{}, err
	}
	inputs, _ = f.remark(inputs, req.News, nil)
	return provider.CheckResponse{Inputs: inputs, Failures: rpc.FailuresFromWire(resp.GetFailures())}, nil
}

// diff sends a diff request with o and reads the answer.
func (p *Plugin) diff(ctx context.Context, op string, method diffMethod, req provider.DiffRequest, o rpc.Options) (provider.DiffResponse, error) {
	wire, err := rpc.WithProperties(&pulumirpc.DiffRequest{Id: string(req.ID), Urn: string(req.URN), Name: req.Name,
		Type: req.Type, IgnoreChanges: req.IgnoreChanges},
		rpc.Property{Field: "olds", Map: orEmpty(req.OldOutputs), Opts: o}, rpc.Property{Field: "old_inputs", Map: orEmpty(req.OldInputs), Opts: o},
		rpc.Property{Field: "news", Map: orEmpty(req.News), Opts: o})
	if err != nil {
		return provider.DiffResponse{}, err
	}
	resp, err := rpcCall(ctx, p, op, 0, method, wire)
	if err != nil {
		return provider.DiffResponse{}, err
	}
	return rpc.DiffFromWire(resp), nil
}

// Check implements provider.Provider.
func (p *Plugin) Check(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	f, unknownConfig := p.negotiated()
	if unknownConfig {
		return provider.CheckResponse{Inputs: req.News}, nil
	}
	return p.check(ctx, "Check", p.client.Check, req, f.sending(true), f)
}

// Diff implements provider.Provider.
func (p *Plugin) Diff(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	f, unknownConfig := p.negotiated()
	if unknownConfig {
		return provider.DiffResponse{Changes: provider.DiffUnknown}, nil
	}
	return p.diff(ctx, "Diff", p.client.Diff, req, f.sending(true))
}

// Create implements provider.Provider. In a preview, a plugin that does not
// support previews (or is not configured yet) is not asked: the inputs stand
// for the outputs.
func (p *Plugin) Create(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	f, unknownConfig := p.negotiated()
	if req.Preview && (unknownConfig || !f.preview) {
		return provider.CreateResponse{Outputs: req.Inputs}, nil
	}
	wire, err := rpc.WithProperties(&pulumirpc.CreateRequest{Urn: string(req.URN), Name: req.Name, Type: req.Type,
		Timeout: req.Timeout.Seconds(), Preview: req.Preview},
		rpc.Property{Field: "properties", Map: orEmpty(req.Inputs), Opts: f.sending(req.Preview)})
	if err != nil {
		return provider.CreateResponse{}, err
	}
	resp, err := rpcCall(ctx, p, "Create", req.Timeout, p.client.Create, wire)
	if err != nil {
		_, err = f.remark(nil, req.Inputs, err)
		return provider.CreateResponse{}, err
	}
	outputs, err := rpc.UnmarshalMap(resp.GetProperties(), receiving(req.Preview))
	if err != nil {
		return provider.CreateResponse{}, err
	}
	outputs, _ = f.remark(outputs, req.Inputs, nil)
	return provider.CreateResponse{ID: resource.ID(resp.GetId()), Outputs: outputs}, nil
}

// Read implements provider.Provider. A plugin that is not configured yet
// (during a preview) is not asked: the resource is taken to be as recorded.
func (p *Plugin) Read(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	f, unknownConfig := p.negotiated()
	if unknownConfig {
		return provider.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
	}
	o := f.sending(false)
	wire, err := rpc.WithProperties(&pulumirpc.ReadRequest{Id: string(req.ID), Urn: string(req.URN), Name: req.Name,
		Type: req.Type, Timeout: req.Timeout.Seconds()},
		rpc.Property{Field: "properties", Map: req.Outputs, Opts: o}, rpc.Property{Field: "inputs", Map: req.Inputs, Opts: o})
	if err != nil {
		return provider.ReadResponse{}, err
	}
	resp, err := rpcCall(ctx, p, "Read", req.Timeout, p.client.Read, wire)
	if err != nil {
		_, err = f.remark(nil, req.Outputs, err)
		return provider.ReadResponse{}, err
	}
	out := provider.ReadResponse{ID: resource.ID(resp.GetId())}
	if out.Outputs, err = rpc.UnmarshalMap(resp.GetProperties(), receiving(false)); err != nil {
		return provider.ReadResponse{}, err
	}
	if out.Inputs, err = rpc.UnmarshalMap(resp.GetInputs(), receiving(false)); err != nil {
		return provider.ReadResponse{}, err
	}
	out.Outputs, _ = f.remark(out.Outputs, req.Outputs, nil)
	out.Inputs, _ = f.remark(out.Inputs, req.Inputs, nil)
	return out, nil
}

// Update implements provider.Provider; previews behave as for Create.
func (p *Plugin) Update(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	f, unknownConfig := p.negotiated()
	if req.Preview && (unknownConfig || !f.preview) {
		return provider.UpdateResponse{Outputs: req.News}, nil
	}
	old := f.sending(false)
	wire, err := rpc.WithProperties(&pulumirpc.UpdateRequest{Id: string(req.ID), Urn: string(req.URN), Name: req.Name,
		Type: req.Type, Timeout: req.Timeout.Seconds(), IgnoreChanges: req.IgnoreChanges, Preview: req.Preview},
		rpc.Property{Field: "olds", Map: orEmpty(req.OldOutputs), Opts: old}, rpc.Property{Field: "old_inputs", Map: orEmpty(req.OldInputs), Opts: old},
		rpc.Property{Field: "news", Map: orEmpty(req.News), Opts: f.sending(req.Preview)})
	if err != nil {
		return provider.UpdateResponse{}, err
	}
	resp, err := rpcCall(ctx, p, "Update", req.Timeout, p.client.Update, wire)
	if err != nil {
		_, err = f.remark(nil, req.News, err)
		return provider.UpdateResponse{}, err
	}
	outputs, err := rpc.UnmarshalMap(resp.GetProperties(), receiving(req.Preview))
	if err != nil {
		return provider.UpdateResponse{}, err
	}
	outputs, _ = f.remark(outputs, req.News, nil)
	return provider.UpdateResponse{Outputs: outputs}, nil
}

// Delete implements provider.Provider.
func (p *Plugin) Delete(ctx context.Context, req provider.DeleteRequest) error {
	f, _ := p.negotiated()
	o := f.sending(false)
	wire, err := rpc.WithProperties(&pulumirpc.DeleteRequest{Id: string(req.ID), Urn: string(req.URN), Name: req.Name,
		Type: req.Type, Timeout: req.Timeout.Seconds()},
		rpc.Property{Field: "properties", Map: orEmpty(req.Outputs), Opts: o}, rpc.Property{Field: "old_inputs", Map: orEmpty(req.Inputs), Opts: o})
	if err != nil {
		return err
	}
	_, err = rpcCall(ctx, p, "Delete", req.Timeout, p.client.Delete, wire)
	return err
}
