// Package rpc converts Cairn's engine values and provider messages to and
// from their forms on the Pulumi gRPC wire.
//
// Property values travel as google.protobuf.Struct values with Pulumi's
// signatures (secrets, unknowns, resource references, output values, assets
// and archives). What a receiver may be sent depends on what it negotiated:
// an SDK says so per request (acceptSecrets, acceptResources,
// supportsPartialValues), a provider in its Handshake or Configure answer.
// Options carries that negotiation; Marshal and Unmarshal apply it in both
// directions, downgrading what the other side cannot take exactly as
// Pulumi does:
//
//   - without KeepSecrets a secret becomes its plain element;
//   - without KeepResources a resource reference becomes its ID (custom
//     resources) or its URN (components);
//   - without KeepOutputValues an output becomes its element, wrapped as a
//     secret when it is secret, or an unknown when it is not known;
//   - without KeepUnknowns an unknown is an error when RejectUnknowns is set
//     and is left out otherwise (object properties and array elements
//     alike).
//
// The JSON-shaped encoding itself is resource.Encode and resource.Decode;
// this package adds the negotiation and the protobuf Struct form.
//
//	args, err := rpc.MarshalMap(inputs, rpc.Options{KeepUnknowns: preview, KeepSecrets: acceptSecrets})
//	outputs, err := rpc.UnmarshalMap(resp.GetProperties(), rpc.Options{KeepSecrets: true, KeepResources: true})
//
// The property maps of the messages sent most (the requests of Check, Diff
// and the other resource calls, and the answers of a served provider) skip
// the Struct: WithProperties writes them straight into protobuf's wire
// format (AppendMap) as the message's unknown fields, which proto.Marshal
// sends as they are and the receiver reads as the Struct fields.
//
//	req, err := rpc.WithProperties(&pulumirpc.CheckRequest{Urn: urn},
//		rpc.Property{Field: "olds", Map: olds, Opts: o}, rpc.Property{Field: "news", Map: news, Opts: o})
//
// The package also holds the conversions of the message parts that provider
// clients and servers share: diffs, check failures, dependency maps, partial
// failures (ErrorResourceInitFailed) and stack configuration.
package rpc
