package yaml

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/eval"
)

// resolver resolves the names of a YAML program: config values, variables
// and resources share one namespace of bare names; pulumi, count and each
// are builtins unless the program declares them.
type resolver struct {
	nodes map[string]eval.Node
	names []string
}

func newResolver(nodes []eval.Node) *resolver {
	r := &resolver{nodes: map[string]eval.Node{}}
	for _, n := range nodes {
		if _, isOutput := n.(*eval.Output); isOutput {
			continue
		}
		name := n.Declaration().Name
		if _, dup := r.nodes[name]; !dup {
			r.nodes[name] = n
			r.names = append(r.names, name)
		}
	}
	return r
}

// Resolve implements eval.Resolver.
func (r *resolver) Resolve(from eval.Node, t hcl.Traversal) (eval.Reference, hcl.Diagnostics) {
	root := t.RootName()
	if n, ok := r.nodes[root]; ok {
		return eval.Reference{Node: n, Len: 1}, nil
	}
	switch root {
	case "pulumi":
		return eval.Reference{Builtin: eval.BuiltinPulumi, Len: 1}, nil
	case "count":
		return eval.Reference{Builtin: eval.BuiltinCount, Len: 1}, nil
	case "each":
		return eval.Reference{Builtin: eval.BuiltinEach, Len: 1}, nil
	}
	return eval.Reference{}, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Unknown name %q", root),
		Detail: fmt.Sprintf("%s refers to %q, which is not a resource, variable or config value of the program.%s",
			from.Declaration(), root, eval.DidYouMean(root, r.names)),
		Subject: t.SourceRange().Ptr(),
	}}
}

// implicitConfigs declares the namespaced config keys (aws:region) that
// the program refers to without declaring them: they are required strings.
func (p *parser) implicitConfigs() {
	declared := map[string]bool{}
	for _, n := range p.nodes {
		declared[n.Declaration().Name] = true
	}
	var implicit []eval.Node
	for _, n := range p.nodes {
		for _, e := range n.Expressions() {
			if e == nil {
				continue
			}
			for _, t := range e.Variables() {
				root := t.RootName()
				if declared[root] || !strings.Contains(root, ":") {
					continue
				}
				declared[root] = true
				rng := t.SourceRange()
				implicit = append(implicit, &eval.Config{
					Decl: eval.Decl{Name: root, Noun: "config", NameRange: rng, DeclRange: rng},
					Key:  root, Type: cty.String, Implicit: true,
				})
			}
		}
	}
	p.nodes = append(p.nodes, implicit...)
}
