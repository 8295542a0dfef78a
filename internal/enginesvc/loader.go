package enginesvc

import (
	"context"
	"errors"
	"fmt"
	"sync"

	codegenrpc "github.com/pulumi/pulumi/sdk/v3/proto/go/codegen"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cairn-iac/cairn/engine/provider"
)

// Loader implements Pulumi's schema Loader service (package codegen) over a
// provider host: the schema of a package is asked of its provider, after
// parameterizing the provider when the request names a parameterized
// package. Each schema is loaded once.
type Loader struct {
	codegenrpc.UnimplementedLoaderServer
	host provider.Host

	mu    sync.Mutex
	cache map[string]*loaded
}

type loaded struct {
	once   sync.Once
	schema []byte
	err    error
}

// NewLoader returns a Loader that finds providers with host.
func NewLoader(host provider.Host) *Loader {
	return &Loader{host: host, cache: map[string]*loaded{}}
}

// GetSchema implements codegenrpc.LoaderServer.
func (l *Loader) GetSchema(ctx context.Context, req *codegenrpc.GetSchemaRequest) (*codegenrpc.GetSchemaResponse, error) {
	if req.GetPackage() == "" {
		return nil, status.Error(codes.InvalidArgument, "GetSchema needs a package name")
	}
	par := req.GetParameterization()
	key := fmt.Sprintf("%s@%s|%s@%s|%x", req.GetPackage(), req.GetVersion(), par.GetName(), par.GetVersion(), par.GetValue())
	l.mu.Lock()
	e := l.cache[key]
	if e == nil {
		e = &loaded{}
		l.cache[key] = e
	}
	l.mu.Unlock()
	e.once.Do(func() { e.schema, e.err = l.load(context.WithoutCancel(ctx), req) })
	if e.err != nil {
		return nil, e.err
	}
	return &codegenrpc.GetSchemaResponse{Schema: e.schema}, nil
}

func (l *Loader) load(ctx context.Context, req *codegenrpc.GetSchemaRequest) ([]byte, error) {
	p, err := l.host.Load(ctx, req.GetPackage(), req.GetVersion())
	if err != nil {
		return nil, status.Errorf(codes.NotFound, "loading the schema of package %s: %v", req.GetPackage(), err)
	}
	defer p.Close()
	if par := req.GetParameterization(); par != nil {
		if _, err := p.Parameterize(ctx, provider.ParameterizeRequest{Name: par.GetName(), Version: par.GetVersion(),
			Value: par.GetValue()}); err != nil {
			return nil, status.Errorf(codes.Internal, "parameterizing %s as package %s: %v", req.GetPackage(), par.GetName(), err)
		}
	}
	schema, err := p.GetSchema(ctx, provider.GetSchemaRequest{})
	switch {
	case errors.Is(err, provider.ErrNotImplemented):
		return nil, status.Errorf(codes.NotFound, "the provider of package %s offers no schema", req.GetPackage())
	case err != nil:
		return nil, status.Errorf(codes.Internal, "getting the schema of package %s: %v", req.GetPackage(), err)
	}
	return schema, nil
}
