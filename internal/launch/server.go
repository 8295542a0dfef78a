package launch

import (
	"fmt"
	"net"
	"time"

	"google.golang.org/grpc"
)

// Server is a gRPC server on a local port: the plugin side of the launch
// protocol, and how Cairn serves its monitor and engine services.
type Server struct {
	srv  *grpc.Server
	lis  net.Listener
	done chan struct{}
}

// Listen serves the services that register adds on a free port of
// 127.0.0.1.
func Listen(register func(*grpc.Server)) (*Server, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening on a local port: %w", err)
	}
	s := &Server{
		srv: grpc.NewServer(grpc.MaxRecvMsgSize(MaxMessageSize), grpc.MaxSendMsgSize(MaxMessageSize),
			grpc.InitialWindowSize(windowSize), grpc.InitialConnWindowSize(windowSize)),
		lis:  lis,
		done: make(chan struct{}),
	}
	register(s.srv)
	go func() {
		_ = s.srv.Serve(lis)
		close(s.done)
	}()
	return s, nil
}

// Addr returns the address clients dial ("127.0.0.1:<port>").
func (s *Server) Addr() string { return s.lis.Addr().String() }

// Port returns the port, which a plugin prints on its first line.
func (s *Server) Port() int { return s.lis.Addr().(*net.TCPAddr).Port }

// Done is closed when the server has stopped.
func (s *Server) Done() <-chan struct{} { return s.done }

// Stop stops the server, letting calls in flight finish for at most grace.
// Calls still running then are cancelled; Stop does not wait for handlers
// that ignore the cancellation.
func (s *Server) Stop(grace time.Duration) {
	stopped := make(chan struct{})
	go func() {
		s.srv.GracefulStop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(grace):
		go s.srv.Stop()
	}
}
