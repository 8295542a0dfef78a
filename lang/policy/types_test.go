package policy_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	enginepolicy "github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/lang/policy"
)

// schemas serves the schemas of a few packages and counts the reads.
type schemas struct {
	pkgs  map[string]*schema.Package
	reads int
}

func (s *schemas) Schema(_ context.Context, pkg, _ string) (*schema.Package, error) {
	s.reads++
	if p, ok := s.pkgs[pkg]; ok {
		return p, nil
	}
	return nil, errors.New("no provider")
}

func pack(t *testing.T, types ...string) *eval.PolicyPack {
	t.Helper()
	cond, diags := hclsyntax.ParseExpression([]byte("true"), "p.yaml", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	p := &eval.PolicyPack{Pack: "guards"}
	for i, typ := range types {
		at := hcl.Pos{Line: i + 3, Column: 3}
		p.Rules = append(p.Rules, &eval.Rule{Name: "rule-" + typ, NameRange: hcl.Range{Filename: "p.yaml", Start: at, End: at},
			Level: enginepolicy.Advisory, Types: []string{typ}, Condition: cond})
	}
	return p
}

func TestWarnUnmatchedTypes(t *testing.T) {
	src := &schemas{pkgs: map[string]*schema.Package{
		"random": {Name: "random", Resources: map[string]*schema.Resource{
			"random:index/randomString:RandomString": {}, "random:index/randomPet:RandomPet": {}}},
	}}
	declared := []enginepolicy.Resource{
		{URN: "urn:s", Type: "pulumi:pulumi:Stack"},
		{URN: "urn:a", Type: "random:index/randomString:RandomString", Custom: true},
		{URN: "urn:b", Type: "cloud:index:Thing", Custom: true}, // no schema to be had
		{URN: "urn:c", Type: "site:index:Component"},
	}
	tests := []struct {
		pattern string
		want    string // in the warning; "" for none
	}{
		{"random:index/randomString:RandomString", ""},
		{"random:index/*", ""},
		{"random:index/randomPet:RandomPet", ""}, // in the schema, not declared
		{"site:index:Component", ""},
		{"cloud:index:Other", ""}, // its package's schema cannot be had
		{"random:index/randomString:RandomStrng", `Did you mean "random:index/randomString:RandomString"?`},
		{"random:RandomPet", `Did you mean "random:index/randomPet:RandomPet"?`},
		{"aws:s3/*", `Policy rule-aws:s3/* selects resources of type "aws:s3/*", but no resource type of the packages this program uses (cloud, pulumi, random, site) matches it, so the policy never applies.`},
	}
	for _, tt := range tests {
		t.Run(tt.pattern, func(t *testing.T) {
			var got []*hcl.Diagnostic
			a := policy.WarnUnmatchedTypes([]enginepolicy.Analyzer{pack(t, tt.pattern)}, src, func(d *hcl.Diagnostic) { got = append(got, d) })[0]
			for range 2 { // a preview, then the update
				if _, err := a.AnalyzeStack(context.Background(), declared); err != nil {
					t.Fatal(err)
				}
			}
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("warned: %s", got[0].Detail)
			case tt.want != "" && len(got) != 1:
				t.Errorf("%d warnings, want one saying %s", len(got), tt.want)
			case tt.want != "" && (!strings.Contains(got[0].Detail, tt.want) || got[0].Subject.Filename != "p.yaml" || got[0].Subject.Start.Line != 3):
				t.Errorf("warning %q at %v, want it at p.yaml:3 saying %s", got[0].Detail, got[0].Subject, tt.want)
			}
		})
	}
}

// Schemas are read only when a pattern matches none of the resources
// declared.
func TestWarnUnmatchedTypesReadsSchemasOnlyWhenNeeded(t *testing.T) {
	src := &schemas{}
	a := policy.WarnUnmatchedTypes([]enginepolicy.Analyzer{pack(t, "random:*")}, src, func(*hcl.Diagnostic) {})[0]
	if _, err := a.AnalyzeStack(context.Background(), []enginepolicy.Resource{{URN: "urn:a", Type: "random:index/randomPet:RandomPet", Custom: true}}); err != nil {
		t.Fatal(err)
	}
	if src.reads != 0 {
		t.Errorf("%d schemas read for a pattern a declared resource matches", src.reads)
	}
}
