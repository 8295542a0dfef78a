package monitor

import (
	"context"
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// RegisterPackage implements pulumirpc.ResourceMonitorServer: it records the
// package's version and download URL under a reference that later requests
// name instead. Parameterized packages are refused.
func (m *Monitor) RegisterPackage(_ context.Context, req *pulumirpc.RegisterPackageRequest) (*pulumirpc.RegisterPackageResponse, error) {
	if req.GetParameterization() != nil || req.GetExtension() != nil {
		return nil, status.Errorf(codes.Unimplemented,
			"package %s is parameterized, which Cairn does not support yet; use a provider that needs no parameterization", req.GetName())
	}
	ref := fmt.Sprintf("%s@%s|%s", req.GetName(), req.GetVersion(), req.GetDownloadUrl())
	m.mu.Lock()
	m.packages[ref] = req
	m.mu.Unlock()
	return &pulumirpc.RegisterPackageResponse{Ref: ref}, nil
}

// packageVersion returns the version and download URL a request names,
// directly or through a package reference.
func (m *Monitor) packageVersion(ref, version, url string) (string, string, error) {
	if ref == "" {
		return version, url, nil
	}
	m.mu.Lock()
	pkg := m.packages[ref]
	m.mu.Unlock()
	if pkg == nil {
		return "", "", badRequest("unknown package reference %q: register the package first", ref)
	}
	return pkg.GetVersion(), pkg.GetDownloadUrl(), nil
}
