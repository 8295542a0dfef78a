package tfaddr

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/apparentlymart/go-versions/versions"
	"github.com/apparentlymart/go-versions/versions/constraints"
)

// Constraints are Terraform version constraints: comma-separated, each an
// operator (=, !=, >, >=, <, <=, ~>; none means =) and a version of one to
// three numbers. All must hold. A prerelease is allowed only when a
// constraint names it exactly.
type Constraints struct{ spec constraints.IntersectionSpec }

// ParseConstraints reads a constraint string such as "~> 3.2, != 3.2.1";
// an empty one allows every release.
func ParseConstraints(s string) (Constraints, error) {
	spec, err := constraints.ParseRubyStyleMulti(s)
	if err != nil {
		return Constraints{}, fmt.Errorf("version constraints %q: %v", s, err)
	}
	return Constraints{spec}, nil
}

// Allows reports whether v meets every constraint.
func (cs Constraints) Allows(v Version) bool {
	return versions.MeetingConstraints(cs.spec).Has(v)
}

// operatorOrder sorts constraints with the same version so that lower
// bounds come first.
var operatorOrder = map[constraints.SelectionOp]int{
	constraints.OpGreaterThan: 1, constraints.OpGreaterThanOrEqual: 2, constraints.OpEqual: 3,
	constraints.OpGreaterThanOrEqualPatchOnly: 4, constraints.OpGreaterThanOrEqualMinorOnly: 5,
	constraints.OpLessThanOrEqual: 6, constraints.OpLessThan: 7, constraints.OpNotEqual: 8,
}

var operators = map[constraints.SelectionOp]string{
	constraints.OpGreaterThan: "> ", constraints.OpGreaterThanOrEqual: ">= ", constraints.OpEqual: "",
	constraints.OpGreaterThanOrEqualPatchOnly: "~> ", constraints.OpGreaterThanOrEqualMinorOnly: "~> ",
	constraints.OpLessThanOrEqual: "<= ", constraints.OpLessThan: "< ", constraints.OpNotEqual: "!= ",
}

// String returns the constraints in the canonical form OpenTofu records in
// lock files: duplicates dropped, sorted by version then operator, versions
// in full except that ~> keeps two numbers when it lets the minor version
// grow.
func (cs Constraints) String() string {
	sels := make([]constraints.SelectionSpec, len(cs.spec))
	for i, sel := range cs.spec {
		sels[i] = constraints.SelectionSpec{Operator: sel.Operator, Boundary: sel.Boundary.ConstrainToZero()}
	}
	slices.SortStableFunc(sels, func(a, b constraints.SelectionSpec) int {
		x, y := a.Boundary, b.Boundary
		return cmp.Or(Compare(boundary(x), boundary(y)), cmp.Compare(x.Metadata, y.Metadata), cmp.Compare(operatorOrder[a.Operator], operatorOrder[b.Operator]))
	})
	var out []string
	for _, sel := range sels {
		b := sel.Boundary
		v := fmt.Sprintf("%d.%d.%d", b.Major.Num, b.Minor.Num, b.Patch.Num)
		if sel.Operator == constraints.OpGreaterThanOrEqualMinorOnly {
			v = fmt.Sprintf("%d.%d", b.Major.Num, b.Minor.Num)
		}
		if b.Prerelease != "" {
			v += "-" + b.Prerelease
		}
		if b.Metadata != "" {
			v += "+" + b.Metadata
		}
		if s := operators[sel.Operator] + v; !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return strings.Join(out, ", ")
}

// boundary is the version a constraint's boundary names, its unwritten
// numbers zero.
func boundary(b constraints.VersionSpec) Version {
	return Version{Major: b.Major.Num, Minor: b.Minor.Num, Patch: b.Patch.Num, Prerelease: versions.VersionExtra(b.Prerelease)}
}
