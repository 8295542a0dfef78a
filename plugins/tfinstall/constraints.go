package tfinstall

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Constraints are Terraform version constraints: comma-separated, each an
// operator (=, !=, >, >=, <, <=, ~>; none means =) and a version of one to
// three numbers. All must hold. A prerelease is allowed only when an =
// constraint names it exactly.
type Constraints []constraint

type constraint struct {
	op    string  // "=", "!=", ">", ">=", "<", "<=", "~>"
	bound Version // missing numbers are zero
	parts int     // how many numbers were written: ~> 1.2 lets the minor grow, ~> 1.2.3 the patch
}

// ParseConstraints reads a constraint string such as "~> 3.2, != 3.2.1";
// an empty one allows every release.
func ParseConstraints(s string) (Constraints, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var cs Constraints
	for _, item := range strings.Split(s, ",") {
		c, err := parseConstraint(strings.TrimSpace(item))
		if err != nil {
			return nil, fmt.Errorf("version constraints %q: %v", s, err)
		}
		cs = append(cs, c)
	}
	return cs, nil
}

func parseConstraint(s string) (constraint, error) {
	if s == "" {
		return constraint{}, fmt.Errorf("an empty constraint between commas")
	}
	var c constraint
	for _, op := range []string{"!=", ">=", "<=", "~>", "=<", "=>", "=", ">", "<"} {
		if strings.HasPrefix(s, op) {
			c.op = op
			break
		}
	}
	switch c.op {
	case "=<", "=>":
		return c, fmt.Errorf("%q: no operator %q; did you mean %q?", s, c.op, c.op[1:]+"=")
	case "":
		c.op = "="
	default:
		s = strings.TrimSpace(s[len(c.op):])
	}
	v, n, err := parseVersionParts(s)
	if err != nil {
		return c, err
	}
	c.bound, c.parts = v, n
	return c, nil
}

// Allows reports whether v meets every constraint.
func (cs Constraints) Allows(v Version) bool {
	exact := false
	for _, c := range cs {
		if !c.allows(v) {
			return false
		}
		exact = exact || c.op == "="
	}
	return v.Prerelease == "" || exact
}

func (c constraint) allows(v Version) bool {
	d := v.Compare(c.bound)
	switch c.op {
	case "=":
		return d == 0
	case "!=":
		return d != 0
	case ">":
		return d > 0
	case ">=":
		return d >= 0
	case "<":
		return d < 0
	case "<=":
		return d <= 0
	}
	// ~> lets the rightmost number written grow: ~> 1.2.3 is >= 1.2.3,
	// < 1.3.0, and ~> 1.2 (or ~> 1) is >= 1.2.0, < 2.0.0.
	upper := Version{Major: c.bound.Major + 1}
	if c.parts == 3 {
		upper = Version{Major: c.bound.Major, Minor: c.bound.Minor + 1}
	}
	return d >= 0 && v.Compare(upper) < 0
}

// operatorOrder sorts constraints with the same version so that lower
// bounds come first, as Terraform writes them.
var operatorOrder = map[string]int{">": 1, ">=": 2, "=": 3, "~>3": 4, "~>": 5, "<=": 6, "<": 7, "!=": 8}

// String returns the constraints in the canonical form Terraform records
// in lock files: duplicates dropped, sorted by version then operator,
// versions in full except that ~> keeps two numbers when it lets the
// minor version grow.
func (cs Constraints) String() string {
	var out []string
	key := func(c constraint) string {
		if c.op == "~>" && c.parts == 3 {
			return "~>3"
		}
		return c.op
	}
	sorted := slices.Clone(cs)
	slices.SortStableFunc(sorted, func(a, b constraint) int {
		return cmp.Or(a.bound.Compare(b.bound), cmp.Compare(a.bound.Metadata, b.bound.Metadata), cmp.Compare(operatorOrder[key(a)], operatorOrder[key(b)]))
	})
	for _, c := range sorted {
		v := c.bound.String()
		if c.op == "~>" && c.parts < 3 {
			v = fmt.Sprintf("%d.%d", c.bound.Major, c.bound.Minor)
			if c.bound.Prerelease != "" {
				v += "-" + c.bound.Prerelease
			}
			if c.bound.Metadata != "" {
				v += "+" + c.bound.Metadata
			}
		}
		s := c.op + " " + v
		if c.op == "=" {
			s = v
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return strings.Join(out, ", ")
}
