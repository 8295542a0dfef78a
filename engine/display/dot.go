package display

import (
	"fmt"
	"strings"
)

var dotStyles = [...]string{dependsOn: "", parentOf: " [style=dashed]", providerOf: " [style=dotted]"}

// dot writes the graph as a DOT digraph named name.
func (g *graph) dot(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n", dotQuote(name))
	b.WriteString("    node [shape=box];\n")
	for i, n := range g.nodes {
		fmt.Fprintf(&b, "    n%d [label=%s];\n", i, dotQuote(n.typ+"\n"+n.urn.Name()))
	}
	for _, e := range g.edges {
		fmt.Fprintf(&b, "    n%d -> n%d%s;\n", e.from, e.to, dotStyles[e.kind])
	}
	b.WriteString("}\n")
	return b.String()
}

// dotQuote writes s as a DOT string: quoted, with quotes and backslashes
// escaped and newlines as \n.
func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
