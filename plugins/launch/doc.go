// Package launch starts plugin processes and connects to them, following
// the anchor's launch protocol: the plugin is run with the engine's address
// as its last argument, listens on a local port, prints that port as the
// first line of its standard output, and serves gRPC there.
//
// Everything else a plugin prints, on standard output or standard error,
// goes to the log under the plugin's name; the last lines of standard error
// are kept to explain a crash. A Process notices when its plugin exits, so
// that callers can fail the calls in flight at once instead of waiting for a
// deadline, and Close stops the plugin: gracefully first, by force after a
// grace period.
//
//	p, err := launch.Start(ctx, launch.Spec{Name: "pulumi-resource-aws", Path: path, Args: []string{engineAddr}})
//	client := pulumirpc.NewResourceProviderClient(p.Conn())
//	defer p.Close()
package launch
