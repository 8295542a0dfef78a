// Package plan holds saved plans: what a preview decided to do to each
// resource, kept in a file so that a later update applies exactly that, as
// Terraform's `plan -out` / `apply PLAN` and Pulumi's update plans do.
//
// A plan records the state it was made against (its version and hash, and
// a hash of each resource), hashes of the program and the configuration,
// the key random seeds derive from, and for each resource the planned
// operation, inputs and expected outputs. The file is versioned JSON whose
// secrets are encrypted with the stack's secrets manager, as in the state.
//
// Usage:
//
//	p := &plan.Plan{Stack: "dev", Project: "web", Base: base, Resources: res.Planned}
//	hash, err := plan.Save("plan.json", p, sm)
//	...
//	p, hash, err := plan.Load("plan.json", sm)
//	if err := p.Base.Since(current); err != nil { ... } // the state moved
//	err = p.Check(urn, "create", inputs)               // before each step
package plan
