package eval

import (
	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
)

// Package is a package of the project served by a parameterized provider
// (Pulumi.yaml packages): its resources and functions are registered with
// the version of the plugin serving it and its parameterization.
type Package struct {
	PluginVersion    string
	Parameterization *deploy.Parameterization
}

// parameterize adds to a request for token (a provider's type, for a
// provider) the parameterization of its package, when the project
// declares it; it returns the version to ask for.
func (p *Program) parameterize(token, version string) (string, *deploy.Parameterization) {
	name := resource.TypePackage(token)
	if resource.IsProviderType(token) {
		name = resource.ProviderTypePackage(token)
	}
	pkg, ok := p.Packages[name]
	if !ok {
		return version, nil
	}
	if version == "" {
		version = pkg.PluginVersion
	}
	return version, pkg.Parameterization
}
