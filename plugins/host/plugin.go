package host

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/internal/launch"
)

// Plugin is a provider.Provider served by a plugin process.
type Plugin struct {
	pkg    string
	proc   *launch.Process
	client pulumirpc.ResourceProviderClient
	opts   Options
	// release, set by the Resolver, is called by Close: it reports whether
	// the Resolver took the plugin back, running, to hand out again.
	release func(*Plugin) bool

	mu sync.Mutex
	// features is what the plugin accepts; nil until the handshake or
	// Configure tells.
	features *features
	// unknownConfig is set when the configuration held unknowns (during a
	// preview): the plugin was not configured and Cairn answers for it.
	unknownConfig bool
	// used is set by the first call that may change the plugin: one only
	// asked about itself (a schema) can serve another Load.
	used atomic.Bool
}

var _ provider.Provider = (*Plugin)(nil)

// features are the protocol features a plugin negotiated.
type features struct {
	secrets, resources, outputs, preview bool
}

// Launch starts the plugin command (the binary and any arguments before the
// engine address) as the provider of package pkg, connects to it and
// handshakes.
func Launch(ctx context.Context, pkg string, command []string, o Options) (*Plugin, error) {
	if len(command) == 0 {
		return nil, fmt.Errorf("no command to launch the provider of package %q", pkg)
	}
	name := filepath.Base(command[0])
	proc, err := launch.Start(ctx, launch.Spec{
		Name: name, Path: command[0], Args: append(append([]string(nil), command[1:]...), o.EngineAddress),
		Dir: o.ProgramDirectory, Env: o.Env, Log: o.Log, StartTimeout: o.StartTimeout,
	})
	if err != nil {
		return nil, err
	}
	p := &Plugin{pkg: pkg, proc: proc, client: pulumirpc.NewResourceProviderClient(proc.Conn()), opts: o}
	if err := p.handshake(ctx); err != nil {
		_ = proc.Close()
		return nil, err
	}
	return p, nil
}

// handshake negotiates the protocol; a plugin that does not implement
// Handshake negotiates in its Configure answer instead.
func (p *Plugin) handshake(ctx context.Context) error {
	req := &pulumirpc.ProviderHandshakeRequest{EngineAddress: p.opts.EngineAddress, ConfigureWithUrn: true}
	if p.opts.RootDirectory != "" {
		req.RootDirectory = &p.opts.RootDirectory
	}
	if p.opts.ProgramDirectory != "" {
		req.ProgramDirectory = &p.opts.ProgramDirectory
	}
	resp, err := rpcCall(ctx, p, "Handshake", 0, p.client.Handshake, req)
	switch {
	case errors.Is(err, provider.ErrNotImplemented):
		return nil
	case err != nil:
		return err
	}
	p.features = &features{secrets: resp.GetAcceptSecrets(), resources: resp.GetAcceptResources(),
		outputs: resp.GetAcceptOutputs(), preview: true}
	return nil
}

// negotiated returns the features in force; before any negotiation, none.
func (p *Plugin) negotiated() (features, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.features == nil {
		return features{}, p.unknownConfig
	}
	return *p.features, p.unknownConfig
}

// Pkg implements provider.Provider.
func (p *Plugin) Pkg() string { return p.pkg }

// Process returns the plugin's process.
func (p *Plugin) Process() *launch.Process { return p.proc }

// Close implements provider.Provider: it shuts the plugin down, or gives it
// back to the Resolver that loaded it.
func (p *Plugin) Close() error {
	if p.release != nil && p.release(p) {
		return nil
	}
	return p.proc.Close()
}
