package deploy

import (
	"fmt"
	"sort"

	"github.com/cairn-iac/cairn/engine/resource"
)

// Snapshot is a stack's recorded state: its resources in dependency order and
// the operations that began but were not seen to end.
type Snapshot struct {
	Resources         []*resource.State
	PendingOperations []resource.Operation
	Seeds             Seeds
}

// Seeds is what the random seeds given to Check derive from: the stack's
// secret key and the number of updates that derived seeds from it. Each
// update takes the next generation and records it; a preview takes the next
// without recording it, so it agrees with the update that follows.
type Seeds struct {
	Key        []byte // 32 random bytes, made when the stack first needs a seed
	Generation int64
	// Open, when set and Key is nil, returns the key of a state read back,
	// decrypting it: a deployment that derives no seed (a no-change update)
	// never waits for the secrets manager's key.
	Open func() ([]byte, error)
	// Sealed is the key as a backend stored it; while Key is nil, a backend
	// sealing with the same secrets provider writes it back as it was.
	Sealed *SealedKey
}

// SealedKey is a seed key as stored, and the secrets provider (type and
// state) that sealed it.
type SealedKey struct {
	Value                   any
	Provider, ProviderState string
}

// Bytes returns the key, nil if there is none.
func (s Seeds) Bytes() ([]byte, error) {
	if s.Key == nil && s.Open != nil {
		return s.Open()
	}
	return s.Key, nil
}

// Root returns the stack's root resource, or nil.
func (s *Snapshot) Root() *resource.State {
	if s == nil {
		return nil
	}
	for _, r := range s.Resources {
		if r.Type == resource.RootStackType && r.Parent == "" && !r.Delete {
			return r
		}
	}
	return nil
}

// Find returns the live (not pending delete) resource with the URN, or nil.
func (s *Snapshot) Find(urn resource.URN) *resource.State {
	if s == nil {
		return nil
	}
	for _, r := range s.Resources {
		if r.URN == urn && !r.Delete {
			return r
		}
	}
	return nil
}

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
		for _, k := range sortedKeys(r.PropertyDependencies) {
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

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
