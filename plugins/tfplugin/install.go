package tfplugin

import (
	"context"
	"sync"

	"github.com/cairn-iac/cairn/plugins/tfinstall"
)

// devVersion is the version a development override (the CLI
// configuration's dev_overrides), which has none, is served at.
const devVersion = "0.0.0"

// installs installs providers with tfinstall, once per request in a
// process: the providers of one deployment share a package, and the lock
// file is read and the package hashed once.
type installs struct {
	opts tfinstall.Options
	mu   sync.Mutex
	m    map[tfinstall.Request]*installation
}

type installation struct {
	once sync.Once
	pkg  *tfinstall.Package
	err  error
}

// install returns the package of req's provider, installing it first when
// it must (see tfinstall.Install).
func (in *installs) install(ctx context.Context, req tfinstall.Request) (*tfinstall.Package, error) {
	in.mu.Lock()
	i := in.m[req]
	if i == nil {
		i = &installation{}
		in.m[req] = i
	}
	in.mu.Unlock()
	i.once.Do(func() { i.pkg, i.err = tfinstall.Install(ctx, in.opts, req) })
	return i.pkg, i.err
}
