package monitor

import (
	"context"
	"errors"
	"sync"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/internal/enginesvc"
	"github.com/cairn-iac/cairn/internal/launch"
	"github.com/cairn-iac/cairn/internal/rpc"
)

// Options configure a monitor server.
type Options struct {
	// Diag receives the messages programs log; nil drops them.
	Diag func(deploy.DiagEvent)
	// ProgramDirectory is where relative asset paths are read from to hash
	// them.
	ProgramDirectory string
	// Host, when set, serves the schema Loader service from the same port.
	Host provider.Host
}

// Server serves the ResourceMonitor service and the engine's services
// (package enginesvc) on a local port.
type Server struct {
	srv *launch.Server
}

// Serve starts serving mon.
func Serve(mon deploy.Monitor, o Options) (*Server, error) {
	srv, err := launch.Listen(func(s *grpc.Server) {
		pulumirpc.RegisterResourceMonitorServer(s, NewMonitor(mon, o))
		enginesvc.Register(s, enginesvc.Options{Diag: o.Diag, Host: o.Host})
	})
	if err != nil {
		return nil, err
	}
	return &Server{srv: srv}, nil
}

// ServeFunc returns a deploy.Options.ServeMonitor that serves the
// deployment's monitor with the options o.
func ServeFunc(o Options) func(deploy.Monitor) (string, func(), error) {
	return func(mon deploy.Monitor) (string, func(), error) {
		srv, err := Serve(mon, o)
		if err != nil {
			return "", nil, err
		}
		return srv.Addr(), srv.Close, nil
	}
}

// Addr returns the address of the services.
func (s *Server) Addr() string { return s.srv.Addr() }

// Close stops serving; calls in flight get a few seconds to finish.
func (s *Server) Close() { s.srv.Stop(5 * time.Second) }

// Monitor implements pulumirpc.ResourceMonitorServer over a deploy.Monitor.
type Monitor struct {
	pulumirpc.UnimplementedResourceMonitorServer
	mon     deploy.Monitor
	reading rpc.Options

	mu       sync.Mutex
	packages map[string]*pulumirpc.RegisterPackageRequest
}

// NewMonitor returns a monitor service for mon.
func NewMonitor(mon deploy.Monitor, o Options) *Monitor {
	reading := rpc.Everything
	reading.ComputeAssetHashes, reading.WorkingDirectory = true, o.ProgramDirectory
	return &Monitor{mon: mon, reading: reading, packages: map[string]*pulumirpc.RegisterPackageRequest{}}
}

// failed converts an engine error into a status. A registration whose step
// failed, or that came after the deployment was cancelled, is UNAVAILABLE,
// as Pulumi's engine answers: the engine reports the step's error itself,
// and the SDKs take UNAVAILABLE to mean the deployment is stopping, so the
// program ends at once and quietly instead of reporting the error again
// (which the Node.js SDK can take minutes over).
func failed(err error) error {
	var se *deploy.StepError
	if errors.As(err, &se) || errors.Is(err, deploy.ErrCancelled) {
		return status.Error(codes.Unavailable, err.Error())
	}
	return rpc.ErrorToStatus(err, rpc.Everything)
}

func badRequest(format string, args ...any) error {
	return status.Errorf(codes.InvalidArgument, format, args...)
}

// features are the SupportsFeature IDs Cairn supports.
var features = map[string]bool{
	"secrets":            true,
	"resourceReferences": true,
	"outputValues":       true,
	"aliasSpecs":         true,
	"deletedWith":        true,
	"parameterization":   true,
	"replaceWith":        true,
	"replacementTrigger": true,
}

// SupportsFeature implements pulumirpc.ResourceMonitorServer.
func (m *Monitor) SupportsFeature(_ context.Context, req *pulumirpc.SupportsFeatureRequest) (*pulumirpc.SupportsFeatureResponse, error) {
	return &pulumirpc.SupportsFeatureResponse{HasSupport: features[req.GetId()]}, nil
}

// SignalAndWaitForShutdown implements pulumirpc.ResourceMonitorServer.
// Every call an SDK makes blocks until its steps are done, and Cairn has no
// hooks to call back, so there is nothing to wait for.
func (m *Monitor) SignalAndWaitForShutdown(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	return &emptypb.Empty{}, nil
}
