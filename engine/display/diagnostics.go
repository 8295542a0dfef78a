package display

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
)

// diagGroup is the diagnostics about one resource (or, with no URN, about
// the whole deployment).
type diagGroup struct {
	urn   resource.URN
	diags []deploy.DiagEvent
}

// diagGroups returns the diagnostics grouped by resource, the groups in the
// order of run.ordered, then those of resources without a step and of the
// whole deployment in the order of their first diagnostic.
func (r *run) diagGroups() []diagGroup {
	var out []diagGroup
	index := map[resource.URN]int{}
	for _, d := range r.diags {
		i, ok := index[d.URN]
		if !ok {
			i = len(out)
			index[d.URN] = i
			out = append(out, diagGroup{urn: d.URN})
		}
		out[i].diags = append(out[i].diags, d)
	}
	if len(out) < 2 {
		return out
	}
	rank := map[resource.URN]int{}
	for i, s := range r.ordered() {
		rank[s.event.URN] = i + 1
	}
	slices.SortStableFunc(out, func(a, b diagGroup) int {
		ra, rb := rank[a.urn], rank[b.urn]
		if ra == 0 || rb == 0 {
			return cmp.Compare(rb, ra) // those with a step first
		}
		return cmp.Compare(ra, rb)
	})
	return out
}

// groupTitle names the resource a group is about.
func (r *run) groupTitle(g diagGroup) string {
	if g.urn == "" {
		if t := r.target(); t != "" {
			return "stack " + t
		}
		return "deployment"
	}
	typ := ""
	if w, ok := r.rows[g.urn]; ok {
		typ = w.typ
	}
	return resourceTitle(g.urn, typ)
}

// diagText writes a diagnostic as "severity: message", later lines of the
// message under indent.
func diagText(d deploy.DiagEvent, indent string) string {
	msg := strings.TrimRight(d.Message, "\n")
	return d.Severity.String() + ": " + strings.ReplaceAll(msg, "\n", "\n"+indent)
}

// severityColor is the colour of a diagnostic.
func severityColor(s deploy.Severity) string {
	switch s {
	case deploy.SeverityError:
		return red
	case deploy.SeverityWarning:
		return yellow
	}
	return ""
}

// writeDiagnostics writes the "Diagnostics:" section, one block a resource.
func (r *run) writeDiagnostics(b *strings.Builder, p painter) {
	groups := r.diagGroups()
	writeSection(b, p, "Diagnostics", len(groups), func(i int) {
		b.WriteString("  " + r.groupTitle(groups[i]) + ":\n")
		for _, d := range groups[i].diags {
			b.WriteString("    " + p.paint(severityColor(d.Severity), diagText(d, "      ")) + "\n")
		}
	})
}

// writeSection writes a titled section of n items and a blank line, or
// nothing when there are no items.
func writeSection(b *strings.Builder, p painter, title string, n int, item func(i int)) {
	if n == 0 {
		return
	}
	b.WriteString(p.paint(bold, title+":") + "\n")
	for i := range n {
		item(i)
	}
	b.WriteByte('\n')
}

// diagCounts returns "1 error, 2 warnings" for the diagnostics of urn.
func (r *run) diagCounts(urn resource.URN) string {
	var errs, warns int
	for _, d := range r.diags {
		if d.URN != urn {
			continue
		}
		switch d.Severity {
		case deploy.SeverityError:
			errs++
		case deploy.SeverityWarning:
			warns++
		}
	}
	var parts []string
	if errs > 0 {
		parts = append(parts, plural(errs, "error"))
	}
	if warns > 0 {
		parts = append(parts, plural(warns, "warning"))
	}
	return strings.Join(parts, ", ")
}

// plural writes "1 error" or "2 errors".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
