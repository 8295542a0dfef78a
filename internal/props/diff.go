package props

import (
	"sort"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
)

// Diff compares a resource's old inputs with its new ones. Every changed
// path is reported; a change under an input property that res marks
// replaceOnChanges requires a replacement, any other change an update.
// Whether a value is secret does not count as a change, and keys beginning
// with InternalPrefix are passed over.
func Diff(res *schema.Resource, olds, news resource.Map) provider.DiffResponse {
	detailed, changed := resource.DiffMaps(Visible(olds).Unsecret(), Visible(news).Unsecret())
	if len(changed) == 0 {
		return provider.DiffResponse{Changes: provider.DiffNone}
	}
	resp := provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: changed, DetailedDiff: detailed}
	replace := map[string]bool{}
	for path, d := range detailed {
		parsed, err := resource.ParsePath(path)
		if err != nil {
			continue
		}
		top, _ := parsed[0].(string)
		if p := res.InputProperties[top]; p != nil && p.ReplaceOnChanges {
			d.Kind = d.Kind.AsReplace()
			detailed[path] = d
			replace[top] = true
		}
	}
	for k := range replace {
		resp.ReplaceKeys = append(resp.ReplaceKeys, k)
	}
	sort.Strings(resp.ReplaceKeys)
	return resp
}

// PriorInputs returns the old inputs of a diff request; a state recorded
// without inputs yields the input properties found among its outputs.
func PriorInputs(res *schema.Resource, req provider.DiffRequest) resource.Map {
	if req.OldInputs != nil {
		return req.OldInputs
	}
	out := resource.Map{}
	for k, v := range req.OldOutputs {
		if _, ok := res.InputProperties[k]; ok {
			out[k] = v
		}
	}
	return out
}
