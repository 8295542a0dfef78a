// Package host runs resource provider plugins for the engine.
//
// A Plugin is a provider.Provider backed by a plugin process speaking the
// Pulumi ResourceProvider protocol: Launch starts the binary with the
// engine's address, reads its port, handshakes (falling back to the flags
// of Configure when the plugin does not implement Handshake) and then turns
// every provider method into its RPC. Values are marshalled with what the
// plugin negotiated (see package rpc); secrets a plugin cannot accept are
// sent plainly and re-marked on what comes back. Every call has a deadline
// (the request's own timeout plus a grace period, or a generous default),
// and a plugin that exits fails the calls in flight at once, so a crashed or
// hung plugin fails its steps with a ProcessError instead of hanging Cairn.
//
// A Resolver is the provider.Host the CLI gives the engine. It decides which
// implementation serves a package, in this order:
//
//  1. the project's `packages:` (and HCL required_providers with
//     parameters): the named provider plugin, parameterized with the
//     entry's arguments;
//  2. the project's `plugins: providers:` entries (name, path to the folder
//     holding the binary or to the binary, version);
//  3. a built-in provider (a provider.Factory) whose version satisfies the
//     request, optionally isolated in a child process ("cairn plugin serve
//     <pkg>", see package serve);
//  4. a pulumi-resource-<pkg> binary found on disk (see package locate):
//     the version asked for, else the newest compatible one. With an
//     installer (package install), a version asked for that is not on disk
//     is downloaded first, as Pulumi's automatic plugin acquisition does.
//
// The Resolver also serves the Engine service that its plugins log to,
// keeps the schemas of plugins of known versions in a cache folder, and
// Close shuts every plugin it started down.
//
//	r := host.NewResolver(host.ResolverOptions{Project: proj.Plugins.Providers, Builtins: builtins, Dirs: locate.DefaultDirs()})
//	defer r.Close()
//	res, err := deploy.Update(ctx, deploy.Options{Host: r, ...}, base)
package host
