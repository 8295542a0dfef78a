package policy

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"

	enginepolicy "github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval"
)

// WarnUnmatchedTypes returns the packs so that each, on its first stack
// analysis, warns once of every type pattern of its resource rules that
// matches no resource type of the packages the program uses: those of the
// resources it declared, and those the schemas of their providers list. A
// pattern of a package whose schema cannot be had is left alone. Packs
// other than policy files are returned as they are.
func WarnUnmatchedTypes(packs []enginepolicy.Analyzer, schemas eval.SchemaSource, warn func(*hcl.Diagnostic)) []enginepolicy.Analyzer {
	out := make([]enginepolicy.Analyzer, len(packs))
	for i, a := range packs {
		out[i] = a
		if p, ok := a.(*eval.PolicyPack); ok {
			out[i] = &typeChecked{PolicyPack: p, schemas: schemas, warn: warn}
		}
	}
	return out
}

// typeChecked is a policy pack whose type patterns are checked against the
// program's packages once.
type typeChecked struct {
	*eval.PolicyPack
	schemas eval.SchemaSource
	warn    func(*hcl.Diagnostic)
	once    sync.Once
}

// AnalyzeStack implements policy.Analyzer.
func (t *typeChecked) AnalyzeStack(ctx context.Context, rs []enginepolicy.Resource) ([]enginepolicy.Violation, error) {
	t.once.Do(func() {
		for _, d := range unmatchedTypes(ctx, t.PolicyPack, rs, t.schemas) {
			t.warn(d)
		}
	})
	return t.PolicyPack.AnalyzeStack(ctx, rs)
}

// unmatchedTypes returns a warning for each type pattern of p's resource
// rules that no type of the packages of rs matches. The schemas are read
// only when a pattern matches no resource of rs.
func unmatchedTypes(ctx context.Context, p *eval.PolicyPack, rs []enginepolicy.Resource, schemas eval.SchemaSource) hcl.Diagnostics {
	declared := map[string]bool{}
	custom := map[string]bool{} // the packages of custom resources, which have a provider
	for _, r := range rs {
		declared[r.Type] = true
		if r.Custom {
			custom[resource.TypePackage(r.Type)] = true
		}
	}
	types := slices.Sorted(maps.Keys(declared))
	var known *packageTypes
	var diags hcl.Diagnostics
	for _, rule := range p.Rules {
		if rule.Stack || rule.Level == enginepolicy.Disabled {
			continue
		}
		for _, pattern := range rule.Types {
			if matchesAny(pattern, types) {
				continue
			}
			if known == nil {
				known = readTypes(ctx, schemas, custom, declared)
			}
			if matchesAny(pattern, known.types) || matchesAny(resource.TypePackage(pattern), known.unread) {
				continue
			}
			detail := fmt.Sprintf("Policy %s selects resources of type %q, but no resource type of the packages this program uses (%s) matches it, so the policy never applies.",
				rule.Name, pattern, eval.List(slices.Sorted(maps.Keys(known.packages)), 5))
			if s := closestType(pattern, known.types); s != "" {
				detail += fmt.Sprintf(" Did you mean %q?", s)
			}
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Policy type matches no resource type",
				Detail: detail, Subject: rule.NameRange.Ptr()})
		}
	}
	return diags
}

// packageTypes are the resource types of the program's packages.
type packageTypes struct {
	packages map[string]bool
	types    []string // sorted
	unread   []string // the packages whose schema could not be had
}

// readTypes lists the types declared and those of the schemas of the
// packages of custom resources.
func readTypes(ctx context.Context, schemas eval.SchemaSource, custom, declared map[string]bool) *packageTypes {
	k := &packageTypes{packages: map[string]bool{}}
	all := maps.Clone(declared)
	for t := range declared {
		k.packages[resource.TypePackage(t)] = true
	}
	for _, pkg := range slices.Sorted(maps.Keys(custom)) {
		s, err := schemas.Schema(ctx, pkg, "")
		if err != nil || s == nil {
			k.unread = append(k.unread, pkg)
			continue
		}
		for t := range s.Resources {
			all[t] = true
		}
	}
	k.types = slices.Sorted(maps.Keys(all))
	return k
}

func matchesAny(pattern string, types []string) bool {
	for _, t := range types {
		if eval.MatchType(pattern, t) {
			return true
		}
	}
	return false
}

// closestType is the type a pattern was likely meant to be: the nearest by
// spelling, or the one it names in the short form programs may use
// (random:RandomString for random:index/randomString:RandomString).
func closestType(pattern string, types []string) string {
	if s := eval.Suggest(pattern, types); s != "" {
		return s
	}
	for _, t := range types {
		if strings.EqualFold(resource.TypePackage(t)+":"+resource.TypeName(t), pattern) {
			return t
		}
	}
	return ""
}
