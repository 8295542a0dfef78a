package host

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/workspace"
)

// AddPackage adds a package served by a parameterized provider that a
// program declares to those of the project file.
func (r *Resolver) AddPackage(name string, spec workspace.PackageSpec) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.opts.Packages == nil {
		r.opts.Packages = map[string]workspace.PackageSpec{}
	}
	r.opts.Packages[name] = spec
	r.declared[name] = true
}

// packageError names in err the package it is about, and the plugin
// serving it if source is not "", when that is a package of the project
// file: a program that declares a package (HCL's required_providers)
// names it in its own diagnostic.
func (r *Resolver) packageError(pkg, source string, err error) error {
	r.mu.Lock()
	declared := r.declared[pkg]
	r.mu.Unlock()
	switch {
	case declared:
		return err
	case source != "":
		return fmt.Errorf("package %q of Pulumi.yaml, served by the %s provider: %w", pkg, source, err)
	}
	return fmt.Errorf("package %q of Pulumi.yaml: %w", pkg, err)
}

// Packages returns the names of the packages served by parameterized
// providers, sorted.
func (r *Resolver) Packages() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := make([]string, 0, len(r.opts.Packages))
	for name := range r.opts.Packages {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// packageSpec returns the spec of a package served by a parameterized
// provider, if pkg is one.
func (r *Resolver) packageSpec(pkg string) (workspace.PackageSpec, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	spec, ok := r.opts.Packages[pkg]
	return spec, ok
}

// loadPackage loads the provider of a package the project serves by a
// parameterized provider: the entry's plugin, parameterized with its
// arguments.
func (r *Resolver) loadPackage(ctx context.Context, pkg string, spec workspace.PackageSpec, env []string) (provider.Provider, error) {
	p, err := r.load(ctx, spec.Source, spec.Version, "", env)
	if err != nil {
		return nil, r.packageError(pkg, "", err)
	}
	resp, err := p.Parameterize(ctx, provider.ParameterizeRequest{Args: append([]string{}, spec.Parameters...)})
	if err == nil && resp.Name != pkg {
		err = fmt.Errorf("parameterized with %q it serves package %q; name the entry %q or change its parameters", spec.Parameters, resp.Name, resp.Name)
	}
	if err != nil {
		_ = p.Close()
		return nil, r.packageError(pkg, spec.Source, err)
	}
	return p, nil
}

// Parameterization returns how the engine serves a package of the
// project's `packages:`: the version of the plugin serving it and the value
// form of its parameterization, which the plugin reports in its schema once
// parameterized with the entry's arguments, as Pulumi's SDK generation
// reads it.
func (r *Resolver) Parameterization(ctx context.Context, pkg string) (string, *deploy.Parameterization, error) {
	spec, ok := r.packageSpec(pkg)
	if !ok {
		return "", nil, fmt.Errorf("package %q is not served by a parameterized provider", pkg)
	}
	p, err := r.loadPackage(ctx, pkg, spec, nil)
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
		return "", nil, fmt.Errorf("package %q: the schema of the parameterized %s provider: %w", pkg, spec.Source, err)
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
		return "", nil, fmt.Errorf("package %q: the %s provider's schema has no parameterization after it was parameterized; it cannot be recorded in the state", pkg, spec.Source)
	}
	return info.Version, &deploy.Parameterization{Plugin: spec.Source, Name: pkg, Version: s.Version, Value: s.Parameterization.Parameter}, nil
}
