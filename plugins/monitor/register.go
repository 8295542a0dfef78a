package monitor

import (
	"context"
	"fmt"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/rpc"
)

// RegisterResource implements pulumirpc.ResourceMonitorServer.
func (m *Monitor) RegisterResource(ctx context.Context, req *pulumirpc.RegisterResourceRequest) (*pulumirpc.RegisterResourceResponse, error) {
	if len(req.GetTransforms()) > 0 || req.GetHooks() != nil || len(req.GetStateMigrations()) > 0 {
		return nil, status.Errorf(codes.Unimplemented, "resource %s: transforms, hooks and state migrations are not supported by Cairn", req.GetName())
	}
	r, err := m.registerRequest(req)
	if err != nil {
		return nil, err
	}
	resp, err := m.mon.RegisterResource(ctx, r)
	if err != nil {
		return nil, failed(err)
	}
	obj, err := rpc.MarshalMap(resp.Outputs, rpc.Options{KeepUnknowns: req.GetSupportsPartialValues(),
		KeepSecrets: req.GetAcceptSecrets(), KeepResources: req.GetAcceptResources()})
	if err != nil {
		return nil, status.Errorf(codes.Internal, "resource %s: writing its outputs: %v", resp.URN, err)
	}
	id := string(resp.ID)
	if resp.ID == resource.UnknownID {
		id = "" // what SDKs take for "not known in this preview"
	}
	return &pulumirpc.RegisterResourceResponse{
		Urn: string(resp.URN), Id: id, Object: obj, Stables: resp.Stables, Unknown: resp.Skipped,
		PropertyDependencies: rpc.DepsToWire(resp.PropertyDependencies, func(urns []string) *pulumirpc.RegisterResourceResponse_PropertyDependencies {
			return &pulumirpc.RegisterResourceResponse_PropertyDependencies{Urns: urns}
		}),
	}, nil
}

// registerRequest reads a registration.
func (m *Monitor) registerRequest(req *pulumirpc.RegisterResourceRequest) (deploy.RegisterRequest, error) {
	props, err := rpc.UnmarshalMap(req.GetObject(), m.reading)
	if err != nil {
		return deploy.RegisterRequest{}, badRequest("resource %s: %v", req.GetName(), err)
	}
	version, url, err := m.packageVersion(req.GetPackageRef(), req.GetVersion(), req.GetPluginDownloadURL())
	if err != nil {
		return deploy.RegisterRequest{}, err
	}
	timeouts, err := customTimeouts(req.GetCustomTimeouts())
	if err != nil {
		return deploy.RegisterRequest{}, badRequest("resource %s: customTimeouts: %v", req.GetName(), err)
	}
	r := deploy.RegisterRequest{
		Type: req.GetType(), Name: req.GetName(), Custom: req.GetCustom(), Remote: req.GetRemote(),
		Parent: resource.URN(req.GetParent()), Properties: props,
		PropertyDependencies: rpc.DepsFromWire(req.GetPropertyDependencies()),
		Dependencies:         rpc.URNs(req.GetDependencies()),
		Provider:             req.GetProvider(), Providers: req.GetProviders(), Version: version, PluginDownloadURL: url,
		Parameterization: m.parameterization(req.GetPackageRef()),
		Protect:          req.Protect, RetainOnDelete: req.RetainOnDelete, EnvVarMappings: req.GetEnvVarMappings(),
		IgnoreChanges: req.GetIgnoreChanges(), ReplaceOnChanges: req.GetReplaceOnChanges(),
		AdditionalSecretOutputs: req.GetAdditionalSecretOutputs(), HideDiffs: req.GetHideDiffs(),
		Aliases: aliases(req), ImportID: resource.ID(req.GetImportId()), CustomTimeouts: timeouts,
		DeletedWith: resource.URN(req.GetDeletedWith()), ReplaceWith: rpc.URNs(req.GetReplaceWith()),
		SourcePosition: sourcePosition(req.GetSourcePosition()),
	}
	if req.GetDeleteBeforeReplaceDefined() || req.GetDeleteBeforeReplace() {
		dbr := req.GetDeleteBeforeReplace()
		r.DeleteBeforeReplace = &dbr
	}
	if t := req.GetReplacementTrigger(); t != nil {
		if r.ReplacementTrigger, _, err = rpc.UnmarshalValue(t, m.reading); err != nil {
			return deploy.RegisterRequest{}, badRequest("resource %s: replacementTrigger: %v", req.GetName(), err)
		}
	}
	return r, nil
}

func aliases(req *pulumirpc.RegisterResourceRequest) []deploy.Alias {
	var out []deploy.Alias
	for _, u := range req.GetAliasURNs() {
		out = append(out, deploy.Alias{URN: resource.URN(u)})
	}
	for _, a := range req.GetAliases() {
		if u := a.GetUrn(); u != "" {
			out = append(out, deploy.Alias{URN: resource.URN(u)})
			continue
		}
		s := a.GetSpec()
		out = append(out, deploy.Alias{Name: s.GetName(), Type: s.GetType(), Stack: s.GetStack(), Project: s.GetProject(),
			Parent: resource.URN(s.GetParentUrn()), NoParent: s.GetNoParent()})
	}
	return out
}

// customTimeouts reads duration strings ("5m"); nil when none is set.
func customTimeouts(t *pulumirpc.RegisterResourceRequest_CustomTimeouts) (*resource.CustomTimeouts, error) {
	if t == nil {
		return nil, nil
	}
	out, err := rpc.Timeouts(t)
	if err != nil || out.IsZero() {
		return nil, err
	}
	return &out, nil
}

func sourcePosition(p *pulumirpc.SourcePosition) string {
	if p == nil || p.GetUri() == "" {
		return ""
	}
	return fmt.Sprintf("%s#%d,%d", p.GetUri(), p.GetLine(), p.GetColumn())
}

// RegisterResourceOutputs implements pulumirpc.ResourceMonitorServer.
func (m *Monitor) RegisterResourceOutputs(ctx context.Context, req *pulumirpc.RegisterResourceOutputsRequest) (*emptypb.Empty, error) {
	outputs, err := rpc.UnmarshalMap(req.GetOutputs(), m.reading)
	if err != nil {
		return nil, badRequest("outputs of %s: %v", req.GetUrn(), err)
	}
	if outputs == nil {
		outputs = resource.Map{}
	}
	if err := m.mon.RegisterResourceOutputs(ctx, resource.URN(req.GetUrn()), outputs); err != nil {
		return nil, failed(err)
	}
	return &emptypb.Empty{}, nil
}
