package host

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cairn-iac/cairn/engine/provider"
)

var _ provider.IdentifyHost = (*Resolver)(nil)

// Identify implements provider.IdentifyHost: it tells which implementation
// Load(pkg, version) would serve without starting it. A built-in provider
// is identified by its version, and asked in process (which starts
// nothing) whether it declares InputsOnly; a plugin binary by the version
// its location gives (a versioned folder, or the version of the project's
// plugins entry), else by its path, size and modification time, which
// change when it is replaced. A package served by a parameterized
// provider, or one that Load would install first, is not identified.
func (r *Resolver) Identify(ctx context.Context, pkg, version string) (provider.Identity, bool) {
	if _, ok := r.packageSpec(pkg); ok {
		return provider.Identity{}, false
	}
	res, ok := r.resolve(pkg, version)
	if !ok || r.installable(res, version) {
		return provider.Identity{}, false
	}
	if res.Source == SourceBuiltin {
		p, err := res.factory.New(ctx)
		if err != nil {
			return provider.Identity{}, false
		}
		defer p.Close()
		info, err := p.GetPluginInfo(ctx)
		if err != nil || res.Version == "" {
			return provider.Identity{}, false
		}
		return provider.Identity{Plugin: res.Version, InputsOnly: info.InputsOnly}, true
	}
	if res.Version != "" {
		return provider.Identity{Plugin: res.Version}, true
	}
	id, ok := binaryIdentity(res.Path)
	return provider.Identity{Plugin: id}, ok
}

// binaryIdentity names a plugin binary whose version its location does
// not tell: its absolute path, size and modification time.
func binaryIdentity(path string) (string, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", false
	}
	info, err := os.Stat(abs)
	if err != nil || info.IsDir() {
		return "", false
	}
	return fmt.Sprintf("%s %d %d", abs, info.Size(), info.ModTime().UnixNano()), true
}
