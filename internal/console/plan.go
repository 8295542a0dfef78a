package console

import (
	"maps"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/engine/plan"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// planView is GET /api/plan: the changes of the saved plan the console was
// started with, against the stack's current state.
type planView struct {
	stackName
	File string `json:"file"`
	// BaseVersion is the stack's version the plan was made against.
	BaseVersion int        `json:"baseVersion"`
	Steps       []stepView `json:"steps"` // by URN; steps that change nothing are left out
	Unchanged   int        `json:"unchanged"`
}

// stepView is a planned step that changes a resource: its operation, and
// the properties it changes.
type stepView struct {
	URN     resource.URN `json:"urn"`
	Type    string       `json:"type"`
	Name    string       `json:"name"`
	Op      string       `json:"op"`
	Changes []changeView `json:"changes"`
}

// changeView is one top-level property a step changes: its value in the
// stack's current state (absent for a new one) and in the plan (absent for
// one removed). Properties whose names begin with "__" are the providers'
// bookkeeping and are left out, as in the terminal's diffs.
type changeView struct {
	Key string `json:"key"`
	Old any    `json:"old,omitempty"`
	New any    `json:"new,omitempty"`
	// Sealed is set for a property holding secrets on both sides, which
	// may or may not change.
	Sealed bool `json:"sealed,omitempty"`
}

// loadPlan reads a plan saved for the stack, its secrets left sealed.
func loadPlan(path string, stack stackName) (*plan.Plan, error) {
	p, _, err := plan.Load(path, stack.Name, stack.Project, sealed{})
	return p, err
}

// viewPlan compares a plan with the state current.
func viewPlan(p *plan.Plan, file string, current *snapshot.Snapshot) planView {
	v := planView{stackName: stackName{Project: p.Project, Name: p.Stack}, File: file, BaseVersion: p.Base.Version, Steps: []stepView{}}
	for _, urn := range slices.Sorted(maps.Keys(p.Resources)) {
		step := p.Resources[urn]
		if step.Op == "same" {
			v.Unchanged++
			continue
		}
		var old resource.Map
		if s := current.Find(urn); s != nil {
			old = s.Inputs
		}
		planned := step.Inputs
		if step.Op == "delete" {
			planned = nil
		}
		v.Steps = append(v.Steps, stepView{URN: urn, Type: urn.Type(), Name: urn.Name(), Op: step.Op, Changes: changes(old, planned)})
	}
	return v
}

// changes lists the properties that differ between old and planned. The
// console cannot decrypt secrets, so a secret present on both sides is
// listed, as Sealed: whether it changes cannot be told.
func changes(old, planned resource.Map) []changeView {
	keys := map[string]bool{}
	for k := range old {
		keys[k] = true
	}
	for k := range planned {
		keys[k] = true
	}
	out := []changeView{}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		o, hasOld := old[k]
		n, hasNew := planned[k]
		sealed := hasOld && hasNew && (o.ContainsSecrets() || n.ContainsSecrets())
		if strings.HasPrefix(k, "__") || hasOld && hasNew && !sealed && o.Equal(n) {
			continue
		}
		c := changeView{Key: k, Sealed: sealed}
		if hasOld {
			c.Old = encodeValue(o)
		}
		if hasNew {
			c.New = encodeValue(n)
		}
		out = append(out, c)
	}
	return out
}
