package main

import (
	"context"
	_ "embed"
	"time"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/props"
)

//go:embed schema.json
var schemaJSON []byte

// sleeper is the latency provider: Check and Diff answer at once, from the
// schema; Create, Read, Update and Delete (not their previews) sleep first.
type sleeper struct {
	props.Base
	delay time.Duration
}

func (p *sleeper) sleep(ctx context.Context) error {
	select {
	case <-time.After(p.delay):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Check implements provider.Provider.
func (p *sleeper) Check(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	return p.CheckInputs(req)
}

// Diff implements provider.Provider.
func (p *sleeper) Diff(_ context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	return p.DiffInputs(req)
}

// Create implements provider.Provider.
func (p *sleeper) Create(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	if !req.Preview {
		if err := p.sleep(ctx); err != nil {
			return provider.CreateResponse{}, err
		}
	}
	return provider.CreateResponse{ID: resource.ID(req.Name), Outputs: req.Inputs}, nil
}

// Read implements provider.Provider.
func (p *sleeper) Read(ctx context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	if err := p.sleep(ctx); err != nil {
		return provider.ReadResponse{}, err
	}
	return provider.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
}

// Update implements provider.Provider.
func (p *sleeper) Update(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	if !req.Preview {
		if err := p.sleep(ctx); err != nil {
			return provider.UpdateResponse{}, err
		}
	}
	return provider.UpdateResponse{Outputs: req.News}, nil
}

// Delete implements provider.Provider.
func (p *sleeper) Delete(ctx context.Context, _ provider.DeleteRequest) error {
	return p.sleep(ctx)
}
