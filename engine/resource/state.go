package resource

import (
	"slices"
	"time"
)

// ID is a custom resource's provider-assigned identifier.
type ID string

// CustomTimeouts are per-operation timeouts in seconds (0 means the
// provider's default).
type CustomTimeouts struct {
	Create float64
	Update float64
	Delete float64
	Read   float64
}

// IsZero reports whether no timeout is set.
func (t CustomTimeouts) IsZero() bool { return t == CustomTimeouts{} }

// State is the recorded state of one resource in a snapshot.
type State struct {
	URN      URN
	Type     string
	Custom   bool
	Delete   bool // a replaced resource awaiting deletion
	ID       ID
	Inputs   Map
	Outputs  Map
	Parent   URN
	Protect  bool
	Taint    bool
	External bool // read with ReadResource, not managed

	Dependencies         []URN
	PropertyDependencies map[string][]URN
	InitErrors           []string
	Provider             string // provider reference "<urn>::<id>"
	PendingReplacement   bool   // deleted before its replacement was created

	AdditionalSecretOutputs []string
	CustomTimeouts          CustomTimeouts
	ImportID                ID
	RetainOnDelete          bool
	DeletedWith             URN
	ReplaceWith             []URN
	ReplacementTrigger      Value
	IgnoreChanges           []string
	ReplaceOnChanges        []string
	HideDiff                []string
	RefreshBeforeUpdate     bool
	SourcePosition          string

	// Digest is what went into Check and Diff at the resource's last
	// successful step, recorded by the engine so that an unchanged
	// registration skips them; empty when not recorded.
	Digest string

	Created  *time.Time
	Modified *time.Time
}

// Copy returns a copy of s that shares no slices or maps with it (values are
// immutable and are shared).
func (s *State) Copy() *State {
	c := *s
	c.Inputs = s.Inputs.Copy()
	c.Outputs = s.Outputs.Copy()
	c.Dependencies = append([]URN(nil), s.Dependencies...)
	if s.PropertyDependencies != nil {
		c.PropertyDependencies = make(map[string][]URN, len(s.PropertyDependencies))
		for k, v := range s.PropertyDependencies {
			c.PropertyDependencies[k] = append([]URN(nil), v...)
		}
	}
	c.InitErrors = append([]string(nil), s.InitErrors...)
	c.AdditionalSecretOutputs = append([]string(nil), s.AdditionalSecretOutputs...)
	c.ReplaceWith = append([]URN(nil), s.ReplaceWith...)
	c.IgnoreChanges = append([]string(nil), s.IgnoreChanges...)
	c.ReplaceOnChanges = append([]string(nil), s.ReplaceOnChanges...)
	c.HideDiff = append([]string(nil), s.HideDiff...)
	return &c
}

// Equal reports whether s and o record the same resource state: values
// compared as values, a nil list or map the same as an empty one, times
// as instants.
func (s *State) Equal(o *State) bool {
	if s.URN != o.URN || s.Type != o.Type || s.Custom != o.Custom || s.Delete != o.Delete || s.ID != o.ID ||
		s.Parent != o.Parent || s.Protect != o.Protect || s.Taint != o.Taint || s.External != o.External ||
		s.Provider != o.Provider || s.PendingReplacement != o.PendingReplacement || s.CustomTimeouts != o.CustomTimeouts ||
		s.ImportID != o.ImportID || s.RetainOnDelete != o.RetainOnDelete || s.DeletedWith != o.DeletedWith ||
		s.RefreshBeforeUpdate != o.RefreshBeforeUpdate || s.SourcePosition != o.SourcePosition || s.Digest != o.Digest {
		return false
	}
	if !s.Inputs.Equal(o.Inputs) || !s.Outputs.Equal(o.Outputs) || !s.ReplacementTrigger.Equal(o.ReplacementTrigger) ||
		!sameTime(s.Created, o.Created) || !sameTime(s.Modified, o.Modified) {
		return false
	}
	if !slices.Equal(s.Dependencies, o.Dependencies) || !slices.Equal(s.InitErrors, o.InitErrors) ||
		!slices.Equal(s.AdditionalSecretOutputs, o.AdditionalSecretOutputs) || !slices.Equal(s.ReplaceWith, o.ReplaceWith) ||
		!slices.Equal(s.IgnoreChanges, o.IgnoreChanges) || !slices.Equal(s.ReplaceOnChanges, o.ReplaceOnChanges) ||
		!slices.Equal(s.HideDiff, o.HideDiff) || len(s.PropertyDependencies) != len(o.PropertyDependencies) {
		return false
	}
	for k, v := range s.PropertyDependencies {
		if w, ok := o.PropertyDependencies[k]; !ok || !slices.Equal(v, w) {
			return false
		}
	}
	return true
}

func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Equal(*b)
}

// References returns every URN s refers to: parent, dependencies, property
// dependencies, deletedWith, replaceWith and its provider.
func (s *State) References() []URN {
	var out []URN
	if s.Parent != "" {
		out = append(out, s.Parent)
	}
	out = append(out, s.Dependencies...)
	for _, deps := range s.PropertyDependencies {
		out = append(out, deps...)
	}
	if s.DeletedWith != "" {
		out = append(out, s.DeletedWith)
	}
	out = append(out, s.ReplaceWith...)
	if s.Provider != "" {
		if ref, err := ParseProviderRef(s.Provider); err == nil {
			out = append(out, ref.URN)
		}
	}
	return out
}

// OperationType names what a pending operation was doing when it was
// interrupted.
type OperationType string

// The kinds of pending operations.
const (
	OpCreating  OperationType = "creating"
	OpUpdating  OperationType = "updating"
	OpDeleting  OperationType = "deleting"
	OpReading   OperationType = "reading"
	OpImporting OperationType = "importing"
)

// Operation is a provider operation that began and has not been seen to end.
type Operation struct {
	Resource *State
	Type     OperationType
}
