package resource

import (
	"fmt"
	"strings"
)

// UnknownID is the ID of a resource not created yet, as seen during a preview.
const UnknownID ID = UnknownSentinel

// ProviderRef refers to a provider resource by URN and ID.
type ProviderRef struct {
	URN URN
	ID  ID
}

// ParseProviderRef parses "<urn>::<id>".
func ParseProviderRef(s string) (ProviderRef, error) {
	i := strings.LastIndex(s, "::")
	if i < 0 {
		return ProviderRef{}, fmt.Errorf("invalid provider reference %q: want <urn>::<id>", s)
	}
	urn, err := ParseURN(s[:i])
	if err != nil {
		return ProviderRef{}, fmt.Errorf("invalid provider reference %q: %w", s, err)
	}
	if !IsProviderType(urn.Type()) {
		return ProviderRef{}, fmt.Errorf("invalid provider reference %q: %s is not a provider resource", s, urn)
	}
	return ProviderRef{URN: urn, ID: ID(s[i+2:])}, nil
}

// String renders r as "<urn>::<id>".
func (r ProviderRef) String() string { return string(r.URN) + "::" + string(r.ID) }

// Package returns the package the provider serves.
func (r ProviderRef) Package() string { return ProviderTypePackage(r.URN.Type()) }
