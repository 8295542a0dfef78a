package tfplugin

import (
	"sync"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// unvalidated keeps the inputs whose validation Check left to the calls
// after it. A resource whose inputs are those recorded in its state need
// not be validated again when the same provider package wrote that state
// from them (tfstate.Meta.Provider), which only the calls given the
// recorded outputs can tell: Diff and Update validate them unless it did,
// and Create (a replacement) always. So a no-change plan asks the provider
// only to plan each resource, as BenchmarkNullPlanCalls does.
type unvalidated struct {
	mu sync.Mutex
	m  map[resource.URN]resource.Map
}

// postpone reports whether Check may leave the validation of req's inputs to
// later, keeping them if so: they are the recorded ones, wholly known, and
// the provider package has a hash to compare with the state's.
func (u *unvalidated) postpone(req provider.CheckRequest, hash string) bool {
	ok := hash != "" && req.Olds != nil && !req.News.ContainsUnknowns() && req.Olds.Equal(req.News)
	u.mu.Lock()
	defer u.mu.Unlock()
	if !ok {
		delete(u.m, req.URN)
		return false
	}
	if u.m == nil {
		u.m = map[resource.URN]resource.Map{}
	}
	u.m[req.URN] = req.News
	return true
}

// take returns and forgets the inputs kept for urn.
func (u *unvalidated) take(urn resource.URN) (resource.Map, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	inputs, ok := u.m[urn]
	delete(u.m, urn)
	return inputs, ok
}
