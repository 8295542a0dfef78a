package host

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
)

// loadPackage loads the provider of a package the project serves by a
// parameterized provider: the entry's plugin, parameterized with its
// arguments.
func (r *Resolver) loadPackage(ctx context.Context, pkg string, env []string) (provider.Provider, error) {
	spec := r.opts.Packages[pkg]
	p, err := r.load(ctx, spec.Source, spec.Version, "", env)
	if err != nil {
		return nil, fmt.Errorf("package %q of Pulumi.yaml: %w", pkg, err)
	}
	resp, err := p.Parameterize(ctx, provider.ParameterizeRequest{Args: append([]string{}, spec.Parameters...)})
	if err == nil && resp.Name != pkg {
		err = fmt.Errorf("parameterized with %q it serves package %q; name the entry %q or change its parameters", spec.Parameters, resp.Name, resp.Name)
	}
	if err != nil {
		_ = p.Close()
		return nil, fmt.Errorf("package %q of Pulumi.yaml, served by the %s provider: %w", pkg, spec.Source, err)
	}
	return p, nil
}

// Parameterization returns how the engine serves a package of the
// project's `packages:`: the version of the plugin serving it and the value
// form of its parameterization, which the plugin reports in its schema once
// parameterized with the entry's arguments, as Pulumi's SDK generation
// reads it.
func (r *Resolver) Parameterization(ctx context.Context, pkg string) (string, *deploy.Parameterization, error) {
	p, err := r.loadPackage(ctx, pkg, nil)
	if err != nil {
		return "", nil, err
	}
	defer p.Close()
	info, err := p.GetPluginInfo(ctx)
	if err != nil {
		return "", nil, err
	}
	data, err := p.GetSchema(ctx, provider.GetSchemaRequest{})
	if err != nil {
		return "", nil, fmt.Errorf("package %q: the schema of the parameterized %s provider: %w", pkg, r.opts.Packages[pkg].Source, err)
	}
	var s struct {
		Version          string `json:"version"`
		Parameterization *struct {
			Parameter []byte `json:"parameter"` // base64 in JSON
		} `json:"parameterization"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return "", nil, fmt.Errorf("package %q: reading its schema: %w", pkg, err)
	}
	if s.Parameterization == nil {
		return "", nil, fmt.Errorf("package %q: the %s provider's schema has no parameterization after it was parameterized; it cannot be recorded in the state", pkg, r.opts.Packages[pkg].Source)
	}
	return info.Version, &deploy.Parameterization{Plugin: r.opts.Packages[pkg].Source, Name: pkg, Version: s.Version, Value: s.Parameterization.Parameter}, nil
}
