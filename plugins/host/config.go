package host

import (
	"context"
	"errors"
	"strings"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc/codes"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/rpc"
)

// Provider configuration is sent without secrets (the plugin has not said
// yet whether it accepts them) and with unknowns (a preview may not know it).
var configOptions = rpc.Options{KeepUnknowns: true, KeepResources: true}

// CheckConfig implements provider.Provider. A plugin that does not
// implement it accepts the configuration as given, as Pulumi treats it.
func (p *Plugin) CheckConfig(ctx context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	resp, err := p.check(ctx, "CheckConfig", p.client.CheckConfig, req, configOptions, features{})
	if p.configUnimplemented(err) {
		return provider.Unimplemented{}.CheckConfig(ctx, req)
	}
	return resp, err
}

// DiffConfig implements provider.Provider. A plugin that does not implement
// it leaves the engine to diff the configuration, without replacing the
// provider, as Pulumi does.
func (p *Plugin) DiffConfig(ctx context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	resp, err := p.diff(ctx, "DiffConfig", p.client.DiffConfig, req, configOptions)
	if p.configUnimplemented(err) {
		return provider.Unimplemented{}.DiffConfig(ctx, req)
	}
	return resp, err
}

// configUnimplemented reports whether a CheckConfig or DiffConfig error
// means the plugin does not implement the method. Besides UNIMPLEMENTED,
// Pulumi counts two historical answers: INTERNAL from the Node.js dynamic
// provider (pulumi-nodejs), and UNKNOWN saying "Unimplemented" from the
// Kubernetes provider.
func (p *Plugin) configUnimplemented(err error) bool {
	var st *statusError
	switch {
	case errors.Is(err, provider.ErrNotImplemented):
		return true
	case !errors.As(err, &st):
		return false
	case p.pkg == "pulumi-nodejs":
		return st.code == codes.Internal
	case p.pkg == "kubernetes":
		return st.code == codes.Unknown && strings.Contains(st.msg, "Unimplemented")
	}
	return false
}

// Configure implements provider.Provider. A configuration with unknown
// values (during a preview) is not sent: the plugin stays unconfigured and
// Cairn answers for it until the values are known, as Pulumi does.
func (p *Plugin) Configure(ctx context.Context, req provider.ConfigureRequest) (provider.ConfigureResponse, error) {
	if req.Inputs.ContainsUnknowns() {
		p.mu.Lock()
		p.unknownConfig = true
		p.mu.Unlock()
		return provider.ConfigureResponse{AcceptSecrets: true, AcceptResources: true, SupportsPreview: true}, nil
	}
	args, err := rpc.MarshalMap(orEmpty(req.Inputs), rpc.Options{KeepSecrets: true, KeepResources: true})
	if err != nil {
		return provider.ConfigureResponse{}, err
	}
	vars, err := legacyVariables(p.pkg, req.Inputs)
	if err != nil {
		return provider.ConfigureResponse{}, err
	}
	wire := &pulumirpc.ConfigureRequest{Args: args, AcceptSecrets: true, AcceptResources: true,
		SendsOldInputs: true, SendsOldInputsToDelete: true}
	//lint:ignore SA1019 providers that predate Args read the variables, which Pulumi's engine still sends
	wire.Variables = vars
	if req.URN != "" {
		urn, name, typ, id := string(req.URN), req.Name, req.Type, string(req.ID)
		wire.Urn, wire.Name, wire.Type, wire.Id = &urn, &name, &typ, &id
	}
	resp, err := rpcCall(ctx, p, "Configure", 0, p.client.Configure, wire)
	if err != nil {
		return provider.ConfigureResponse{}, err
	}
	p.mu.Lock()
	if p.features == nil {
		p.features = &features{secrets: resp.GetAcceptSecrets(), resources: resp.GetAcceptResources(),
			outputs: resp.GetAcceptOutputs(), preview: resp.GetSupportsPreview()}
	}
	f := *p.features
	p.mu.Unlock()
	return provider.ConfigureResponse{AcceptSecrets: f.secrets, AcceptResources: f.resources,
		AcceptOutputs: f.outputs, SupportsPreview: f.preview}, nil
}

// legacyVariables renders configuration in the deprecated form older
// plugins read: "<pkg>:config:<key>" → the string, or the JSON of any other
// value, without secrets.
func legacyVariables(pkg string, inputs resource.Map) (map[string]string, error) {
	prefixed := make(map[string]resource.Value, len(inputs))
	for k, v := range inputs {
		prefixed[pkg+":config:"+k] = v
	}
	vars, _, err := provider.ConfigStrings(prefixed)
	return vars, err
}

func orEmpty(m resource.Map) resource.Map {
	if m == nil {
		return resource.Map{}
	}
	return m
}
