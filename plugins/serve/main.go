package serve

import (
	"context"
	"fmt"
	"io"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/internal/launch"
)

// Main runs a plugin process for the factory's provider: it listens on a
// free local port, writes the port as the first line of stdout and serves
// until ctx ends, then closes the provider. The engine's address, which
// engines pass as the last argument, is the caller's to use (a factory
// that logs, see enginesvc.Dial).
func Main(ctx context.Context, f provider.Factory, stdout io.Writer) error {
	p, err := f.New(ctx)
	if err != nil {
		return fmt.Errorf("making a %s provider: %w", f.Pkg, err)
	}
	defer p.Close()
	srv, err := launch.Listen(func(s *grpc.Server) {
		pulumirpc.RegisterResourceProviderServer(s, NewServer(p))
	})
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(stdout, "%d\n", srv.Port()); err != nil {
		srv.Stop(0)
		return fmt.Errorf("printing the port: %w", err)
	}
	select {
	case <-ctx.Done():
	case <-srv.Done():
	}
	srv.Stop(2 * time.Second)
	return nil
}
