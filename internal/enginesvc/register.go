package enginesvc

import (
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	codegenrpc "github.com/pulumi/pulumi/sdk/v3/proto/go/codegen"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
)

// Options say what the services of Register serve.
type Options struct {
	// Diag receives the messages logged to the Engine service; nil drops
	// them.
	Diag func(deploy.DiagEvent)
	// Host, when set, serves the schema Loader service.
	Host provider.Host
}

// Register adds to s the services Pulumi's plugins and language hosts
// expect of an engine: Engine, the standard gRPC health service (which
// language hosts poll to tell whether the engine is still alive) and, with
// a host, the schema Loader.
func Register(s *grpc.Server, o Options) {
	pulumirpc.RegisterEngineServer(s, New(o.Diag))
	healthpb.RegisterHealthServer(s, health.NewServer())
	if o.Host != nil {
		codegenrpc.RegisterLoaderServer(s, NewLoader(o.Host))
	}
}
