package eval

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// byName resolves bare names to the nodes of a scope.
type byName map[string]Node

func (b byName) Resolve(_ Node, t hcl.Traversal) (Reference, hcl.Diagnostics) {
	if n, ok := b[t.RootName()]; ok {
		return Reference{Node: n, Len: 1}, nil
	}
	if t.RootName() == "count" {
		return Reference{Builtin: BuiltinCount, Len: 1}, nil
	}
	return Reference{}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unknown name " + t.RootName()}}
}

func local(t *testing.T, name, src string) *Local {
	t.Helper()
	e, diags := hclsyntax.ParseExpression([]byte(src), "main.hcl", hcl.Pos{Line: 1, Column: 1})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return &Local{Decl: Decl{Name: name, Noun: "local"}, Value: e}
}

func graphOf(nodes ...Node) (*graph, hcl.Diagnostics) {
	b := byName{}
	for _, n := range nodes {
		if _, isOutput := n.(*Output); !isOutput {
			b[n.Declaration().Name] = n
		}
	}
	return buildGraph(&Scope{Nodes: nodes, Resolver: b})
}

func summaries(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Summary)
	}
	return out
}

func TestGraphDiagnostics(t *testing.T) {
	tests := map[string]struct {
		nodes func(t *testing.T) []Node
		want  []string
	}{
		"acyclic": {func(t *testing.T) []Node {
			return []Node{local(t, "a", "b + c"), local(t, "b", "c"), local(t, "c", "1")}
		}, nil},
		"self": {func(t *testing.T) []Node {
			return []Node{local(t, "a", "a")}
		}, []string{`Local "a" refers to itself`}},
		"two": {func(t *testing.T) []Node {
			return []Node{local(t, "a", "b"), local(t, "b", "a")}
		}, []string{`Cycle between local "a" and local "b"`}},
		"three, reported once": {func(t *testing.T) []Node {
			return []Node{local(t, "a", "b"), local(t, "b", "c"), local(t, "c", "a"), local(t, "d", "a")}
		}, []string{`Cycle between local "a" and local "c"`}},
		"duplicate": {func(t *testing.T) []Node {
			return []Node{local(t, "a", "1"), local(t, "a", "2")}
		}, []string{`Duplicate name "a"`}},
		"outputs apart": {func(t *testing.T) []Node {
			return []Node{local(t, "a", "1"), &Output{Decl: Decl{Name: "a", Noun: "output"}, Value: local(t, "x", "a").Value}}
		}, nil},
		"count outside": {func(t *testing.T) []Node {
			return []Node{local(t, "a", "count.index")}
		}, []string{`Reference to "count" outside an expanded local`}},
		"unknown": {func(t *testing.T) []Node {
			return []Node{local(t, "a", "nope")}
		}, []string{"Unknown name nope"}},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			_, diags := graphOf(test.nodes(t)...)
			got := summaries(diags)
			if len(got) != len(test.want) {
				t.Fatalf("wrong diagnostics\ngot:  %q\nwant: %q", got, test.want)
			}
			for i := range got {
				if got[i] != test.want[i] {
					t.Errorf("wrong diagnostics\ngot:  %q\nwant: %q", got, test.want)
				}
			}
		})
	}
}

func TestConstantKey(t *testing.T) {
	tests := map[string]string{
		`web`:         "",
		`web[0]`:      "0",
		`web["a"]`:    `"a"`,
		`web[0].id`:   "0",
		`web.id`:      "",
		`web["q\"x"]`: `"q\"x"`,
	}
	for src, want := range tests {
		e, diags := hclsyntax.ParseExpression([]byte(src), "", hcl.Pos{Line: 1, Column: 1})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if got := constantKey(e.Variables()[0], 1); got != want {
			t.Errorf("constantKey(%s) = %q, want %q", src, got, want)
		}
	}
}

// A call of a provider function waits for the default provider of its
// package, which the call uses though nothing names it.
func TestProviderFunctionWaitsForProvider(t *testing.T) {
	prov := &Resource{Decl: Decl{Name: "cairnfw", Noun: "provider"}, Type: "pulumi:providers:cairnfw", DefaultProvider: true}
	call := local(t, "a", `provider::cairnfw::shout("x")`)
	g, diags := graphOf(prov, call)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	deps := g.byNode[call].deps
	if len(deps) != 1 || deps[0].node != prov {
		t.Errorf("local a waits for %v, want the provider cairnfw", deps)
	}
}
