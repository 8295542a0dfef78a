// Package launch starts plugin processes and connects to them, following
// Pulumi's plugin launch protocol: the plugin is run with the engine's address
// as its last argument, listens on a local port, prints that port as the
// first line of its standard output, and serves gRPC there.
//
// Everything else a plugin prints, on standard output or standard error,
// goes to the log under the plugin's name; the last lines of standard error
// are kept to explain a crash. A Process notices when its plugin exits, so
// that callers can fail the calls in flight at once instead of waiting for a
// deadline, and Close stops the plugin: gracefully first, by force after a
// grace period. A plugin runs in a process group of its own: a Ctrl-C at the
// terminal reaches Cairn alone, and a plugin that is killed (one that never
// prints its port, or does not stop) is killed with what it started.
//
//	p, err := launch.Start(ctx, launch.Spec{Name: "pulumi-resource-aws", Path: path, Args: []string{engineAddr}})
//	client := pulumirpc.NewResourceProviderClient(p.Conn())
//	defer p.Close()
package launch
