package tfaddr

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	version "github.com/hashicorp/go-version"
)

// versionPattern matches the versions in go-version's constraints.
var versionPattern = regexp.MustCompile(version.VersionRegexpRaw)

// ModuleVersion is a version a module registry lists, read as OpenTofu's
// module installer reads it (hashicorp/go-version: a "v" prefix and
// fewer or more than three numbers are allowed).
type ModuleVersion = *version.Version

// ParseModuleVersion reads a module version.
func ParseModuleVersion(s string) (ModuleVersion, error) {
	v, err := version.NewVersion(s)
	if err != nil {
		return nil, fmt.Errorf("version %q: %v", s, err)
	}
	return v, nil
}

// ModuleConstraints are the version constraints of a module call, read
// as OpenTofu's module installer reads them: with hashicorp/go-version,
// and a prerelease allowed only when a constraint names it exactly, by
// go-versions's rule.
type ModuleConstraints struct{ cs version.Constraints }

// ParseModuleConstraints reads a module call's version; an empty one
// allows every release.
func ParseModuleConstraints(s string) (ModuleConstraints, error) {
	if strings.TrimSpace(s) == "" {
		return ModuleConstraints{}, nil
	}
	cs, err := version.NewConstraint(s)
	if err != nil {
		return ModuleConstraints{}, fmt.Errorf("version constraints %q: %v", s, err)
	}
	return ModuleConstraints{cs}, nil
}

// String returns the constraints as go-version writes them.
func (mc ModuleConstraints) String() string { return mc.cs.String() }

// Allows reports whether v meets the constraints.
func (mc ModuleConstraints) Allows(v ModuleVersion) bool {
	if v.Prerelease() != "" {
		// OpenTofu reads go-version's form of the constraints as
		// go-versions's npm-style ones, its "v" prefixes dropped; what it
		// cannot read selects no prerelease.
		spec := versionPattern.ReplaceAllStringFunc(mc.cs.String(), func(s string) string { return strings.TrimPrefix(s, "v") })
		allowed, err := versions.MeetingConstraintsString(spec)
		if err != nil || mc.cs == nil {
			return false
		}
		exact, err := versions.ParseVersion(v.String())
		if err != nil || !allowed.Has(exact) {
			return false
		}
	}
	return mc.cs.Check(v)
}
