package provider

import (
	"context"
	"fmt"
	"strings"

	"golang.org/x/mod/semver"
)

// Host loads provider instances for the engine.
type Host interface {
	// Load returns a new, unconfigured instance of the newest provider of
	// package pkg whose version is compatible with version ("" means any).
	Load(ctx context.Context, pkg, version string) (Provider, error)
}

// EnvHost is a Host that can start a provider with environment variables
// renamed, as Pulumi's envVarMappings resource option asks: for each entry,
// when the variable named by the key is set, the provider sees its value
// under the name of the value.
type EnvHost interface {
	Host
	LoadWithEnv(ctx context.Context, pkg, version string, mappings map[string]string) (Provider, error)
}

// DownloadHost is a Host that can install a provider it does not have from
// the download URL a program or state names (Pulumi's pluginDownloadURL).
type DownloadHost interface {
	Host
	LoadFrom(ctx context.Context, pkg, version, downloadURL string) (Provider, error)
}

// SchemaHost is a Host that can give a package's schema without the caller
// loading its provider, e.g. from a cache; a provider it does not have it
// installs from downloadURL when it can.
type SchemaHost interface {
	Schema(ctx context.Context, pkg, version, downloadURL string) ([]byte, error)
}

// IdentifyHost is a Host that can identify the provider a Load would
// return without starting it (a plugin process), so that the engine can
// tell whether what it recorded still holds before deciding to start it.
type IdentifyHost interface {
	Host
	// Identify identifies the provider of package pkg that Load(pkg,
	// version) would return; ok is false when it cannot be told without
	// starting it (or installing it).
	Identify(ctx context.Context, pkg, version string) (id Identity, ok bool)
}

// Identity identifies a provider implementation without starting it.
type Identity struct {
	// Plugin names the implementation: its version, or for a plugin binary
	// whose location does not tell its version, the binary's path, size
	// and modification time. Never empty.
	Plugin string
	// InputsOnly is the provider's PluginInfo.InputsOnly, when it is known
	// without starting the provider; false says nothing.
	InputsOnly bool
}

// Factory makes instances of one provider implementation.
type Factory struct {
	Pkg     string
	Version string // semantic version without "v"
	New     func(ctx context.Context) (Provider, error)
}

// Factories is a Host over a fixed list of factories.
type Factories []Factory

// Load picks the newest compatible factory of pkg and makes an instance.
func (fs Factories) Load(ctx context.Context, pkg, version string) (Provider, error) {
	best, ok := Select(fs, pkg, version)
	if !ok {
		return nil, &NotFoundError{Pkg: pkg, Version: version}
	}
	return best.New(ctx)
}

// Select returns the newest factory of pkg compatible with version, as
// Pulumi's engine looks plugins up: among factories of the package whose
// version is compatible, the newest wins.
func Select(fs []Factory, pkg, version string) (Factory, bool) {
	var best Factory
	found := false
	for _, f := range fs {
		if f.Pkg != pkg || !Compatible(f.Version, version) {
			continue
		}
		if !found || semver.Compare("v"+f.Version, "v"+best.Version) > 0 {
			best, found = f, true
		}
	}
	return best, found
}

// Compatible reports whether an implementation at version have can serve a
// request for version want: any version when want is empty, otherwise the
// same major version and no older than want.
func Compatible(have, want string) bool {
	if want == "" {
		return true
	}
	h, w := "v"+strings.TrimPrefix(have, "v"), "v"+strings.TrimPrefix(want, "v")
	if !semver.IsValid(h) || !semver.IsValid(w) {
		return have == want
	}
	return semver.Major(h) == semver.Major(w) && semver.Compare(h, w) >= 0
}

// NotFoundError says no provider could serve a package at a version.
type NotFoundError struct {
	Pkg     string
	Version string
}

func (e *NotFoundError) Error() string {
	v := ""
	if e.Version != "" {
		v = " compatible with version " + e.Version
	}
	return fmt.Sprintf("no provider for package %q%s: install the plugin pulumi-resource-%s or list it under plugins.providers in Pulumi.yaml", e.Pkg, v, e.Pkg)
}
