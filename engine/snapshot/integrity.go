package snapshot

import (
	"fmt"
	"maps"
	"slices"

	"github.com/cairn-iac/cairn/engine/resource"
)

// IntegrityError says how a snapshot breaks the state's invariants.
type IntegrityError struct {
	URN    resource.URN
	Reason string
}

func (e *IntegrityError) Error() string {
	if e.URN == "" {
		return "snapshot integrity: " + e.Reason
	}
	return fmt.Sprintf("snapshot integrity: resource %s: %s", e.URN, e.Reason)
}

// VerifyIntegrity checks the rules every snapshot must keep: each resource has
// a URN and type, only custom resources have IDs, URNs are unique except for
// resources pending deletion, and every parent, dependency, property
// dependency, deletedWith, replaceWith and provider refers to a resource that
// comes earlier.
func (s *Snapshot) VerifyIntegrity() error {
	if s == nil {
		return nil
	}
	seen := map[resource.URN]int{}    // live resources by URN
	anyURN := map[resource.URN]bool{} // any resource, deleted or not
	providers := map[string]bool{}
	for i, r := range s.Resources {
		if r.URN == "" {
			return &IntegrityError{Reason: fmt.Sprintf("resource #%d has no URN", i)}
		}
		if r.Type == "" {
			return &IntegrityError{URN: r.URN, Reason: "it has no type"}
		}
		if r.Type != r.URN.Type() {
			return &IntegrityError{URN: r.URN, Reason: fmt.Sprintf("its type %q does not match its URN", r.Type)}
		}
		if !r.Custom && r.ID != "" {
			return &IntegrityError{URN: r.URN, Reason: "it is a component resource but has an ID"}
		}
		if r.Provider != "" && !r.PendingReplacement {
			if !providers[r.Provider] {
				ref, err := resource.ParseProviderRef(r.Provider)
				if err != nil {
					return &IntegrityError{URN: r.URN, Reason: err.Error()}
				}
				return &IntegrityError{URN: r.URN, Reason: fmt.Sprintf("its provider %s is missing or comes after it", ref.URN)}
			}
		}
		check := func(kind string, u resource.URN) error {
			if !anyURN[u] {
				where := "is missing"
				if s.hasURNAfter(i, u) {
					where = "comes after it"
				}
				return &IntegrityError{URN: r.URN, Reason: fmt.Sprintf("its %s %s %s", kind, u, where)}
			}
			return nil
		}
		if r.Parent != "" {
			if err := check("parent", r.Parent); err != nil {
				return err
			}
		}
		for _, d := range r.Dependencies {
			if err := check("dependency", d); err != nil {
				return err
			}
		}
		for _, k := range slices.Sorted(maps.Keys(r.PropertyDependencies)) {
			for _, d := range r.PropertyDependencies[k] {
				if err := check("property dependency", d); err != nil {
					return err
				}
			}
		}
		if r.DeletedWith != "" {
			if err := check("deletedWith", r.DeletedWith); err != nil {
				return err
			}
		}
		for _, d := range r.ReplaceWith {
			if err := check("replaceWith", d); err != nil {
				return err
			}
		}
		if !r.Delete {
			if j, dup := seen[r.URN]; dup {
				return &IntegrityError{URN: r.URN, Reason: fmt.Sprintf("it appears twice (#%d and #%d) and neither is pending deletion", j, i)}
			}
			seen[r.URN] = i
		}
		anyURN[r.URN] = true
		if resource.IsProviderType(r.Type) {
			providers[resource.ProviderRef{URN: r.URN, ID: r.ID}.String()] = true
		}
	}
	return nil
}

func (s *Snapshot) hasURNAfter(i int, u resource.URN) bool {
	for _, r := range s.Resources[i+1:] {
		if r.URN == u {
			return true
		}
	}
	return false
}
