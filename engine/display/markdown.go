package display

import (
	"fmt"
	"html"
	"strings"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
)

// markdownRenderer prints a pull-request comment on close: a table of
// counts per operation; a list of what needs a reviewer's attention
// (deletions, replacements with the properties forcing them, changes to
// protected resources); the diagnostics; a collapsed section with the
// diff of each changed resource; and a Mermaid graph of the changed
// resources and what they depend on. Past markdownBudget characters the
// details and the graph are left out, with a note saying how many: the
// table and the list are never cut.
type markdownRenderer struct {
	r *run
	w *errWriter
}

// markdownBudget is how long a comment may grow with details and the graph,
// under GitHub's limit of 65,536 characters for a comment.
const markdownBudget = 60000

func (m *markdownRenderer) event(deploy.Event) {}

func (m *markdownRenderer) close() {
	var b strings.Builder
	r := m.r
	b.WriteString("### " + r.title() + "\n\n")
	if !r.failedPreview() {
		r.writeCountTable(&b)
	}
	if !r.preview {
		fmt.Fprintf(&b, "Duration: %s\n\n", formatDuration(r.duration()))
	}
	if r.summary != nil && r.summary.Error != "" {
		b.WriteString("**Error:** " + html.EscapeString(strings.TrimPrefix(firstLine(r.summary.Error), "Error: ")) + "\n\n")
	}
	changed := r.changed()
	r.writeMarkdownPolicies(&b)
	r.writeAttention(&b, changed)
	r.writeMarkdownDiagnostics(&b)
	if len(changed) > 0 {
		b.WriteString("#### Changes\n\n")
		left := len(changed)
		for _, s := range changed {
			var d strings.Builder
			r.writeChangeDetails(&d, &s.event)
			if b.Len()+d.Len() > markdownBudget {
				break
			}
			b.WriteString(d.String())
			left--
		}
		graph := "#### Dependencies\n\n" + fenced("mermaid", r.changeGraph().mermaid(mermaidClasses)) + "\n"
		switch {
		case left > 0:
			fmt.Fprintf(&b, "_The details of %d more resources and the dependency graph are left out to keep this comment under GitHub's size limit; `cairn preview --diff` shows them all._\n\n", left)
		case b.Len()+len(graph) > markdownBudget:
			b.WriteString("_The dependency graph is left out to keep this comment under GitHub's size limit; `cairn stack graph --format mermaid` draws the stack._\n\n")
		default:
			b.WriteString(graph)
		}
	}
	m.w.writeString(b.String())
}

// writeAttention writes the changes a reviewer should look at first:
// deletions, replacements with the properties that force them, and any
// change to a protected resource.
func (r *run) writeAttention(b *strings.Builder, changed []*stepRecord) {
	var items []string
	for _, s := range changed {
		e := &s.event
		op := shownOp(e)
		protected := e.Old != nil && e.Old.Protect || e.New != nil && e.New.Protect
		var why string
		switch {
		case op == deploy.OpReplace && len(e.Keys) > 0:
			why = "replaced because of <code>" + html.EscapeString(strings.Join(e.Keys, ", ")) + "</code>"
		case op == deploy.OpReplace:
			why = "replaced"
		case op == deploy.OpDelete || op == deploy.OpDiscard:
			why = "deleted"
		case protected:
			why = string(op) + " of a protected resource"
		default:
			continue
		}
		if protected && !strings.Contains(why, "protected") {
			why += " (protected)"
		}
		items = append(items, fmt.Sprintf("- <code>%s</code> <code>%s</code> <b>%s</b>: %s\n", html.EscapeString(styleOf(op).symbol),
			html.EscapeString(e.Type), html.EscapeString(e.URN.Name()), why))
	}
	if len(items) == 0 {
		return
	}
	b.WriteString("#### Needs attention\n\n" + strings.Join(items, "") + "\n")
}

// writeCountTable writes the number of resources per operation as a table.
func (r *run) writeCountTable(b *strings.Builder) {
	counts := r.counts()
	order := countOrder(counts)
	if len(order) == 0 {
		b.WriteString("No changes.\n\n")
		return
	}
	b.WriteString("| Operation | Resources |\n| :-- | --: |\n")
	for _, op := range order {
		label := "unchanged"
		if op != deploy.OpSame {
			label = "`" + styleOf(op).symbol + "` " + string(op)
		}
		fmt.Fprintf(b, "| %s | %d |\n", label, counts[op])
	}
	b.WriteByte('\n')
}

