package tfplugin

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/engine/tfstate"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

var _ provider.Mover = (*Provider)(nil)

// Move implements provider.Mover with MoveResourceState: the provider of
// the new type takes over the state of a resource of another type, of
// this or another Terraform provider, as Terraform's moved blocks between
// resource types ask. Its inputs are then the attributes a configuration
// may set, as an imported resource's are.
func (p *Provider) Move(ctx context.Context, req provider.MoveRequest) (provider.MoveResponse, error) {
	proc, t, err := p.resourceType(ctx, req.Type, req.URN)
	if err != nil {
		return provider.MoveResponse{}, err
	}
	source, sourceType, err := p.moveSource(req)
	if err != nil {
		return provider.MoveResponse{}, err
	}
	if !p.schema.resp.GetServerCapabilities().GetMoveResourceState() {
		return provider.MoveResponse{}, fmt.Errorf("the Terraform provider %s cannot take over the state of a %s: it does not move states between resource types; remove the moved block to replace the resource", p.param.Source, sourceType)
	}
	attrs := req.SourceOutputs.Copy()
	delete(attrs, tfstate.MetaKey)
	meta, err := tfstate.MetaOf(req.SourceOutputs)
	if err != nil {
		return provider.MoveResponse{}, err
	}
	version, _ := strconv.ParseInt(meta.SchemaVersion, 10, 64)
	private, err := base64.StdEncoding.DecodeString(meta.Private)
	if err != nil {
		return provider.MoveResponse{}, fmt.Errorf("the recorded private data of the %s: %w", sourceType, err)
	}
	var secrets []resource.Path
	sv, err := inferCty(resource.Object(attrs), nil, &secrets)
	if err != nil {
		return provider.MoveResponse{}, fmt.Errorf("the recorded state of the %s: %w", sourceType, err)
	}
	raw, err := ctyjson.Marshal(sv, sv.Type())
	if err != nil {
		return provider.MoveResponse{}, fmt.Errorf("the recorded state of the %s: %w", sourceType, err)
	}
	resp, err := proc.rpc.MoveResourceState(ctx, &tfplugin6.MoveResourceState_Request{SourceProviderAddress: source, SourceTypeName: sourceType,
		SourceSchemaVersion: version, SourceState: &tfplugin6.RawState{Json: raw}, TargetTypeName: t.name, SourcePrivate: private})
	if err != nil {
		return provider.MoveResponse{}, p.rpcError("MoveResourceState", err)
	}
	if err := p.diagnose(resp.GetDiagnostics(), "taking over the state of a "+sourceType); err != nil {
		return provider.MoveResponse{}, err
	}
	v, err := decode(resp.GetTargetState(), t.ty)
	if err != nil {
		return provider.MoveResponse{}, fmt.Errorf("the state moved from the %s: %w", sourceType, err)
	}
	if v.IsNull() {
		return provider.MoveResponse{}, fmt.Errorf("the Terraform provider %s returned no state for the %s it took over", p.param.Source, sourceType)
	}
	s := state{value: v, private: resp.GetTargetPrivate()}
	return provider.MoveResponse{Inputs: configurable(t.block, stateToEngine(t.block, v)), Outputs: p.outputs(t, s, secrets)}, nil
}

// moveSource returns the source address of the provider of a moved
// state and the Terraform name of its type: the exact one for a type of
// this provider, otherwise the one its token was made from
// (null:index/resource:Resource is null_resource).
func (p *Provider) moveSource(req provider.MoveRequest) (string, string, error) {
	pkg := req.SourcePackage
	param, ok := parameterOf(pkg.Value)
	if !ok {
		return "", "", fmt.Errorf("a %s of package %s is not a Terraform provider's resource: the Terraform provider %s takes over only those", req.SourceType, pkg.Name, p.param.Source)
	}
	if param.Source == p.param.Source {
		for token, t := range p.schema.resources {
			if token == req.SourceType {
				return param.Source, t.name, nil
			}
		}
	}
	i := strings.LastIndexByte(req.SourceType, ':')
	return param.Source, pkg.Name + "_" + schema.SnakeCase(req.SourceType[i+1:]), nil
}
