package rpc

import (
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// The engine's diff answers and property-diff kinds are numbered as on the
// wire; these tables make the correspondence explicit.
var (
	changesToWire = map[provider.DiffChanges]pulumirpc.DiffResponse_DiffChanges{
		provider.DiffUnknown: pulumirpc.DiffResponse_DIFF_UNKNOWN,
		provider.DiffNone:    pulumirpc.DiffResponse_DIFF_NONE,
		provider.DiffSome:    pulumirpc.DiffResponse_DIFF_SOME,
	}
	kindToWire = map[resource.DiffKind]pulumirpc.PropertyDiff_Kind{
		resource.DiffAdd:           pulumirpc.PropertyDiff_ADD,
		resource.DiffAddReplace:    pulumirpc.PropertyDiff_ADD_REPLACE,
		resource.DiffDelete:        pulumirpc.PropertyDiff_DELETE,
		resource.DiffDeleteReplace: pulumirpc.PropertyDiff_DELETE_REPLACE,
		resource.DiffUpdate:        pulumirpc.PropertyDiff_UPDATE,
		resource.DiffUpdateReplace: pulumirpc.PropertyDiff_UPDATE_REPLACE,
	}
	changesFromWire = invert(changesToWire)
	kindFromWire    = invert(kindToWire)
)

func invert[K, V comparable](m map[K]V) map[V]K {
	out := make(map[V]K, len(m))
	for k, v := range m {
		out[v] = k
	}
	return out
}

// DiffToWire converts a diff answer into its wire form.
func DiffToWire(d provider.DiffResponse) *pulumirpc.DiffResponse {
	resp := &pulumirpc.DiffResponse{
		Changes:             changesToWire[d.Changes],
		Replaces:            d.ReplaceKeys,
		Stables:             d.StableKeys,
		Diffs:               d.ChangedKeys,
		DeleteBeforeReplace: d.DeleteBeforeReplace,
		HasDetailedDiff:     d.DetailedDiff != nil,
	}
	if d.DetailedDiff != nil {
		resp.DetailedDiff = make(map[string]*pulumirpc.PropertyDiff, len(d.DetailedDiff))
		for path, pd := range d.DetailedDiff {
			resp.DetailedDiff[path] = &pulumirpc.PropertyDiff{Kind: kindToWire[pd.Kind], InputDiff: pd.InputDiff}
		}
	}
	return resp
}

// DiffFromWire converts a wire diff answer. A detailed diff is kept only
// when the provider says it sent one.
func DiffFromWire(resp *pulumirpc.DiffResponse) provider.DiffResponse {
	d := provider.DiffResponse{
		Changes:             changesFromWire[resp.GetChanges()],
		ReplaceKeys:         resp.GetReplaces(),
		StableKeys:          resp.GetStables(),
		ChangedKeys:         resp.GetDiffs(),
		DeleteBeforeReplace: resp.GetDeleteBeforeReplace(),
	}
	if resp.GetHasDetailedDiff() {
		d.DetailedDiff = make(resource.DetailedDiff, len(resp.GetDetailedDiff()))
		for path, pd := range resp.GetDetailedDiff() {
			d.DetailedDiff[path] = resource.PropertyDiff{Kind: kindFromWire[pd.GetKind()], InputDiff: pd.GetInputDiff()}
		}
	}
	return d
}