// writeChangeDetails writes one changed resource as a <details> section
// whose summary names the operation, type and name, around its diff.
func (r *run) writeChangeDetails(b *strings.Builder, e *deploy.StepEvent) {
	op := shownOp(e)
	fmt.Fprintf(b, "<details>\n<summary><code>%s %s</code> <code>%s</code> <b>%s</b>", html.EscapeString(styleOf(op).symbol),
		op, html.EscapeString(e.Type), html.EscapeString(e.URN.Name()))
	if len(e.Keys) > 0 {
		fmt.Fprintf(b, " (replaced because of <code>%s</code>)", html.EscapeString(strings.Join(e.Keys, ", ")))
	}
	if e.Phase == deploy.StepFailed {
		b.WriteString(" <b>failed</b>")
	}
	b.WriteString("</summary>\n\n")
	lines := r.format().render(r.differ().changes(e))
	if len(lines) == 0 {
		b.WriteString("No property changes to show.\n")
	} else {
		var diff strings.Builder
		for _, l := range lines {
			diff.WriteString(strings.TrimRight(string(l.mark)+" "+l.text, " ") + "\n")
		}
		b.WriteString(fenced("diff", diff.String()))
	}
	b.WriteString("\n</details>\n\n")
}

// fenced wraps text in a fenced code block whose fence is longer than any
// run of backticks in the text.
func fenced(lang, text string) string {
	longest, run := 0, 0
	for _, c := range text {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + lang + "\n" + text + fence + "\n"
}

// mermaidClasses style the nodes of the change graph by operation.
var mermaidClasses = map[string]string{
	"create":    "fill:#dafbe1,stroke:#1a7f37,color:#116329",
	"update":    "fill:#fff8c5,stroke:#9a6700,color:#7d4e00",
	"replace":   "fill:#fbefff,stroke:#8250df,color:#6639ba",
	"delete":    "fill:#ffebe9,stroke:#cf222e,color:#a40e26",
	"import":    "fill:#ddf4ff,stroke:#0969da,color:#0550ae",
	"unchanged": "fill:#f6f8fa,stroke:#8c959f,color:#57606a",
}

// mermaidClass is the class of a node changed by op (as shownOp gives it).
func mermaidClass(op deploy.Op) string {
	switch op {
	case deploy.OpCreate:
		return "create"
	case deploy.OpUpdate:
		return "update"
	case deploy.OpReplace:
		return "replace"
	case deploy.OpDelete, deploy.OpDiscard:
		return "delete"
	case deploy.OpImport, deploy.OpImportReplacement:
		return "import"
	}
	return "unchanged"
}

// changeGraph is the graph of the changed resources and the resources they
// depend on or are children of; the stack's parenthood and providers are
// left out, as every resource has them.
func (r *run) changeGraph() *graph {
	g := newGraph()
	changed := r.changed()
	for _, s := range changed {
		e := &s.event
		i := g.node(e.URN, e.Type)
		g.nodes[i].mark, g.nodes[i].class = styleOf(shownOp(e)).symbol, mermaidClass(shownOp(e))
	}
	keep := func(from resource.URN, kind edgeKind) bool {
		return kind != providerOf && !(kind == parentOf && from.Type() == resource.RootStackType)
	}
	for _, s := range changed {
		if st := stateOf(&s.event); st != nil {
			g.references(st, g.index[s.event.URN], keep)
		}
	}
	for i := range g.nodes {
		if g.nodes[i].class == "" {
			g.nodes[i].class = "unchanged"
		}
	}
	return g
}

// writeMarkdownDiagnostics writes the diagnostics, a block per resource.
func (r *run) writeMarkdownDiagnostics(b *strings.Builder) {
	groups := r.diagGroups()
	if len(groups) == 0 {
		return
	}
	b.WriteString("#### Diagnostics\n\n")
	for _, g := range groups {
		fmt.Fprintf(b, "**%s**\n\n", html.EscapeString(r.groupTitle(g)))
		var text strings.Builder
		for _, d := range g.diags {
			text.WriteString(diagText(d, "") + "\n")
		}
		b.WriteString(fenced("text", text.String()) + "\n")
	}
}
