package console

import (
	"maps"
	"slices"
	"time"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// The JSON documents of the API. Times are RFC 3339, null when unknown.

// stackName names a stack.
type stackName struct {
	Project string `json:"project"`
	Name    string `json:"name"`
}

func nameOf(ref backend.StackRef) stackName { return stackName{Project: ref.Project, Name: ref.Name} }

// stackList is GET /api/stacks: the backend's stacks.
type stackList struct {
	Backend string      `json:"backend"` // its URL, credentials masked
	Current *stackName  `json:"current"` // the stack the console was started for
	Stacks  []stackItem `json:"stacks"`
}

// stackItem is one stack of the list: when it was last written, and
// whether an operation runs on it or how the last one ended.
type stackItem struct {
	stackName
	LastUpdate *time.Time             `json:"lastUpdate"`
	Resources  int                    `json:"resources"`
	Running    *backend.LockInfo      `json:"running"` // who holds its lock
	Last       *backend.HistoryRecord `json:"last"`    // its latest operation
	Error      string                 `json:"error,omitempty"`
}

// stackView is GET /api/stacks/{project}/{stack}: everything the stack's
// pages show.
type stackView struct {
	stackName
	// Version changes whenever what the stack's pages show does (see
	// version); the pages poll it to refresh.
	Version           string                  `json:"version"`
	LastUpdate        *time.Time              `json:"lastUpdate"`
	Running           *backend.LockInfo       `json:"running"`
	Tags              backend.Tags            `json:"tags"`
	Outputs           map[string]any          `json:"outputs"`
	Resources         []resourceView          `json:"resources"`
	PendingOperations []pendingView           `json:"pendingOperations"`
	History           []backend.HistoryRecord `json:"history"` // newest first
	// Plan is set when the console shows a saved plan of this stack.
	Plan bool `json:"plan"`
}

// resourceView is one resource of a stack, in the state's order (a
// resource after what it refers to).
type resourceView struct {
	URN  resource.URN `json:"urn"`
	Type string       `json:"type"`
	Name string       `json:"name"`
	ID   resource.ID  `json:"id,omitempty"`
	// Custom is false for a component resource.
	Custom bool         `json:"custom"`
	Parent resource.URN `json:"parent,omitempty"`
	// Provider is the URN of the provider resource that manages it.
	Provider resource.URN `json:"provider,omitempty"`
	// Dependencies are the resources it depends on, by its dependencies
	// and its properties', each once.
	Dependencies         []resource.URN            `json:"dependencies"`
	PropertyDependencies map[string][]resource.URN `json:"propertyDependencies,omitempty"`
	Protect              bool                      `json:"protect,omitempty"`
	Delete               bool                      `json:"delete,omitempty"` // replaced, waiting to be deleted
	PendingReplacement   bool                      `json:"pendingReplacement,omitempty"`
	Taint                bool                      `json:"taint,omitempty"`
	External             bool                      `json:"external,omitempty"`
	RetainOnDelete       bool                      `json:"retainOnDelete,omitempty"`
	Created              *time.Time                `json:"created,omitempty"`
	Modified             *time.Time                `json:"modified,omitempty"`
	SourcePosition       string                    `json:"sourcePosition,omitempty"`
	InitErrors           []string                  `json:"initErrors,omitempty"`
	Inputs               map[string]any            `json:"inputs"`
	Outputs              map[string]any            `json:"outputs"`
}

// pendingView is an operation that began and was not seen to end.
type pendingView struct {
	URN  resource.URN `json:"urn"`
	Type string       `json:"type"` // creating, updating, deleting, …
}

// resourcesOf views a snapshot's resources and pending operations.
func resourcesOf(snap *snapshot.Snapshot) ([]resourceView, []pendingView) {
	res := make([]resourceView, 0, len(snap.Resources))
	for _, s := range snap.Resources {
		res = append(res, resourceOf(s))
	}
	pending := make([]pendingView, 0, len(snap.PendingOperations))
	for _, op := range snap.PendingOperations {
		pending = append(pending, pendingView{URN: op.Resource.URN, Type: string(op.Type)})
	}
	return res, pending
}

func resourceOf(s *resource.State) resourceView {
	r := resourceView{URN: s.URN, Type: s.Type, Name: s.URN.Name(), ID: s.ID, Custom: s.Custom, Parent: s.Parent,
		PropertyDependencies: s.PropertyDependencies, Protect: s.Protect, Delete: s.Delete,
		PendingReplacement: s.PendingReplacement, Taint: s.Taint, External: s.External, RetainOnDelete: s.RetainOnDelete,
		Created: s.Created, Modified: s.Modified, SourcePosition: s.SourcePosition, InitErrors: s.InitErrors,
		Inputs: encodeMap(s.Inputs), Outputs: encodeMap(s.Outputs), Dependencies: []resource.URN{}}
	if ref, err := resource.ParseProviderRef(s.Provider); err == nil {
		r.Provider = ref.URN
	}
	seen := map[resource.URN]bool{}
	add := func(d resource.URN) {
		if !seen[d] {
			seen[d] = true
			r.Dependencies = append(r.Dependencies, d)
		}
	}
	for _, d := range s.Dependencies {
		add(d)
	}
	for _, k := range slices.Sorted(maps.Keys(s.PropertyDependencies)) {
		for _, d := range s.PropertyDependencies[k] {
			add(d)
		}
	}
	return r
}

// timeOrNil is t, or nil when it is zero.
func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
