package tfinstall

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"
)

// Version is a semantic version. Build metadata is kept for display but
// plays no part in comparisons.
type Version struct {
	Major, Minor, Patch uint64
	Prerelease          string
	Metadata            string
}

func (v Version) String() string {
	s := fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
	if v.Prerelease != "" {
		s += "-" + v.Prerelease
	}
	if v.Metadata != "" {
		s += "+" + v.Metadata
	}
	return s
}

// ParseVersion reads a version written in full: major.minor.patch with an
// optional -prerelease and +metadata.
func ParseVersion(s string) (Version, error) {
	v, n, err := parseVersionParts(s)
	if err != nil {
		return Version{}, err
	}
	if n != 3 {
		return Version{}, fmt.Errorf("version %q needs three numbers, major.minor.patch", s)
	}
	return v, nil
}

// parseVersionParts reads a version of one to three numbers (the missing
// ones are zero) and says how many were written.
func parseVersionParts(s string) (Version, int, error) {
	var v Version
	if strings.HasPrefix(s, "v") {
		return v, 0, fmt.Errorf("version %q: write it without the \"v\"", s)
	}
	rest, meta, hasMeta := strings.Cut(s, "+")
	if hasMeta {
		if err := checkIdentifiers(meta); err != nil {
			return v, 0, fmt.Errorf("version %q: build metadata %v", s, err)
		}
		v.Metadata = meta
	}
	rest, pre, hasPre := strings.Cut(rest, "-")
	if hasPre {
		if err := checkIdentifiers(pre); err != nil {
			return v, 0, fmt.Errorf("version %q: prerelease %v", s, err)
		}
		v.Prerelease = pre
	}
	nums := strings.Split(rest, ".")
	if len(nums) > 3 {
		return v, 0, fmt.Errorf("version %q has more than three numbers", s)
	}
	var xs [3]uint64
	for i, n := range nums {
		x, err := strconv.ParseUint(n, 10, 64)
		if err != nil {
			return v, 0, fmt.Errorf("version %q: %q is not a number", s, n)
		}
		xs[i] = x
	}
	v.Major, v.Minor, v.Patch = xs[0], xs[1], xs[2]
	return v, len(nums), nil
}

// checkIdentifiers checks dot-separated identifiers of letters, digits and
// dashes.
func checkIdentifiers(s string) error {
	for _, id := range strings.Split(s, ".") {
		if id == "" {
			return fmt.Errorf("%q has an empty identifier", s)
		}
		for _, r := range id {
			if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '-') {
				return fmt.Errorf("%q holds %q", s, r)
			}
		}
	}
	return nil
}

// Compare orders versions by semantic version precedence: a prerelease
// comes before its release, metadata is ignored.
func (v Version) Compare(w Version) int {
	if c := cmp.Or(cmp.Compare(v.Major, w.Major), cmp.Compare(v.Minor, w.Minor), cmp.Compare(v.Patch, w.Patch)); c != 0 {
		return c
	}
	switch {
	case v.Prerelease == w.Prerelease:
		return 0
	case v.Prerelease == "":
		return 1
	case w.Prerelease == "":
		return -1
	}
	a, b := strings.Split(v.Prerelease, "."), strings.Split(w.Prerelease, ".")
	for i := 0; i < len(a) && i < len(b); i++ {
		x, errX := strconv.ParseUint(a[i], 10, 64)
		y, errY := strconv.ParseUint(b[i], 10, 64)
		var c int
		switch {
		case errX == nil && errY == nil:
			c = cmp.Compare(x, y)
		case errX == nil:
			c = -1 // numeric identifiers sort before alphanumeric ones
		case errY == nil:
			c = 1
		default:
			c = strings.Compare(a[i], b[i])
		}
		if c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}
