package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/state"
)

// Base identifies the stack's state a plan was made against.
type Base struct {
	// Version is the number of the stack's latest operation (0 for none).
	Version int `json:"version"`
	// Hash is the hash of the stored state, its manifest left out.
	Hash string `json:"hash"`
	// Resources hash each resource of the state by URN, so that a state
	// that moved can be told apart resource by resource.
	Resources map[resource.URN]string `json:"resources,omitempty"`
}

// BaseOf describes a stack's state as stored: version is the number of its
// latest operation, u its export (nil for a stack with no state).
func BaseOf(version int, u *state.UntypedDeployment) (Base, error) {
	b := Base{Version: version, Resources: map[resource.URN]string{}}
	var raw []byte
	if u != nil {
		raw = u.Deployment
	}
	if len(raw) == 0 {
		b.Hash = Hash(nil)
		return b, nil
	}
	// The manifest (when and by what the state was written) is left out:
	// the hash covers what the state holds.
	var dep map[string]json.RawMessage
	if err := json.Unmarshal(raw, &dep); err != nil {
		return Base{}, fmt.Errorf("reading the stack's state: %w", err)
	}
	delete(dep, "manifest")
	held, err := json.Marshal(dep)
	if err != nil {
		return Base{}, err
	}
	b.Hash = Hash(held)
	var resources []json.RawMessage
	if r := dep["resources"]; r != nil {
		if err := json.Unmarshal(r, &resources); err != nil {
			return Base{}, fmt.Errorf("reading the stack's state: %w", err)
		}
	}
	for i, r := range resources {
		var id struct {
			URN resource.URN `json:"urn"`
		}
		if err := json.Unmarshal(r, &id); err != nil {
			return Base{}, fmt.Errorf("reading resource #%d of the stack's state: %w", i, err)
		}
		var b2 bytes.Buffer
		if err := json.Compact(&b2, r); err != nil {
			return Base{}, err
		}
		// A URN held twice (a resource and its replaced original) hashes
		// both, in order.
		b.Resources[id.URN] = Hash([]byte(b.Resources[id.URN] + b2.String()))
	}
	return b, nil
}

// Since returns nil when current is the state b describes, and otherwise an
// error saying which resources were added, removed or changed since.
func (b Base) Since(current Base) error {
	if b.Hash == current.Hash {
		return nil
	}
	var added, removed, changed []string
	for u, h := range current.Resources {
		switch old, ok := b.Resources[u]; {
		case !ok:
			added = append(added, string(u))
		case old != h:
			changed = append(changed, string(u))
		}
	}
	for u := range b.Resources {
		if _, ok := current.Resources[u]; !ok {
			removed = append(removed, string(u))
		}
	}
	var what []string
	for _, l := range []struct {
		name string
		urns []string
	}{{"added", added}, {"removed", removed}, {"changed", changed}} {
		if len(l.urns) > 0 {
			slices.Sort(l.urns)
			what = append(what, l.name+" "+strings.Join(l.urns, ", "))
		}
	}
	if len(what) == 0 {
		what = append(what, "its resources are the same, but it was written again")
	}
	return fmt.Errorf("the stack's state is not the one the plan was made against: it moved from version %d to %d since (%s); "+
		"save a new plan with `cairn preview --save-plan` and review it", b.Version, current.Version, strings.Join(what, "; "))
}

// HashFiles hashes a set of files by name, for the plan's program and
// configuration hashes.
func HashFiles(files map[string][]byte) string {
	var b bytes.Buffer
	for _, name := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(&b, "%s\x00%d\x00", name, len(files[name]))
		b.Write(files[name])
	}
	return Hash(b.Bytes())
}
