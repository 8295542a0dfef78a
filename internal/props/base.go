package props

import (
	"context"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/schema"
)

// Base is what each built-in provider embeds: provider.Unimplemented's
// answers to the methods it does not offer, and Pkg, GetPluginInfo and
// GetSchema answered from its package schema. GetPluginInfo declares
// InputsOnly: a built-in provider whose Check or Diff reads anything
// beyond its requests and configuration must answer GetPluginInfo itself.
type Base struct {
	provider.Unimplemented
	Schema *schema.Package
}

// Pkg returns the name of the package.
func (b Base) Pkg() string { return b.Schema.Name }

// GetPluginInfo returns the version of the package, and declares that
// Check and Diff answer from their requests alone.
func (b Base) GetPluginInfo(context.Context) (provider.PluginInfo, error) {
	return provider.PluginInfo{Version: b.Schema.Version, InputsOnly: true}, nil
}

// GetSchema returns the package schema as JSON.
func (b Base) GetSchema(context.Context, provider.GetSchemaRequest) ([]byte, error) {
	return b.Schema.Marshal()
}

// CheckInputs checks a resource's new inputs against the schema of its type
// and returns them as they are when they pass.
func (b Base) CheckInputs(req provider.CheckRequest) (provider.CheckResponse, error) {
	res, err := Resource(b.Schema, req.Type)
	if err != nil {
		return provider.CheckResponse{}, err
	}
	if fs := Check(b.Schema, res.InputProperties, res.RequiredInputs, req.News); len(fs) > 0 {
		return provider.CheckResponse{Failures: fs}, nil
	}
	return provider.CheckResponse{Inputs: req.News}, nil
}

// DiffInputs diffs a resource's old and new inputs by the schema of its type
// (see Diff).
func (b Base) DiffInputs(req provider.DiffRequest) (provider.DiffResponse, error) {
	res, err := Resource(b.Schema, req.Type)
	if err != nil {
		return provider.DiffResponse{}, err
	}
	return Diff(res, PriorInputs(res, req), req.News), nil
}

// CheckArgs finds the function of an invoke and checks its arguments
// against the function's schema.
func (b Base) CheckArgs(req provider.InvokeRequest) ([]provider.CheckFailure, error) {
	fn, err := Function(b.Schema, req.Token)
	if err != nil {
		return nil, err
	}
	var props map[string]*schema.Property
	var required []string
	if fn.Inputs != nil {
		props, required = fn.Inputs.Properties, fn.Inputs.Required
	}
	return Check(b.Schema, props, required, req.Args), nil
}
