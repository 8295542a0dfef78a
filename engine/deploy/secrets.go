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

// sealMap returns m with its secrets sealed by Options.SealSecret (m
// itself when none changes); a secret that cannot be sealed is left as it
// is, and its digest is then keyed.
func (d *deployment) sealMap(m resource.Map) resource.Map {
	out, _ := d.sealed(m)
	return out
}

// sealed returns m with its secrets sealed, and whether any was.
func (d *deployment) sealed(m resource.Map) (resource.Map, bool) {
	if d.opts.SealSecret == nil || !m.ContainsSecrets() {
		return m, false
	}
	var out resource.Map
	for k, v := range m {
		if w, changed := d.seal(v); changed {
			if out == nil {
				out = m.Copy()
			}
			out[k] = w
		}
	}
	if out == nil {
		return m, false
	}
	return out, true
}

// seal returns v with its secrets sealed, and whether any was.
func (d *deployment) seal(v resource.Value) (resource.Value, bool) {
	switch v.Kind() {
	case resource.SecretKind:
		if _, _, ok := v.Ciphertext(); ok {
			return v, false
		}
		w, err := d.opts.SealSecret(v)
		return w, err == nil
	case resource.ArrayKind:
		a := v.ArrayValue()
		var out []resource.Value
		for i, e := range a {
			if w, changed := d.seal(e); changed {
				if out == nil {
					out = slices.Clone(a)
				}
				out[i] = w
			}
		}
		if out != nil {
			return resource.Array(out...), true
		}
	case resource.ObjectKind:
		if w, changed := d.sealed(v.ObjectValue()); changed {
			return resource.Object(w), true
		}
	}
	return v, false
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
