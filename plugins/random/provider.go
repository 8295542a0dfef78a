package random

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/internal/props"
)

// Version is the version of pulumi-random whose resources and properties
// the provider serves.
const Version = "4.21.1"

//go:embed schema.json
var schemaJSON []byte

var pkg = props.MustLoad(schemaJSON, Version)

// Provider is the provider of the "random" package.
type Provider struct {
	props.Base
}

// New returns a provider of the "random" package.
func New() *Provider { return &Provider{Base: props.Base{Schema: pkg}} }

// Factory returns the factory of the provider, for a provider.Host.
func Factory() provider.Factory {
	return provider.Factory{Pkg: pkg.Name, Version: Version, New: func(context.Context) (provider.Provider, error) {
		return New(), nil
	}}
}

func lookup(tok string) (*schema.Resource, kind, error) {
	res, err := props.Resource(pkg, tok)
	if err != nil {
		return nil, kind{}, err
	}
	return res, kinds[tok], nil
}

// Check validates the inputs and returns them normalized, with defaults. A
// new resource (or a replacement: no olds) also gets the engine's random
// seed recorded under an internal key, from which Create draws its values;
// an existing one keeps the seed it has.
func (p *Provider) Check(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	res, k, err := lookup(req.Type)
	if err != nil {
		return provider.CheckResponse{}, err
	}
	failures := props.Check(pkg, res.InputProperties, res.RequiredInputs, req.News)
	in, fs := normalize(res, req.News)
	failures = append(failures, fs...)
	if len(failures) == 0 {
		failures = k.validate(in)
	}
	if len(failures) > 0 {
		return provider.CheckResponse{Failures: failures}, nil
	}
	seed, ok, err := seedInput(res, req)
	if err != nil {
		return provider.CheckResponse{}, err
	}
	if ok {
		in[seedKey] = seed
	}
	return provider.CheckResponse{Inputs: in}, nil
}

// Diff replaces the resource when any input changed: each one determines
// the value. Inputs are compared normalized, so that a default written out
// or left out is no change.
func (p *Provider) Diff(_ context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	res, _, err := lookup(req.Type)
	if err != nil {
		return provider.DiffResponse{}, err
	}
	olds, _ := normalize(res, props.PriorInputs(res, req))
	news, _ := normalize(res, req.News)
	return props.Diff(res, olds, news), nil
}

// Create draws the resource's values from the seed Check recorded, so that a
// preview shows the values the update will create. While an input is
// unknown, so are the generated outputs.
func (p *Provider) Create(_ context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	res, k, err := lookup(req.Type)
	if err != nil {
		return provider.CreateResponse{}, err
	}
	outputs := props.Visible(req.Inputs)
	derived := derivesFromSecret(req.Inputs)
	if req.Inputs.ContainsUnknowns() {
		for name := range res.Properties {
			if _, ok := res.InputProperties[name]; !ok {
				outputs[name] = resource.Unknown()
			}
		}
		return provider.CreateResponse{Outputs: markSecrets(res, outputs, derived)}, nil
	}
	src := newSource(req.Inputs)
	generated, id, err := k.generate(req.Inputs, src, req.Preview)
	if err != nil {
		return provider.CreateResponse{}, fmt.Errorf("generating the value: %w", err)
	}
	if derived {
		id = src.opaqueID()
	}
	for name, v := range generated {
		outputs[name] = v
	}
	return provider.CreateResponse{ID: id, Outputs: markSecrets(res, outputs, derived)}, nil
}

// Read returns a resource as recorded (its value exists nowhere else), or,
// given only an ID, imports it from the ID where the type allows.
func (p *Provider) Read(_ context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	res, k, err := lookup(req.Type)
	if err != nil {
		return provider.ReadResponse{}, err
	}
	if req.Outputs != nil {
		return provider.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
	}
	if k.importID == nil {
		return provider.ReadResponse{}, fmt.Errorf("a %s cannot be imported: its value cannot be recovered from an ID; declare it and let it be created", resource.TypeName(req.Type))
	}
	id, inputs, generated, err := k.importID(string(req.ID))
	if err != nil {
		return provider.ReadResponse{}, fmt.Errorf("cannot import %s %q: %w", resource.TypeName(req.Type), req.ID, err)
	}
	outputs, _ := normalize(res, inputs)
	for name, v := range generated {
		outputs[name] = v
	}
	return provider.ReadResponse{ID: id, Inputs: inputs, Outputs: markSecrets(res, outputs, false)}, nil
}

// Update records new inputs that change nothing generated (every change that
// would is a replacement), keeping the generated outputs.
func (p *Provider) Update(_ context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	res, _, err := lookup(req.Type)
	if err != nil {
		return provider.UpdateResponse{}, err
	}
	outputs := req.OldOutputs.Copy()
	news := props.Visible(req.News)
	for name := range res.InputProperties {
		if v, ok := news[name]; ok {
			outputs[name] = v
		} else {
			delete(outputs, name)
		}
	}
	return provider.UpdateResponse{Outputs: outputs}, nil
}

// Delete deletes nothing: the values exist only in the state.
func (p *Provider) Delete(_ context.Context, req provider.DeleteRequest) error {
	_, _, err := lookup(req.Type)
	return err
}

// markSecrets wraps as secrets the outputs the schema declares secret and,
// when the values derive from a secret input, every generated output.
func markSecrets(res *schema.Resource, outputs resource.Map, derived bool) resource.Map {
	for name, p := range res.Properties {
		_, input := res.InputProperties[name]
		if v, ok := outputs[name]; ok && !v.IsNull() && (p.Secret || derived && !input) {
			outputs[name] = resource.MakeSecret(v)
		}
	}
	return outputs
}

// derivesFromSecret reports whether a secret input determines the generated
// values: any input but keepers. Keepers only key the stream the values are
// drawn from, and then so does a secret seed (see seedInput), so the values
// cannot be checked against guesses of them.
func derivesFromSecret(inputs resource.Map) bool {
	for k, v := range props.Visible(inputs) {
		if k != "keepers" && v.ContainsSecrets() {
			return true
		}
	}
	return false
}
