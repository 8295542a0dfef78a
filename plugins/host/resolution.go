package host

import (
	"context"
	"sort"

	"golang.org/x/mod/semver"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/internal/locate"
)

// Source is where a provider comes from.
type Source string

// The sources of providers, in the order they are preferred.
const (
	SourceProject Source = "project"
	SourceBuiltin Source = "built-in"
	SourcePlugin  Source = "plugin"
)

// Resolution is one implementation that can serve a package.
type Resolution struct {
	Pkg     string
	Version string // empty when a plugin binary's location does not tell
	Source  Source
	Path    string // the binary, for project entries and plugins
	// Isolated is set for built-in providers run in a child process.
	Isolated bool
	// Active is set on the implementation a request for the package without
	// a version gets.
	Active bool

	factory provider.Factory // the built-in's
}

func (res Resolution) describe() string {
	switch res.Source {
	case SourceBuiltin:
		return "the built-in provider"
	case SourceProject:
		return "the project's plugins entry " + res.Path
	}
	return res.Path
}

// resolve picks the implementation for a request.
func (r *Resolver) resolve(pkg, version string) (Resolution, bool) {
	for _, e := range r.opts.Project {
		if e.Name == pkg && e.Path != "" {
			return Resolution{Pkg: pkg, Version: e.Version, Source: SourceProject, Path: locate.InFolder(e.Path, locate.Resource, pkg)}, true
		}
	}
	version = r.pinned(pkg, version)
	if f, ok := provider.Select(r.opts.Builtins, pkg, version); ok {
		return Resolution{Pkg: pkg, Version: f.Version, Source: SourceBuiltin, Isolated: r.isolated(pkg), factory: f}, true
	}
	if c, ok := locate.Best(r.opts.Dirs.Find(locate.Resource, pkg), version); ok {
		return Resolution{Pkg: pkg, Version: c.Version, Source: SourcePlugin, Path: c.Path}, true
	}
	return Resolution{}, false
}

// pinned returns the version the project's plugins entry for pkg pins, if
// it has one without a path, else version.
func (r *Resolver) pinned(pkg, version string) string {
	for _, e := range r.opts.Project {
		if e.Name == pkg && e.Path == "" && e.Version != "" {
			return e.Version
		}
	}
	return version
}

// List returns every implementation the resolver knows, by package, in the
// order they are preferred, marking the one each package resolves to: what
// `cairn plugin ls` shows.
func (r *Resolver) List() []Resolution {
	var out []Resolution
	for _, e := range r.opts.Project {
		out = append(out, Resolution{Pkg: e.Name, Version: e.Version, Source: SourceProject, Path: locate.InFolder(e.Path, locate.Resource, e.Name)})
	}
	builtins := append(provider.Factories(nil), r.opts.Builtins...)
	sort.SliceStable(builtins, func(i, j int) bool {
		return semver.Compare("v"+builtins[i].Version, "v"+builtins[j].Version) > 0
	})
	for _, f := range builtins {
		out = append(out, Resolution{Pkg: f.Pkg, Version: f.Version, Source: SourceBuiltin, Isolated: r.isolated(f.Pkg)})
	}
	for _, c := range r.opts.Dirs.All(locate.Resource) {
		out = append(out, Resolution{Pkg: c.Name, Version: c.Version, Source: SourcePlugin, Path: c.Path})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pkg < out[j].Pkg })
	for i := range out {
		active, ok := r.resolve(out[i].Pkg, "")
		out[i].Active = ok && active.Source == out[i].Source && active.Path == out[i].Path && active.Version == out[i].Version
	}
	return out
}

// Ensure makes sure the resolver has a provider for pkg at version (""
// for any) without starting it, installing the plugin from url ("" means
// Pulumi's release locations) as Load does: when none is found, or another
// version is while automatic installation is on. It fails with a
// *provider.NotFoundError when the plugin is missing and cannot be
// installed (installation is off, or no version is asked for).
func (r *Resolver) Ensure(ctx context.Context, pkg, version, url string) error {
	res, ok := r.resolve(pkg, version)
	if ok && !r.installable(res, version) {
		return nil
	}
	_, err := r.acquire(ctx, pkg, version, url)
	return err
}
