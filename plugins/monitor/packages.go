package monitor

import (
	"context"
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cairn-iac/cairn/engine/deploy"
)

// RegisterPackage implements pulumirpc.ResourceMonitorServer: it records the
// package's plugin version, download URL and parameterization under a
// reference that later requests name instead. Extension parameterizations
// (a plugin serving more than one package) are refused.
func (m *Monitor) RegisterPackage(_ context.Context, req *pulumirpc.RegisterPackageRequest) (*pulumirpc.RegisterPackageResponse, error) {
	if req.GetExtension() != nil {
		return nil, status.Errorf(codes.Unimplemented,
			"package %s extends another package, which Cairn does not support; use a replacement parameterization", req.GetName())
	}
	ref := fmt.Sprintf("%s@%s|%s", req.GetName(), req.GetVersion(), req.GetDownloadUrl())
	if p := req.GetParameterization(); p != nil {
		if p.GetName() == "" {
			return nil, badRequest("package %s: its parameterization names no package", req.GetName())
		}
		ref += fmt.Sprintf("|%s@%s|%x", p.GetName(), p.GetVersion(), p.GetValue())
	}
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
	pkg := m.pkg(ref)
	if pkg == nil {
		return "", "", badRequest("unknown package reference %q: register the package first", ref)
	}
	return pkg.GetVersion(), pkg.GetDownloadUrl(), nil
}

// parameterization returns the parameterization of the package a reference
// names, if any.
func (m *Monitor) parameterization(ref string) *deploy.Parameterization {
	p := m.pkg(ref).GetParameterization()
	if p == nil {
		return nil
	}
	return &deploy.Parameterization{Plugin: m.pkg(ref).GetName(), Name: p.GetName(), Version: p.GetVersion(), Value: p.GetValue()}
}

func (m *Monitor) pkg(ref string) *pulumirpc.RegisterPackageRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.packages[ref]
}
