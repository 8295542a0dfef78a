package deploy

import (
	"context"
	"errors"
	"fmt"

	"github.com/cairn-iac/cairn/engine/provider"
)

// construct has a remote component built by its provider's Construct: the
// provider registers the component and its children on this deployment's
// monitor, served for it, so the component has no step of its own here. No
// worker slot is held meanwhile: the children's steps need them.
func (d *deployment) construct(ctx context.Context, req *RegisterRequest) (*RegisterResponse, error) {
	parent, err := d.parentRecord(ctx, req.Parent)
	if err != nil {
		return nil, fmt.Errorf("resource %s %q: %w", req.Type, req.Name, err)
	}
	urn := d.urnFor(req.Parent, req.Type, req.Name)
	providers, err := inheritedProviders(parent, req)
	if err != nil {
		return nil, fmt.Errorf("resource %s: %w", urn, err)
	}
	ref, err := d.providerRef(ctx, req, providers)
	if err != nil {
		return nil, fmt.Errorf("resource %s: %w", urn, err)
	}
	p, err := d.reg.get(ctx, ref)
	if err != nil {
		return nil, fmt.Errorf("resource %s: %w", urn, err)
	}
	env, err := d.componentEnv()
	if err == nil && env.monitor == "" {
		err = errors.New("remote components are constructed by their provider, over a monitor this deployment does not serve (Options.ServeMonitor is not set)")
	}
	if err != nil {
		return nil, fmt.Errorf("resource %s: %w", urn, err)
	}
	creq := provider.ConstructRequest{
		Project: d.opts.Project, Stack: d.opts.Stack, Config: env.config, ConfigSecretKeys: env.secretKeys,
		DryRun: d.opts.DryRun, Parallel: d.opts.parallel(), MonitorAddress: env.monitor,
		Type: req.Type, Name: req.Name, Parent: req.Parent, Inputs: req.Properties,
		InputDependencies: req.PropertyDependencies, Providers: providers, Dependencies: req.Dependencies,
		Aliases: d.aliasURNs(req, parent), AdditionalSecretOutputs: req.AdditionalSecretOutputs,
		DeletedWith: req.DeletedWith, IgnoreChanges: req.IgnoreChanges, ReplaceOnChanges: req.ReplaceOnChanges,
		Protect: deref(req.Protect), DeleteBeforeReplace: deref(req.DeleteBeforeReplace), RetainOnDelete: deref(req.RetainOnDelete),
	}
	if req.CustomTimeouts != nil {
		creq.CustomTimeouts = *req.CustomTimeouts
	}
	resp, err := p.Construct(ctx, creq)
	if err != nil {
		return nil, d.fail(urn, OpCreate, fmt.Errorf("constructing the component: %w", err))
	}
	return &RegisterResponse{URN: resp.URN, Outputs: resp.Outputs, PropertyDependencies: resp.OutputDependencies}, nil
}

// componentEnv is what providers that register resources themselves
// (Construct, Call) are given: the stack's configuration as strings, and the
// address of the monitor, empty when none is served.
type componentEnv struct {
	config     map[string]string
	secretKeys []string
	monitor    string
}

func (d *deployment) componentEnv() (componentEnv, error) {
	config, secretKeys, err := provider.ConfigStrings(d.opts.Config)
	if err != nil {
		return componentEnv{}, err
	}
	addr, err := d.monitorAddress()
	if err != nil {
		return componentEnv{}, fmt.Errorf("serving the monitor: %w", err)
	}
	return componentEnv{config: config, secretKeys: secretKeys, monitor: addr}, nil
}

// monitorAddress starts serving this deployment's monitor on first use and
// returns its address ("" without Options.ServeMonitor).
func (d *deployment) monitorAddress() (string, error) {
	d.serveMu.Lock()
	defer d.serveMu.Unlock()
	if d.opts.ServeMonitor == nil || d.served {
		return d.serveAddr, d.serveErr
	}
	d.served = true
	d.serveAddr, d.serveStop, d.serveErr = d.opts.ServeMonitor(d)
	return d.serveAddr, d.serveErr
}

// stopServing stops the monitor server, if one was started.
func (d *deployment) stopServing() {
	d.serveMu.Lock()
	defer d.serveMu.Unlock()
	if d.serveStop != nil {
		d.serveStop()
		d.serveStop = nil
	}
}

func deref(b *bool) bool { return b != nil && *b }
