package deploy

import (
	"fmt"
	"slices"

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

// secretOutputs re-marks as secret the outputs whose input of the same name
// was secret, and those listed as additional secret outputs, in case the
// provider dropped the marks; and those that hold the plaintext of a
// secret Options.Masker knows (a command that printed one), so that the
// state keeps them encrypted and displays mask them.
func (d *deployment) secretOutputs(inputs, outputs resource.Map, additional []string) resource.Map {
	if outputs == nil {
		return nil
	}
	var out resource.Map
	mark := func(k string) {
		v, ok := outputs[k]
		if !ok || v.IsSecret() || v.IsNull() {
			return
		}
		if out == nil {
			out = outputs.Copy()
		}
		out[k] = resource.MakeSecret(v)
	}
	for k, v := range inputs {
		if v.ContainsSecrets() {
			mark(k)
		}
	}
	for _, k := range additional {
		mark(k)
	}
	for k, v := range outputs {
		if d.holdsKnownSecret(v) {
			mark(k)
		}
	}
	if out == nil {
		return outputs
	}
	return out
}

// holdsKnownSecret reports whether a string in v, not marked secret, holds
// the plaintext of a secret Options.Masker knows.
func (d *deployment) holdsKnownSecret(v resource.Value) bool {
	switch {
	case d.opts.Masker == nil || v.IsSecret():
		return false
	case v.IsString():
		s := v.StringValue()
		return d.opts.Masker.Mask(s) != s
	case v.IsArray():
		return slices.ContainsFunc(v.ArrayValue(), d.holdsKnownSecret)
	case v.IsObject():
		for _, e := range v.ObjectValue() {
			if d.holdsKnownSecret(e) {
				return true
			}
		}
	}
	return false
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
