package snapshot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/engine/resource"
)

// Copy returns a snapshot with every field of s and lists of its own; the
// resource states are shared, so an edit replaces a state instead of
// changing it.
func (s *Snapshot) Copy() *Snapshot {
	c := *s
	c.Resources = slices.Clone(s.Resources)
	c.PendingOperations = slices.Clone(s.PendingOperations)
	c.Seeds.Key = slices.Clone(s.Seeds.Key)
	return &c
}

// NotFoundError says that a snapshot has no live resource with a URN.
type NotFoundError struct{ URN resource.URN }

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("no resource %s in the stack's state", e.URN)
}

// index returns the position of the live resource with the URN.
func (s *Snapshot) index(urn resource.URN) (int, error) {
	for i, r := range s.Resources {
		if r.URN == urn && !r.Delete {
			return i, nil
		}
	}
	return -1, &NotFoundError{URN: urn}
}

// Forget returns a copy of s without the live resource urn, as if it had
// never been managed; the resource itself is not touched. It refuses a
// protected resource unless force, and one that other resources refer to
// (as children, dependencies, deletedWith or their provider).
func (s *Snapshot) Forget(urn resource.URN, force bool) (*Snapshot, error) {
	i, err := s.index(urn)
	if err != nil {
		return nil, err
	}
	r := s.Resources[i]
	if r.Protect && !force {
		return nil, fmt.Errorf("%s is protected; unprotect it first (`cairn state unprotect`), or force", urn)
	}
	var users []string
	for _, o := range s.Resources {
		if o != r && slices.Contains(o.References(), r.URN) {
			users = append(users, string(o.URN))
		}
	}
	if len(users) > 0 {
		return nil, fmt.Errorf("other resources depend on %s or are its children; forget them first:\n  %s", urn, strings.Join(users, "\n  "))
	}
	c := s.Copy()
	c.Resources = slices.Delete(c.Resources, i, i+1)
	return c, nil
}

// Unprotect returns a copy of s in which the live resource urn is not
// protected.
func (s *Snapshot) Unprotect(urn resource.URN) (*Snapshot, error) {
	i, err := s.index(urn)
	if err != nil {
		return nil, err
	}
	c := s.Copy()
	r := c.Resources[i].Copy()
	r.Protect = false
	c.Resources[i] = r
	return c, nil
}
