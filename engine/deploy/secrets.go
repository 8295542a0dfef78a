package deploy

import (
	"fmt"

	"github.com/cairn-iac/cairn/engine/resource"
)

// learn tells Options.Masker the secrets of a resource state.
func (d *deployment) learn(s *resource.State) {
	if s != nil {
		d.learnMaps(s.Inputs, s.Outputs)
	}
}

// learnMaps tells Options.Masker the secrets of property maps.
func (d *deployment) learnMaps(ms ...resource.Map) {
	if d.opts.Masker == nil {
		return
	}
	for _, m := range ms {
		m.SecretStrings(d.opts.Masker.Add)
	}
}

// learnOutputs tells Options.Masker the secrets of a state a provider has
// just returned, and masks them in its initErrors, which the state keeps.
func (d *deployment) learnOutputs(n *resource.State) {
	d.learn(n)
	if d.opts.Masker == nil || n.InitErrors == nil {
		return
	}
	masked := make([]string, len(n.InitErrors))
	for i, e := range n.InitErrors {
		masked[i] = d.opts.Masker.Mask(e)
	}
	n.InitErrors = masked
}

// verifySecrets runs Options.VerifySecrets; see secretsVerified.
func (d *deployment) verifySecrets() error {
	if d.opts.VerifySecrets == nil {
		return nil
	}
	if err := d.opts.VerifySecrets(); err != nil {
		return fmt.Errorf("no resource was changed: %w", err)
	}
	return nil
}

// mutates reports whether an operation of a step changes a resource, and
// so must wait until the stack's secrets are verified.
func mutates(typ resource.OperationType) bool {
	return typ == resource.OpCreating || typ == resource.OpUpdating || typ == resource.OpDeleting
}
