package resource

import (
	"fmt"
	"sort"
)

// DiffKind is the kind of change to one property.
type DiffKind int

// The kinds of property changes, as in the provider protocol.
const (
	DiffAdd DiffKind = iota
	DiffAddReplace
	DiffDelete
	DiffDeleteReplace
	DiffUpdate
	DiffUpdateReplace
)

var diffKindNames = [...]string{"add", "add-replace", "delete", "delete-replace", "update", "update-replace"}

func (k DiffKind) String() string { return diffKindNames[k] }

// IsReplace reports whether the change forces a replacement.
func (k DiffKind) IsReplace() bool {
	return k == DiffAddReplace || k == DiffDeleteReplace || k == DiffUpdateReplace
}

// AsReplace returns the replacing form of k.
func (k DiffKind) AsReplace() DiffKind {
	switch k {
	case DiffAdd:
		return DiffAddReplace
	case DiffDelete:
		return DiffDeleteReplace
	case DiffUpdate:
		return DiffUpdateReplace
	}
	return k
}

// PropertyDiff describes the change at one property path. InputDiff tells
// whether the old value is the old input (true) or the old output.
type PropertyDiff struct {
	Kind      DiffKind
	InputDiff bool
}

// DetailedDiff maps property paths (written form) to their changes.
type DetailedDiff map[string]PropertyDiff

// SortedPaths returns the diff's paths in order.
func (d DetailedDiff) SortedPaths() []string {
	out := make([]string, 0, len(d))
	for p := range d {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// DiffMaps compares old and new property maps and returns the detailed diff
// between them, recursing into objects and arrays so that each entry is the
// deepest path that changed. Top-level keys that changed are returned too.
func DiffMaps(old, new Map) (DetailedDiff, []string) {
	d := DetailedDiff{}
	var changed []string
	for _, k := range unionKeys(old, new) {
		before := diffValues(d, Path{k}, old[k], new[k])
		if before {
			changed = append(changed, k)
		}
	}
	return d, changed
}

func unionKeys(a, b Map) []string {
	seen := make(map[string]bool, len(a)+len(b))
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		seen[k] = true
		keys = append(keys, k)
	}
	for k := range b {
		if !seen[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// diffValues records the differences between a and b under path p and reports
// whether there were any.
func diffValues(d DetailedDiff, p Path, a, b Value) bool {
	if a.Equal(b) {
		return false
	}
	switch {
	case a.IsNull():
		d[p.String()] = PropertyDiff{Kind: DiffAdd, InputDiff: true}
		return true
	case b.IsNull():
		d[p.String()] = PropertyDiff{Kind: DiffDelete, InputDiff: true}
		return true
	}
	ua, ub := a, b
	if ua.IsSecret() {
		ua = ua.SecretElement()
	}
	if ub.IsSecret() {
		ub = ub.SecretElement()
	}
	switch {
	case ua.IsObject() && ub.IsObject():
		any := false
		om, nm := ua.ObjectValue(), ub.ObjectValue()
		for _, k := range unionKeys(om, nm) {
			if diffValues(d, append(append(Path(nil), p...), k), om[k], nm[k]) {
				any = true
			}
		}
		if any {
			return true
		}
	case ua.IsArray() && ub.IsArray():
		oa, na := ua.ArrayValue(), ub.ArrayValue()
		any := false
		for i := 0; i < len(oa) || i < len(na); i++ {
			var x, y Value
			if i < len(oa) {
				x = oa[i]
			}
			if i < len(na) {
				y = na[i]
			}
			if i >= len(oa) {
				d[append(append(Path(nil), p...), i).String()] = PropertyDiff{Kind: DiffAdd, InputDiff: true}
				any = true
				continue
			}
			if i >= len(na) {
				d[append(append(Path(nil), p...), i).String()] = PropertyDiff{Kind: DiffDelete, InputDiff: true}
				any = true
				continue
			}
			if diffValues(d, append(append(Path(nil), p...), i), x, y) {
				any = true
			}
		}
		if any {
			return true
		}
	}
	d[p.String()] = PropertyDiff{Kind: DiffUpdate, InputDiff: true}
	return true
}

// ApplyIgnoreChanges returns news with the value at each ignored path replaced
// by the value at that path in olds (or removed when olds has none). Paths may
// contain wildcards. A path that cannot be applied is an error.
func ApplyIgnoreChanges(olds, news Map, paths []string) (Map, error) {
	root := Object(news)
	oldRoot := Object(olds)
	for _, s := range paths {
		p, err := ParsePath(s)
		if err != nil {
			return nil, fmt.Errorf("ignoreChanges: %w", err)
		}
		if err := p.traversable(oldRoot); err != nil {
			return nil, fmt.Errorf("ignoreChanges: cannot apply %q: %w", s, err)
		}
		if err := p.traversable(root); err != nil {
			return nil, fmt.Errorf("ignoreChanges: cannot apply %q: %w", s, err)
		}
		matches := []Path{p}
		if p.HasWildcard() {
			matches = append(p.Expand(oldRoot), p.Expand(root)...)
		}
		for _, m := range matches {
			if ov, ok := m.Get(oldRoot); ok {
				if root, err = m.Set(root, ov); err != nil {
					return nil, fmt.Errorf("ignoreChanges: cannot apply %q: %w", s, err)
				}
			} else if _, ok := m.Get(root); ok {
				root = m.Delete(root)
			}
		}
	}
	return root.ObjectValue(), nil
}
