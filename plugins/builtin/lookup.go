package builtin

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/props"
)

// ResourceLookup finds the resources of the current deployment. The engine
// implements it over the deployment it runs.
type ResourceLookup interface {
	// LookupResource returns the state of the resource with the URN that
	// the current deployment has registered or read so far, or false when
	// it has none.
	LookupResource(ctx context.Context, urn resource.URN) (*resource.State, bool)
}

// ResourceLookupFunc adapts a function to the ResourceLookup interface.
type ResourceLookupFunc func(ctx context.Context, urn resource.URN) (*resource.State, bool)

// LookupResource calls f.
func (f ResourceLookupFunc) LookupResource(ctx context.Context, urn resource.URN) (*resource.State, bool) {
	return f(ctx, urn)
}

// getResource is the pulumi:pulumi:getResource function: a resource of the
// current deployment by URN.
func (p *Provider) getResource(ctx context.Context, args resource.Map) (resource.Map, error) {
	urn, _ := props.String(args, "urn")
	if p.opts.Resources == nil {
		return nil, fmt.Errorf("cannot look up %s: this deployment was started without access to its resources", urn)
	}
	s, ok := p.opts.Resources.LookupResource(ctx, resource.URN(urn))
	if !ok {
		return nil, fmt.Errorf("unknown resource %s: no resource with this URN has been registered or read in this deployment", urn)
	}
	return resource.Map{
		"urn":      resource.String(urn),
		"id":       resource.String(string(s.ID)),
		"provider": resource.String(s.Provider),
		"state":    resource.Object(s.Outputs),
	}, nil
}
