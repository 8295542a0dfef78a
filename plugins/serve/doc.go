// Package serve serves any provider.Provider as a Pulumi resource provider
// plugin, so that Cairn's built-in providers can run out of process (and be
// used by Pulumi's engine too).
//
// Server translates each ResourceProvider RPC into the provider's method.
// Engines negotiate through Configure, whose answer is the provider's own,
// unless the provider is a Handshaker that can tell before it is configured. Main is the whole plugin process: it
// makes an instance, listens on a local port, prints the port on the first
// line of standard output and serves until its context ends (the CLI cancels
// it when the engine stops the plugin).
//
//	// cairn plugin serve <pkg>
//	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
//	defer stop()
//	err := serve.Main(ctx, factory, os.Stdout)
package serve
