package rpc

import "github.com/cairn-iac/cairn/engine/resource"

// RemarkSecrets returns outputs with the secret marks that a receiver which
// does not accept secrets could not keep: wherever an input property held a
// secret, the output property of the same name is made secret. Objects on
// both sides are followed property by property, so a secret nested in an
// object input marks only the matching nested output. The result shares
// unchanged values with outputs.
func RemarkSecrets(outputs, inputs resource.Map) resource.Map {
	if outputs == nil || inputs == nil {
		return outputs
	}
	var out resource.Map
	set := func(k string, v resource.Value) {
		if out == nil {
			out = outputs.Copy()
		}
		out[k] = v
	}
	for k, in := range inputs {
		o, ok := outputs[k]
		if !ok || o.IsSecret() || !in.ContainsSecrets() {
			continue
		}
		if o.IsObject() && in.IsObject() {
			set(k, resource.Object(RemarkSecrets(o.ObjectValue(), in.ObjectValue())))
			continue
		}
		set(k, resource.MakeSecret(o))
	}
	if out == nil {
		return outputs
	}
	return out
}
