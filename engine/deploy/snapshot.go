package deploy

import "github.com/cairn-iac/cairn/engine/resource"

// dependents returns, for each URN, the resources of the list that refer to
// it (as parent, dependency, property dependency, deletedWith or provider).
func dependents(states []*resource.State) map[resource.URN][]*resource.State {
	out := map[resource.URN][]*resource.State{}
	for _, s := range states {
		seen := map[resource.URN]bool{}
		for _, u := range s.References() {
			if !seen[u] {
				seen[u] = true
				out[u] = append(out[u], s)
			}
		}
	}
	return out
}
