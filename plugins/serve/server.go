package serve

import (
	"context"
	"time"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/rpc"
)

// Server implements pulumirpc.ResourceProviderServer over a provider.
type Server struct {
	pulumirpc.UnimplementedResourceProviderServer
	p provider.Provider
}

// NewServer returns a server for p.
func NewServer(p provider.Provider) *Server { return &Server{p: p} }

// Handshaker is implemented by providers that know before they are
// configured which protocol features they accept; the server answers
// Handshake with it. Others negotiate in their Configure answer, and so do
// Handshakers that return provider.ErrNotImplemented.
type Handshaker interface {
	Handshake(ctx context.Context) (provider.ConfigureResponse, error)
}

// Handshake implements pulumirpc.ResourceProviderServer.
func (s *Server) Handshake(ctx context.Context, _ *pulumirpc.ProviderHandshakeRequest) (*pulumirpc.ProviderHandshakeResponse, error) {
	h, ok := s.p.(Handshaker)
	if !ok {
		return nil, status.Error(codes.Unimplemented, "this provider negotiates in Configure")
	}
	resp, err := h.Handshake(ctx)
	return reply(&pulumirpc.ProviderHandshakeResponse{AcceptSecrets: resp.AcceptSecrets, AcceptResources: resp.AcceptResources,
		AcceptOutputs: resp.AcceptOutputs}, err)
}

// What the server sends: the engine reads every kind of value; output
// values only go to callers that say they accept them.
var sending = rpc.Options{KeepUnknowns: true, KeepSecrets: true, KeepResources: true}

func sendingOutputs(accepts bool) rpc.Options {
	o := sending
	o.KeepOutputValues = accepts
	return o
}

// reply converts a provider's error into a status.
func reply[T any](resp T, err error) (T, error) {
	if err != nil {
		var zero T
		return zero, rpc.ErrorToStatus(err, sending)
	}
	return resp, nil
}

// badRequest is the error for a request whose values cannot be read.
func badRequest(err error) error { return status.Error(codes.InvalidArgument, err.Error()) }

// names returns the resource's name and type, from the request or, for
// engines that send only the URN, from the URN.
func names(urn, name, typ string) (resource.URN, string, string) {
	u := resource.URN(urn)
	if name == "" {
		name = u.Name()
	}
	if typ == "" {
		typ = u.Type()
	}
	return u, name, typ
}

// maps reads property maps of a request.
func maps(ss ...*structpb.Struct) ([]resource.Map, error) {
	out := make([]resource.Map, len(ss))
	for i, s := range ss {
		m, err := rpc.UnmarshalMap(s, rpc.Everything)
		if err != nil {
			return nil, badRequest(err)
		}
		out[i] = m
	}
	return out, nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// GetPluginInfo implements pulumirpc.ResourceProviderServer. A provider
// that declares PluginInfo.InputsOnly says so in the header
// rpc.InputsOnlyHeader.
func (s *Server) GetPluginInfo(ctx context.Context, _ *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	info, err := s.p.GetPluginInfo(ctx)
	if err == nil && info.InputsOnly {
		err = grpc.SetHeader(ctx, metadata.Pairs(rpc.InputsOnlyHeader, "true"))
	}
	return reply(&pulumirpc.PluginInfo{Version: info.Version}, err)
}

// GetSchema implements pulumirpc.ResourceProviderServer.
func (s *Server) GetSchema(ctx context.Context, req *pulumirpc.GetSchemaRequest) (*pulumirpc.GetSchemaResponse, error) {
	schema, err := s.p.GetSchema(ctx, provider.GetSchemaRequest{Version: int(req.GetVersion())})
	return reply(&pulumirpc.GetSchemaResponse{Schema: string(schema)}, err)
}

// Parameterize implements pulumirpc.ResourceProviderServer.
func (s *Server) Parameterize(ctx context.Context, req *pulumirpc.ParameterizeRequest) (*pulumirpc.ParameterizeResponse, error) {
	p := provider.ParameterizeRequest{Args: req.GetArgs().GetArgs()}
	if v := req.GetValue(); v != nil {
		p.Name, p.Version, p.Value = v.GetName(), v.GetVersion(), v.GetValue()
	}
	resp, err := s.p.Parameterize(ctx, p)
	return reply(&pulumirpc.ParameterizeResponse{Name: resp.Name, Version: resp.Version}, err)
}

// Cancel implements pulumirpc.ResourceProviderServer.
func (s *Server) Cancel(ctx context.Context, _ *emptypb.Empty) (*emptypb.Empty, error) {
	return reply(&emptypb.Empty{}, s.p.SignalCancellation(ctx))
}
