package rpc

import (
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// FailuresToWire converts check failures into their wire form.
func FailuresToWire(fs []provider.CheckFailure) []*pulumirpc.CheckFailure {
	if len(fs) == 0 {
		return nil
	}
	out := make([]*pulumirpc.CheckFailure, len(fs))
	for i, f := range fs {
		out[i] = &pulumirpc.CheckFailure{Property: f.Property, Reason: f.Reason}
	}
	return out
}

// FailuresFromWire converts wire check failures.
func FailuresFromWire(fs []*pulumirpc.CheckFailure) []provider.CheckFailure {
	if len(fs) == 0 {
		return nil
	}
	out := make([]provider.CheckFailure, len(fs))
	for i, f := range fs {
		out[i] = provider.CheckFailure{Property: f.GetProperty(), Reason: f.GetReason()}
	}
	return out
}

// URNs converts wire URNs.
func URNs(ss []string) []resource.URN {
	if len(ss) == 0 {
		return nil
	}
	out := make([]resource.URN, len(ss))
	for i, s := range ss {
		out[i] = resource.URN(s)
	}
	return out
}

// Strings converts URNs into their wire form.
func Strings(us []resource.URN) []string {
	if len(us) == 0 {
		return nil
	}
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = string(u)
	}
	return out
}

// URNLists is any of the wire messages that hold the URNs one property
// depends on (they differ only by name).
type URNLists interface{ GetUrns() []string }

// DepsFromWire converts a wire map of property dependencies.
func DepsFromWire[T URNLists](m map[string]T) map[string][]resource.URN {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string][]resource.URN, len(m))
	for k, deps := range m {
		out[k] = URNs(deps.GetUrns())
	}
	return out
}

// DepsToWire converts property dependencies into a wire map whose values
// wrap makes from the URNs.
func DepsToWire[T any](m map[string][]resource.URN, wrap func(urns []string) T) map[string]T {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]T, len(m))
	for k, deps := range m {
		out[k] = wrap(Strings(deps))
	}
	return out
}
