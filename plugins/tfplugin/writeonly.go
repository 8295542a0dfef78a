package tfplugin

import (
	"sync"

	"github.com/cairn-iac/cairn/engine/resource"
)

// writeOnly keeps the values of resources' write-only attributes between
// Check and the calls that send them to the provider. Check leaves them
// out of the inputs it returns, which the engine records in the state;
// Diff, Create and Update put them back into the configuration, so the
// provider gets them as Terraform sends them, and the state never has
// them. Check runs before those in every operation, on the Provider that
// runs them.
type writeOnly struct {
	mu sync.Mutex
	m  map[resource.URN]resource.Map
}

// split returns the inputs without the write-only attributes of t (those
// of the resource's own block), keeping those for urn.
func (w *writeOnly) split(urn resource.URN, t *typed, inputs resource.Map) resource.Map {
	kept := resource.Map{}
	for _, a := range t.block.GetAttributes() {
		if v, ok := inputs[a.GetName()]; ok && a.GetWriteOnly() {
			kept[a.GetName()] = v
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(kept) == 0 {
		delete(w.m, urn)
		return inputs
	}
	if w.m == nil {
		w.m = map[resource.URN]resource.Map{}
	}
	w.m[urn] = kept
	out := inputs.Copy()
	for k := range kept {
		delete(out, k)
	}
	return out
}

// restore returns inputs with the write-only values kept for urn.
func (w *writeOnly) restore(urn resource.URN, inputs resource.Map) resource.Map {
	w.mu.Lock()
	kept := w.m[urn]
	w.mu.Unlock()
	if len(kept) == 0 {
		return inputs
	}
	out := inputs.Copy()
	for k, v := range kept {
		out[k] = v
	}
	return out
}
