package plan

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/engine/resource"
)

// Plan is a saved plan of an update.
type Plan struct {
	Stack   string
	Project string
	// Base is the stack's state the plan was made against.
	Base Base
	// ProgramHash and ConfigHash identify the program and the stack
	// configuration the plan was made with (Hash of their files).
	ProgramHash string
	ConfigHash  string
	// SeedKey is the key random seeds derive from when the base state has
	// none (a new stack): the update must use it to draw the planned values.
	SeedKey []byte
	// Resources are the planned steps by URN.
	Resources map[resource.URN]Step
}

// Step is the planned step of one resource.
type Step struct {
	// Op is the logical operation, as the engine names it ("create",
	// "update", "replace", "delete", "same", …).
	Op string
	// Inputs are the planned inputs, which may hold unknowns (values the
	// preview could not know); nil for deletes.
	Inputs resource.Map
	// Outputs are the outputs the preview expected, where known.
	Outputs resource.Map
}

// Check compares a step an update is about to take with the plan: the same
// operation, and inputs equal to the planned ones except where those were
// unknown. A resource the plan does not hold may only stay the same. The
// error names the resource and the planned and actual values, secrets
// masked.
func (p *Plan) Check(urn resource.URN, op string, inputs resource.Map) error {
	planned, ok := p.Resources[urn]
	switch {
	case !ok && op == "same":
		return nil
	case !ok:
		return fmt.Errorf("the update diverges from the plan at %s: the plan does not touch it, but the update would %s it; "+
			"save a new plan with `cairn preview --save-plan`", urn, op)
	case planned.Op != op:
		return fmt.Errorf("the update diverges from the plan at %s: planned %s, but the update would %s it; "+
			"save a new plan with `cairn preview --save-plan`", urn, planned.Op, op)
	}
	if planned.Inputs == nil {
		return nil
	}
	var diffs []string
	within(nil, resource.Object(planned.Inputs), resource.Object(inputs), false, &diffs)
	if len(diffs) > 0 {
		return fmt.Errorf("the update diverges from the plan at %s (%s): %s; save a new plan with `cairn preview --save-plan`",
			urn, op, strings.Join(diffs, "; "))
	}
	return nil
}

// within appends to diffs a line for each path where actual is not what
// planned allows: planned unknowns allow anything; secret marks are not
// compared, only what they hold, and what is under a secret (secret set) is
// shown as [secret].
func within(path resource.Path, planned, actual resource.Value, secret bool, diffs *[]string) {
	planned, actual = planned.Resolve(), actual.Resolve()
	switch {
	case planned.IsUnknown():
		return
	case planned.IsSecret() || actual.IsSecret():
		within(path, open(planned), open(actual), true, diffs)
		return
	case planned.IsObject() && actual.IsObject():
		pm, am := planned.ObjectValue(), actual.ObjectValue()
		keys := pm.SortedKeys()
		for _, k := range am.SortedKeys() {
			if _, ok := pm[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			within(append(path[:len(path):len(path)], k), pm[k], am[k], secret, diffs)
		}
		return
	case planned.IsArray() && actual.IsArray() && len(planned.ArrayValue()) == len(actual.ArrayValue()):
		for i, e := range planned.ArrayValue() {
			within(append(path[:len(path):len(path)], i), e, actual.ArrayValue()[i], secret, diffs)
		}
		return
	case planned.Equal(actual):
		return
	}
	*diffs = append(*diffs, fmt.Sprintf("%s planned %s, actual %s", describe(path), show(planned, secret), show(actual, secret)))
}

// open returns what a secret holds, or the value itself.
func open(v resource.Value) resource.Value {
	if v.IsSecret() {
		return v.SecretElement()
	}
	return v
}

// show prints a value for an error, [secret] when it is or holds a secret.
func show(v resource.Value, secret bool) string {
	if secret || v.ContainsSecrets() {
		return "[secret]"
	}
	return v.String()
}

func describe(p resource.Path) string {
	if len(p) == 0 {
		return "inputs"
	}
	return fmt.Sprintf("input %s", p.String())
}
