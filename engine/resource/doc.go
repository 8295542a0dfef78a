// Package resource is the vocabulary every other part of Cairn speaks: the
// property values that flow between programs, the engine and providers;
// the URNs that name resources; the recorded State of a resource and the
// pending Operations of a stack; property paths and diffs.
//
// A Value is immutable and has one Kind: null, bool, number, string, array,
// object (a Map), asset, archive, resource reference, unknown (a value a
// preview cannot know yet), secret (a value wrapped so that it is encrypted
// in state and masked on screen) or output (a value with its known-ness,
// secrecy and dependencies, as Pulumi's output values carry them). Secrets
// and unknowns nest: a secret's element may hold unknowns, and a map that
// holds a secret anywhere ContainsSecrets.
//
//	v := resource.Object(resource.Map{
//		"name":     resource.String("web"),
//		"password": resource.MakeSecret(resource.String("hunter2")),
//	})
//	v.ContainsSecrets() // true
//
// Encode and Decode convert values to and from the JSON forms of Pulumi's
// checkpoint and wire protocol, where special values carry Pulumi's
// signature keys; ParsePath reads property paths such as a.b[0]["c.d"];
// DiffMaps compares two property maps as a provider's detailed diff does.
package resource
