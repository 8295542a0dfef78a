package deploy

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/cairn-iac/cairn/engine/resource"
)

// targeting decides which resources an operation may touch (--target,
// --exclude and their dependents) and which must be replaced (--replace).
type targeting struct {
	targets, excludes, replaces []*regexp.Regexp
	targetDependents            bool
	excludeDependents           bool

	mu       sync.Mutex
	included map[resource.URN]bool // decided inclusion by URN
}

func newTargeting(o *Options) (*targeting, error) {
	t := &targeting{targetDependents: o.TargetDependents, excludeDependents: o.ExcludeDependents,
		included: map[resource.URN]bool{}}
	if len(o.Targets) > 0 && len(o.Excludes) > 0 {
		return nil, fmt.Errorf("--target and --exclude cannot be used together")
	}
	var err error
	if t.targets, err = compileGlobs(o.Targets); err != nil {
		return nil, err
	}
	if t.excludes, err = compileGlobs(o.Excludes); err != nil {
		return nil, err
	}
	if t.replaces, err = compileGlobs(o.Replaces); err != nil {
		return nil, err
	}
	return t, nil
}

// compileGlobs turns URN globs into expressions: "**" matches anything, "*"
// anything but "::".
func compileGlobs(globs []string) ([]*regexp.Regexp, error) {
	var out []*regexp.Regexp
	for _, g := range globs {
		if g == "" {
			return nil, fmt.Errorf("an empty URN pattern was given")
		}
		var b strings.Builder
		b.WriteString("^")
		for i := 0; i < len(g); i++ {
			switch {
			case strings.HasPrefix(g[i:], "**"):
				b.WriteString(".*")
				i++
			case g[i] == '*':
				b.WriteString("(?:[^:]|:[^:])*")
			default:
				b.WriteString(regexp.QuoteMeta(g[i : i+1]))
			}
		}
		b.WriteString("$")
		re, err := regexp.Compile(b.String())
		if err != nil {
			return nil, fmt.Errorf("bad URN pattern %q: %w", g, err)
		}
		out = append(out, re)
	}
	return out, nil
}

func matchAny(res []*regexp.Regexp, urn resource.URN) bool {
	for _, re := range res {
		if re.MatchString(string(urn)) {
			return true
		}
	}
	return false
}

// active reports whether the operation is limited by targets or excludes.
func (t *targeting) active() bool { return len(t.targets) > 0 || len(t.excludes) > 0 }

// include decides whether a resource is part of the operation, given the URNs
// it depends on. Providers and the root stack are always included.
func (t *targeting) include(urn resource.URN, deps []resource.URN) bool {
	if !t.active() {
		return true
	}
	typ := urn.Type()
	if resource.IsProviderType(typ) || typ == resource.RootStackType {
		return true
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	var in bool
	if len(t.targets) > 0 {
		in = matchAny(t.targets, urn)
		if !in && t.targetDependents {
			for _, d := range deps {
				if t.included[d] && !isInfrastructure(d) {
					in = true
					break
				}
			}
		}
	} else {
		excluded := matchAny(t.excludes, urn)
		if !excluded && t.excludeDependents {
			for _, d := range deps {
				if !t.included[d] && !isInfrastructure(d) {
					excluded = true
					break
				}
			}
		}
		in = !excluded
	}
	t.included[urn] = in
	return in
}

// isInfrastructure reports whether the URN is a provider or the root stack,
// which are included implicitly and so do not spread inclusion.
func isInfrastructure(urn resource.URN) bool {
	typ := urn.Type()
	return resource.IsProviderType(typ) || typ == resource.RootStackType
}

// mustReplace reports whether --replace names the resource.
func (t *targeting) mustReplace(urn resource.URN) bool { return matchAny(t.replaces, urn) }

// unmatchedPatterns names each --target, --exclude and --replace pattern
// that matches none of the URNs (every resource an operation saw), which
// Pulumi treats as an error too: it is most likely a typo.
func unmatchedPatterns(o *Options, urns []resource.URN) error {
	var msgs []string
	for _, g := range []struct {
		flag  string
		globs []string
	}{{"--target", o.Targets}, {"--exclude", o.Excludes}, {"--replace", o.Replaces}} {
		res, err := compileGlobs(g.globs)
		if err != nil {
			return err
		}
		for i, re := range res {
			if !slices.ContainsFunc(urns, func(u resource.URN) bool { return re.MatchString(string(u)) }) {
				msgs = append(msgs, fmt.Sprintf("%s %s matches no resource of the stack or its program", g.flag, g.globs[i]))
			}
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "; "))
}
