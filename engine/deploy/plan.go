package deploy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/engine/plan"
	"github.com/cairn-iac/cairn/engine/resource"
)

// followPlan compares the steps about to run for a resource with
// Options.Plan, before they touch it: a step that diverges fails the
// resource, naming the planned and the actual values.
func (d *deployment) followPlan(chain []*step) error {
	if d.opts.Plan == nil {
		return nil
	}
	s := logicalStep(chain)
	d.mu.Lock()
	d.followed[s.urn] = true
	d.mu.Unlock()
	if err := d.opts.Plan.Check(s.urn, string(s.op), plannedInputs(s)); err != nil {
		return d.fail(s.urn, s.op, err)
	}
	return nil
}

// unfollowedPlan reports the changes of Options.Plan that the deployment
// did not make, because the program no longer declares their resources.
func (d *deployment) unfollowedPlan() error {
	if d.opts.Plan == nil {
		return nil
	}
	var missing []string
	d.mu.Lock()
	for urn, s := range d.opts.Plan.Resources {
		if !d.followed[urn] && Op(s.Op).IsChange() {
			missing = append(missing, fmt.Sprintf("%s of %s", s.Op, urn))
		}
	}
	d.mu.Unlock()
	if len(missing) == 0 {
		return nil
	}
	slices.Sort(missing)
	return fmt.Errorf("the update diverges from the plan: the planned %s did not happen, as the program no longer leads to it; "+
		"save a new plan with `cairn preview --save-plan`", strings.Join(missing, ", "))
}

// recordPlanned keeps, in a preview, the step a resource took and the
// outputs it is expected to have, for Result.Planned.
func (d *deployment) recordPlanned(chain []*step, res stepResult) {
	if !d.opts.DryRun {
		return
	}
	s := logicalStep(chain)
	ps := plan.Step{Op: string(s.op), Inputs: plannedInputs(s)}
	if res.state != nil {
		ps.Outputs = res.state.Outputs
	}
	d.mu.Lock()
	d.planned[s.urn] = ps
	d.mu.Unlock()
}

// logicalStep returns the step of a chain the user sees.
func logicalStep(chain []*step) *step {
	for _, s := range chain {
		if s.logical {
			return s
		}
	}
	return chain[0]
}

// plannedInputs are the inputs a step gives its resource; none for deletes.
func plannedInputs(s *step) resource.Map {
	if s.new == nil {
		return nil
	}
	return s.new.Inputs
}
