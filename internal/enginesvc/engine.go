package enginesvc

import (
	"context"
	"sync"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
)

// Server implements pulumirpc.EngineServer.
type Server struct {
	pulumirpc.UnimplementedEngineServer
	diag func(deploy.DiagEvent)

	mu   sync.Mutex
	root string
}

// New returns a server that hands every logged message to diag (which may
// be nil, to drop them). diag may be called from many goroutines.
func New(diag func(deploy.DiagEvent)) *Server { return &Server{diag: diag} }

var severities = map[pulumirpc.LogSeverity]deploy.Severity{
	pulumirpc.LogSeverity_DEBUG:   deploy.SeverityDebug,
	pulumirpc.LogSeverity_INFO:    deploy.SeverityInfo,
	pulumirpc.LogSeverity_WARNING: deploy.SeverityWarning,
	pulumirpc.LogSeverity_ERROR:   deploy.SeverityError,
}

// Log turns a message into a diagnostic.
func (s *Server) Log(_ context.Context, req *pulumirpc.LogRequest) (*emptypb.Empty, error) {
	if s.diag != nil {
		s.diag(deploy.DiagEvent{URN: resource.URN(req.GetUrn()), Severity: severities[req.GetSeverity()], Message: req.GetMessage(),
			Ephemeral: req.GetEphemeral()})
	}
	return &emptypb.Empty{}, nil
}

// GetRootResource returns the URN an SDK stored.
func (s *Server) GetRootResource(context.Context, *pulumirpc.GetRootResourceRequest) (*pulumirpc.GetRootResourceResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &pulumirpc.GetRootResourceResponse{Urn: s.root}, nil
}

// SetRootResource stores the URN of the stack resource.
func (s *Server) SetRootResource(_ context.Context, req *pulumirpc.SetRootResourceRequest) (*pulumirpc.SetRootResourceResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.root = req.GetUrn()
	return &pulumirpc.SetRootResourceResponse{}, nil
}
