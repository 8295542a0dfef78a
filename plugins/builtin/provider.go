package builtin

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/google/uuid"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/props"
)

// Version is the version of the built-in provider.
const Version = "0.1.0"

// The type tokens the provider serves.
const (
	StackReferenceType = "pulumi:pulumi:StackReference"
	StashType          = "pulumi:index:Stash"
	ReadStackOutputs   = "pulumi:pulumi:readStackOutputs"
	GetResource        = "pulumi:pulumi:getResource"
)

//go:embed schema.json
var schemaJSON []byte

var pkg = props.MustLoad(schemaJSON, Version)

// Options give the provider access to what lies outside the stack it serves.
// Either may be nil; the resources and functions that need it then fail.
type Options struct {
	Stacks    StackReader    // for stack references and readStackOutputs
	Resources ResourceLookup // for getResource
}

// Provider is the provider of the "pulumi" package.
type Provider struct {
	props.Base
	opts Options
}

// New returns a provider of the "pulumi" package.
func New(opts Options) *Provider { return &Provider{Base: props.Base{Schema: pkg}, opts: opts} }

// GetPluginInfo returns the version of the package. It does not declare
// InputsOnly: a stack reference's Diff reads the other stack's outputs.
func (p *Provider) GetPluginInfo(context.Context) (provider.PluginInfo, error) {
	return provider.PluginInfo{Version: Version}, nil
}

// Factory returns the factory of the provider, for a provider.Host.
func Factory(opts Options) provider.Factory {
	return provider.Factory{Pkg: pkg.Name, Version: Version, New: func(context.Context) (provider.Provider, error) {
		return New(opts), nil
	}}
}

// Check validates a stack reference's or a stash's inputs.
func (p *Provider) Check(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	return p.CheckInputs(req)
}

// Diff replaces a stack reference whose name changed, and updates one whose
// stack's outputs changed since they were read; it updates a stash whose
// input changed.
func (p *Provider) Diff(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	resp, err := p.DiffInputs(req)
	if err == nil && req.Type == StackReferenceType && resp.Changes == provider.DiffNone {
		return p.diffStackOutputs(ctx, req)
	}
	return resp, err
}

// Create reads the outputs of a stack reference's stack, or stores a stash's
// input.
func (p *Provider) Create(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	var outputs resource.Map
	var err error
	switch req.Type {
	case StackReferenceType:
		outputs, err = p.readReference(ctx, req.Inputs)
	case StashType:
		outputs = resource.Map{"input": req.Inputs["input"], "output": req.Inputs["input"]}
	default:
		_, err = props.Resource(pkg, req.Type)
	}
	if err != nil || req.Preview {
		return provider.CreateResponse{Outputs: outputs}, err
	}
	return provider.CreateResponse{ID: resource.ID(uuid.NewString()), Outputs: outputs}, nil
}

// Read reads a stack reference's stack again, or returns a stash as it was
// recorded (with nothing stored, when it is imported).
func (p *Provider) Read(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	switch req.Type {
	case StackReferenceType:
		return p.readStackReference(ctx, req)
	case StashType:
		if req.Inputs == nil && req.Outputs == nil {
			return provider.ReadResponse{ID: req.ID, Inputs: resource.Map{"input": resource.Null},
				Outputs: resource.Map{"input": resource.Null, "output": resource.Null}}, nil
		}
		return provider.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
	}
	_, err := props.Resource(pkg, req.Type)
	return provider.ReadResponse{}, err
}

// Update reads a stack reference's stack again, or records a stash's new
// input while keeping what it stored.
func (p *Provider) Update(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	switch req.Type {
	case StackReferenceType:
		outputs, err := p.readReference(ctx, req.News)
		return provider.UpdateResponse{Outputs: outputs}, err
	case StashType:
		return provider.UpdateResponse{Outputs: resource.Map{"input": req.News["input"], "output": req.OldOutputs["output"]}}, nil
	}
	_, err := props.Resource(pkg, req.Type)
	return provider.UpdateResponse{}, err
}

// Delete deletes nothing: neither resource exists outside the state.
func (p *Provider) Delete(_ context.Context, req provider.DeleteRequest) error {
	_, err := props.Resource(pkg, req.Type)
	return err
}

// Invoke calls readStackOutputs or getResource.
func (p *Provider) Invoke(ctx context.Context, req provider.InvokeRequest) (provider.InvokeResponse, error) {
	fs, err := p.CheckArgs(req)
	if err != nil || len(fs) > 0 {
		return provider.InvokeResponse{Failures: fs}, err
	}
	var ret resource.Map
	switch req.Token {
	case ReadStackOutputs:
		name, _ := props.String(req.Args, "name")
		ret, err = p.stackOutputs(ctx, name)
	case GetResource:
		ret, err = p.getResource(ctx, req.Args)
	default:
		err = fmt.Errorf("function %s is declared but not implemented; this is a bug in the pulumi provider", req.Token)
	}
	return provider.InvokeResponse{Return: ret}, err
}
