package builtin

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/props"
)

// readReference returns the outputs of the stack a stack reference names;
// while the name is unknown (in a preview), so are the outputs.
func (p *Provider) readReference(ctx context.Context, inputs resource.Map) (resource.Map, error) {
	name, ok := props.String(inputs, "name")
	if !ok {
		return resource.Map{"name": inputs["name"], "outputs": resource.Unknown(), "secretOutputNames": resource.Unknown()}, nil
	}
	return p.stackOutputs(ctx, name)
}

// readStackReference serves Read: a program reading a stack reference (the
// stack's name is the ID and the "name" input), or a refresh.
func (p *Provider) readStackReference(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	inputs := req.Inputs
	if inputs == nil {
		inputs = req.Outputs
	}
	for k := range props.Visible(inputs) {
		if k != "name" {
			return provider.ReadResponse{}, fmt.Errorf("a stack reference has one input, \"name\"; remove %q", k)
		}
	}
	name, ok := props.String(inputs, "name")
	if !ok {
		return provider.ReadResponse{}, fmt.Errorf("a stack reference cannot be imported by ID (%q): declare it in the program with the name of the stack it reads", req.ID)
	}
	outputs, err := p.stackOutputs(ctx, name)
	if err != nil {
		return provider.ReadResponse{}, err
	}
	return provider.ReadResponse{ID: req.ID, Inputs: resource.Map{"name": inputs["name"]}, Outputs: outputs}, nil
}

// diffStackOutputs reports an update of a registered stack reference whose
// stack's outputs are no longer those it recorded, so that the next update
// reads them again rather than keeping stale ones.
func (p *Provider) diffStackOutputs(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	name, ok := props.String(req.News, "name")
	if !ok || p.opts.Stacks == nil {
		return provider.DiffResponse{Changes: provider.DiffNone}, nil
	}
	fresh, err := p.stackOutputs(ctx, name)
	if err != nil {
		return provider.DiffResponse{}, err
	}
	var changed []string
	detailed := resource.DetailedDiff{}
	for _, k := range []string{"outputs", "secretOutputNames"} {
		if !fresh[k].Equal(req.OldOutputs[k]) {
			changed = append(changed, k)
			detailed[k] = resource.PropertyDiff{Kind: resource.DiffUpdate}
		}
	}
	if len(changed) == 0 {
		return provider.DiffResponse{Changes: provider.DiffNone}, nil
	}
	return provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: changed, DetailedDiff: detailed}, nil
}
