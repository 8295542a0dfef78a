package display

import (
	"io"
	"maps"
	"slices"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// edgeKind is why one resource points at another.
type edgeKind int

// The kinds of edges, each drawn its own way.
const (
	dependsOn  edgeKind = iota // solid
	parentOf                   // dashed
	providerOf                 // dotted
)

// graph is resources and the edges between them, in the order they were
// added, which is the order they are written in.
type graph struct {
	nodes []graphNode
	index map[resource.URN]int
	edges []graphEdge
	seen  map[graphEdge]bool
}

// graphNode is one resource; mark (an op symbol) begins its Mermaid label
// and class names how Mermaid styles it.
type graphNode struct {
	urn   resource.URN
	typ   string
	mark  string
	class string
}

// graphEdge points from a resource to one that depends on it, is its child,
// or is served by it (a provider).
type graphEdge struct {
	from, to int
	kind     edgeKind
}

func newGraph() *graph {
	return &graph{index: map[resource.URN]int{}, seen: map[graphEdge]bool{}}
}

// node returns the index of urn's node, adding it when new.
func (g *graph) node(urn resource.URN, typ string) int {
	if i, ok := g.index[urn]; ok {
		return i
	}
	if typ == "" {
		typ = urn.Type()
	}
	g.index[urn] = len(g.nodes)
	g.nodes = append(g.nodes, graphNode{urn: urn, typ: typ})
	return len(g.nodes) - 1
}

// link adds an edge from the resource from to the resource to, once.
func (g *graph) link(from resource.URN, to int, kind edgeKind) {
	e := graphEdge{from: g.node(from, ""), to: to, kind: kind}
	if !g.seen[e] {
		g.seen[e] = true
		g.edges = append(g.edges, e)
	}
}

// references adds the edges into s's node that keep accepts.
func (g *graph) references(s *resource.State, to int, keep func(from resource.URN, kind edgeKind) bool) {
	eachReference(s, func(from resource.URN, kind edgeKind) {
		if keep(from, kind) {
			g.link(from, to, kind)
		}
	})
}

// eachReference calls add with each resource s refers to, in order: its
// parent, its dependencies and property dependencies, and its provider.
func eachReference(s *resource.State, add func(from resource.URN, kind edgeKind)) {
	if s.Parent != "" {
		add(s.Parent, parentOf)
	}
	for _, d := range s.Dependencies {
		add(d, dependsOn)
	}
	for _, k := range slices.Sorted(maps.Keys(s.PropertyDependencies)) {
		for _, d := range s.PropertyDependencies[k] {
			add(d, dependsOn)
		}
	}
	if ref, err := resource.ParseProviderRef(s.Provider); err == nil {
		add(ref.URN, providerOf)
	}
}

// snapshotGraph is the graph of a snapshot's live resources (those pending
// deletion are left out), in the snapshot's order.
func snapshotGraph(snap *snapshot.Snapshot) *graph {
	g := newGraph()
	if snap == nil {
		return g
	}
	for _, s := range snap.Resources {
		if !s.Delete {
			g.node(s.URN, s.Type)
		}
	}
	all := func(resource.URN, edgeKind) bool { return true }
	for _, s := range snap.Resources {
		if !s.Delete {
			g.references(s, g.index[s.URN], all)
		}
	}
	return g
}

// WriteDOT writes a snapshot's dependency graph in Graphviz DOT: a node a
// resource labelled with its type and name, and edges from each resource to
// the resources that depend on it (solid), to its children (dashed) and, for
// a provider, to the resources it serves (dotted). The output is the same for
// the same snapshot.
func WriteDOT(w io.Writer, snap *snapshot.Snapshot) error {
	_, err := io.WriteString(w, snapshotGraph(snap).dot(stackName(snap)))
	return err
}

// WriteMermaid writes a snapshot's dependency graph as a Mermaid flowchart,
// with the nodes and edges of WriteDOT.
func WriteMermaid(w io.Writer, snap *snapshot.Snapshot) error {
	_, err := io.WriteString(w, snapshotGraph(snap).mermaid(nil))
	return err
}

// stackName is the name of a snapshot's stack resource, or "stack".
func stackName(snap *snapshot.Snapshot) string {
	if root := snap.Root(); root != nil {
		return root.URN.Name()
	}
	return "stack"
}
