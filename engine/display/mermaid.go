package display

import (
	"fmt"
	"strings"
)

var mermaidArrows = [...]string{dependsOn: "-->", parentOf: "-.->", providerOf: "-.->|provider|"}

// mermaid writes the graph as a Mermaid flowchart; classDefs are written at
// the end for the classes the nodes use.
func (g *graph) mermaid(classDefs map[string]string) string {
	var b strings.Builder
	b.WriteString("flowchart TD\n")
	used := map[string]bool{}
	var classes []string
	for i, n := range g.nodes {
		class := ""
		if n.class != "" {
			class = ":::" + n.class
			if !used[n.class] {
				used[n.class] = true
				classes = append(classes, n.class)
			}
		}
		label := mermaidEscape(n.typ) + "<br/>" + mermaidEscape(n.urn.Name())
		if n.mark != "" {
			label = mermaidEscape(n.mark) + " " + label
		}
		fmt.Fprintf(&b, "    n%d[\"%s\"]%s\n", i, label, class)
	}
	for _, e := range g.edges {
		fmt.Fprintf(&b, "    n%d %s n%d\n", e.from, mermaidArrows[e.kind], e.to)
	}
	for _, c := range classes {
		if def, ok := classDefs[c]; ok {
			fmt.Fprintf(&b, "    classDef %s %s\n", c, def)
		}
	}
	return b.String()
}

// mermaidEscaper turns the characters that end or disturb a quoted Mermaid
// label into Mermaid's entity codes.
var mermaidEscaper = strings.NewReplacer(
	"#", "#35;", `"`, "#quot;", "<", "#lt;", ">", "#gt;", "&", "#amp;", "`", "#96;", "\n", " ")

// mermaidEscape makes s safe inside a quoted Mermaid label.
func mermaidEscape(s string) string { return mermaidEscaper.Replace(s) }
