package tfbuiltin

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/google/uuid"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/tfstate"
	"github.com/cairn-iac/cairn/internal/props"
	"github.com/cairn-iac/cairn/plugins/command"
)

// Version is the version of the provider.
const Version = "1.0.0"

// DataType is the type token of terraform_data.
const DataType = "terraform:index/data:Data"

//go:embed schema.json
var schemaJSON []byte

var pkg = props.MustLoad(schemaJSON, Version)

// Provider is the provider of the "terraform" package.
type Provider struct {
	props.Base
	// Runs kills the local-exec commands still running when the engine
	// signals cancellation (a second Ctrl-C).
	command.Runs
	dir  string
	diag func(deploy.DiagEvent)
}

// Factory returns the factory of the provider, for a provider.Host. dir is
// the project's folder, from which terraform_remote_state's relative paths
// are read and in which provisioners run; diag, if not nil, gets what
// provisioners print.
func Factory(dir string, diag func(deploy.DiagEvent)) provider.Factory {
	return provider.Factory{Pkg: pkg.Name, Version: Version, New: func(context.Context) (provider.Provider, error) {
		return &Provider{Base: props.Base{Schema: pkg}, dir: dir, diag: diag}, nil
	}}
}

// Invoke reads a data source: terraform_remote_state.
func (p *Provider) Invoke(ctx context.Context, req provider.InvokeRequest) (provider.InvokeResponse, error) {
	fs, err := p.CheckArgs(req)
	if err != nil || len(fs) > 0 {
		return provider.InvokeResponse{Failures: fs}, err
	}
	return remoteState(ctx, p.dir, req.Args), nil
}

// Check checks the inputs against the schema.
func (p *Provider) Check(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	return p.CheckInputs(req)
}

// given are the inputs a terraform_data keeps: input and triggers_replace,
// null ones left out.
func given(m resource.Map) resource.Map {
	out := resource.Map{}
	for _, k := range []string{"input", "triggers_replace"} {
		if v, ok := m[k]; ok && !v.IsNull() {
			out[k] = v
		}
	}
	return out
}

// Diff compares the recorded input and triggers_replace with the new
// ones: a change of triggers_replace replaces the resource, one of input
// updates it.
func (p *Provider) Diff(_ context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	res, err := props.Resource(pkg, req.Type)
	if err != nil {
		return provider.DiffResponse{}, err
	}
	if req.Type == tfstate.ProvisionersType {
		return diffProvisioners(req), nil
	}
	return props.Diff(res, given(req.OldOutputs), given(req.News)), nil
}

// outputs are the outputs of a terraform_data with inputs in and id;
// output is input when applied, unknown otherwise (unless input is null).
func outputs(in resource.Map, id resource.Value, applied bool) resource.Map {
	out := given(in)
	out["id"] = id
	if v, ok := out["input"]; ok {
		out["output"] = v
		if !applied {
			out["output"] = resource.Unknown()
		}
	}
	out[tfstate.MetaKey] = tfstate.Meta{SchemaVersion: "0"}.Value()
	return out
}

// Create chooses the resource's ID.
func (p *Provider) Create(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	if _, err := props.Resource(pkg, req.Type); err != nil {
		return provider.CreateResponse{}, err
	}
	if req.Type == tfstate.ProvisionersType {
		return p.createProvisioners(ctx, req)
	}
	if req.Preview {
		return provider.CreateResponse{ID: resource.UnknownID, Outputs: outputs(req.Inputs, resource.Unknown(), false)}, nil
	}
	id := uuid.NewString()
	return provider.CreateResponse{ID: resource.ID(id), Outputs: outputs(req.Inputs, resource.String(id), true)}, nil
}

// Update records the new input, which output takes; see also
// updateProvisioners.
func (p *Provider) Update(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	if _, err := props.Resource(pkg, req.Type); err != nil {
		return provider.UpdateResponse{}, err
	}
	if req.Type == tfstate.ProvisionersType {
		return p.updateProvisioners(ctx, req)
	}
	applied := !req.Preview || given(req.OldOutputs)["input"].Unsecret().Equal(given(req.News)["input"].Unsecret())
	return provider.UpdateResponse{Outputs: outputs(req.News, req.OldOutputs["id"], applied)}, nil
}

// Read returns the resource as recorded; imported, it has only its ID.
func (p *Provider) Read(_ context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	if _, err := props.Resource(pkg, req.Type); err != nil {
		return provider.ReadResponse{}, err
	}
	if req.Outputs == nil && req.Type == tfstate.ProvisionersType {
		return provider.ReadResponse{}, fmt.Errorf("provisioners cannot be imported: declare them, and they run when their resource is created")
	}
	if req.Outputs == nil {
		return provider.ReadResponse{ID: req.ID, Inputs: resource.Map{},
			Outputs: outputs(nil, resource.String(string(req.ID)), true)}, nil
	}
	return provider.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
}

// Delete deletes nothing: a terraform_data exists in the state only. It
// runs the destroy-time provisioners of provisioners.
func (p *Provider) Delete(ctx context.Context, req provider.DeleteRequest) error {
	if _, err := props.Resource(pkg, req.Type); err != nil {
		return err
	}
	if req.Type == tfstate.ProvisionersType {
		return p.deleteProvisioners(ctx, req)
	}
	return nil
}

// nullResource is the type token of hashicorp/null's null_resource.
const nullResource = "null:index/resource:Resource"

// Move takes over the state of a null_resource as a terraform_data, as
// Terraform's provider does: its triggers become triggers_replace, its id
// and private data stay.
func (p *Provider) Move(_ context.Context, req provider.MoveRequest) (provider.MoveResponse, error) {
	if req.Type != DataType || req.SourceType != nullResource {
		return provider.MoveResponse{}, fmt.Errorf("only a null_resource (%s) moves to a terraform_data, not a %s", nullResource, req.SourceType)
	}
	meta, err := tfstate.MetaOf(req.SourceOutputs)
	if err != nil {
		return provider.MoveResponse{}, err
	}
	in := resource.Map{}
	if t, ok := req.SourceOutputs["triggers"]; ok && !t.IsNull() {
		in["triggers_replace"] = t
	}
	out := outputs(in, req.SourceOutputs["id"], true)
	out[tfstate.MetaKey] = tfstate.Meta{SchemaVersion: "0", Private: meta.Private}.Value()
	return provider.MoveResponse{Inputs: in, Outputs: out}, nil
}
