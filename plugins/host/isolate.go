package host

import (
	"context"

	"github.com/cairn-iac/cairn/engine/provider"
)

// Isolate returns a factory whose instances are not made in-process but by
// running command (for Cairn's own providers, "<cairn> plugin serve <pkg>",
// which serves the factory's provider with package serve) and talking to
// it as to any plugin. The instances are *Plugin values.
func Isolate(f provider.Factory, command []string, o Options) provider.Factory {
	return provider.Factory{Pkg: f.Pkg, Version: f.Version, New: func(ctx context.Context) (provider.Provider, error) {
		return Launch(ctx, f.Pkg, command, o)
	}}
}
