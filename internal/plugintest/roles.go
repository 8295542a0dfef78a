package plugintest

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/internal/launch"
	"github.com/cairn-iac/cairn/plugins/serve"
	"google.golang.org/grpc"
)

// Role is what the test binary does when it is run under the role's name.
type Role struct {
	Name string
	// Run gets the command-line arguments and a context that ends on
	// SIGINT or SIGTERM.
	Run func(ctx context.Context, args []string) error
}

// Main runs the role the binary was started as, or else the tests.
func Main(m *testing.M, roles ...Role) {
	name := filepath.Base(os.Args[0])
	for _, r := range roles {
		if r.Name == name {
			r.Main()
		}
	}
	os.Exit(m.Run())
}

// Main plays the role with the process's arguments and exits, with status
// 1 when it fails.
func (r Role) Main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := r.Run(ctx, os.Args[1:])
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", r.Name, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Link makes dir/name a symbolic link to the running test binary, creating
// dir, and returns the link's path.
func Link(t testing.TB, dir, name string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, name)
	if err := os.Symlink(self, link); err != nil {
		t.Fatal(err)
	}
	return link
}

// Factory makes KV providers of package pkg at version; with handshake
// they answer Handshake (accepting resources but not secrets), otherwise
// they negotiate in Configure.
func Factory(pkg, version string, handshake bool) provider.Factory {
	return provider.Factory{Pkg: pkg, Version: version, New: func(context.Context) (provider.Provider, error) {
		return &KV{pkg: pkg, version: version, handshake: handshake}, nil
	}}
}

// ProviderRole serves a KV provider of package pkg (see Factory) as the
// plugin pulumi-resource-<pkg>, version 1.0.0.
func ProviderRole(pkg string, handshake bool) Role {
	return Role{Name: "pulumi-resource-" + pkg, Run: func(ctx context.Context, _ []string) error {
		return serve.Main(ctx, Factory(pkg, "1.0.0", handshake), os.Stdout)
	}}
}

// ServeRole plays Cairn's command line for isolated providers: run as
// "cairn plugin serve <pkg>", it serves the factory of that package.
func ServeRole(factories ...provider.Factory) Role {
	return Role{Name: "cairn", Run: func(ctx context.Context, args []string) error {
		if len(args) < 3 || args[0] != "plugin" || args[1] != "serve" {
			return fmt.Errorf("usage: cairn plugin serve <pkg> [engine address]; got %q", args)
		}
		f, ok := provider.Select(factories, args[2], "")
		if !ok {
			return fmt.Errorf("no built-in provider for package %q", args[2])
		}
		return serve.Main(ctx, f, os.Stdout)
	}}
}

// ServeGRPC serves what register adds on a local port, printed on the
// first line of stdout, until ctx ends.
func ServeGRPC(ctx context.Context, register func(*grpc.Server)) error {
	srv, err := launch.Listen(register)
	if err != nil {
		return err
	}
	fmt.Println(srv.Port())
	select {
	case <-ctx.Done():
	case <-srv.Done():
	}
	srv.Stop(0)
	return nil
}
