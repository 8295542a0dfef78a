package workspace

import (
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v4"
)

// FastPath says which providers the fast path trusts besides Cairn's own:
// the project's `cairn: fastPath:` (a Cairn key of Pulumi.yaml, which
// Pulumi ignores) or the CAIRN_FAST_PATH variable. Each is a list of
// package names, or `all`, or `none`.
type FastPath struct {
	All      bool     // every package's provider
	None     bool     // no provider, Cairn's own included: the fast path is off
	Packages []string // the providers of these packages
}

var packageNameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// ParseFastPath reads a fast path setting from its names: package names,
// or `all` or `none` alone. Blank names are skipped.
func ParseFastPath(names []string) (FastPath, error) {
	var f FastPath
	for _, n := range names {
		switch n = strings.TrimSpace(n); {
		case n == "":
		case n == "all" || n == "none":
			if len(names) > 1 {
				return FastPath{}, fmt.Errorf("%s stands alone; give either package names, or all, or none", n)
			}
			f.All, f.None = n == "all", n == "none"
		case !packageNameRE.MatchString(n):
			return FastPath{}, fmt.Errorf("%q is not a package name; give package names (such as aws or random), or all, or none", n)
		default:
			f.Packages = append(f.Packages, n)
		}
	}
	return f, nil
}

// cairnSettings reads the project's `cairn:` mapping: fastPath, a name or
// a list of names.
func cairnSettings(path string, n *yaml.Node) (*FastPath, error) {
	if n.Kind == 0 || n.Tag == "!!null" {
		return nil, nil
	}
	at := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%s:%d:%d: %s", path, n.Line, n.Column, fmt.Sprintf(format, args...))
	}
	if n.Kind != yaml.MappingNode {
		return nil, at(n, "cairn: must be a mapping of Cairn's settings, such as fastPath")
	}
	var fp *FastPath
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value != "fastPath" {
			return nil, at(k, "cairn: %s is not a setting of Cairn; the settings are fastPath", k.Value)
		}
		var names []string
		switch v.Kind {
		case yaml.ScalarNode:
			names = []string{v.Value}
		case yaml.SequenceNode:
			for _, e := range v.Content {
				if e.Kind != yaml.ScalarNode {
					return nil, at(e, "cairn.fastPath: list package names")
				}
				if _, err := ParseFastPath([]string{e.Value}); err != nil {
					return nil, at(e, "cairn.fastPath: %v", err)
				}
				names = append(names, e.Value)
			}
		default:
			return nil, at(v, "cairn.fastPath: give package names (a list), or all, or none")
		}
		f, err := ParseFastPath(names)
		if err != nil {
			return nil, at(v, "cairn.fastPath: %v", err)
		}
		fp = &f
	}
	return fp, nil
}
