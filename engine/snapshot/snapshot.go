package snapshot

import (
	"crypto/rand"

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
	// Sealed is the key as stored, while Key is nil: a state read back keeps
	// it encrypted until a deployment derives a seed, so one that derives
	// none (a no-change update) never waits for the secrets manager's key,
	// and writes it back as it was.
	Sealed *SealedKey
}

// NewSeeds returns the seed state of a new stack: a new random key, at
// generation 0.
func NewSeeds() (Seeds, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return Seeds{}, err
	}
	return Seeds{Key: key}, nil
}

// SealedKey is a seed key as stored: the secret value in the checkpoint's
// form, and the secrets provider (type and compact JSON state) that sealed
// it. Provider is empty when the state names none.
type SealedKey struct {
	Value                   any
	Provider, ProviderState string
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
