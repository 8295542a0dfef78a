package display

import (
	"cmp"
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/engine/policy"
)

// violations returns the policy violations, mandatory ones first, then by
// pack and policy, each kind in the order found.
func (r *run) violations() []policy.Violation {
	out := slices.Clone(r.policies)
	slices.SortStableFunc(out, func(a, b policy.Violation) int {
		return cmp.Or(cmp.Compare(levelRank(a.Level), levelRank(b.Level)), cmp.Compare(a.Pack, b.Pack), cmp.Compare(a.Policy, b.Policy))
	})
	return out
}

func levelRank(l policy.Level) int {
	if l == policy.Mandatory {
		return 0
	}
	return 1
}

// subject names what a violation is about: its resource, or the stack.
func (r *run) subject(v policy.Violation) string {
	return r.groupTitle(diagGroup{urn: v.URN})
}

// writePolicies writes the "Policies:" section: each violation with its
// level, pack, policy, subject and message.
func (r *run) writePolicies(b *strings.Builder, p painter) {
	vs := r.violations()
	if len(vs) > 0 {
		b.WriteByte('\n')
	}
	writeSection(b, p, "Policies", len(vs), func(i int) {
		v := vs[i]
		level := p.paint(yellow, string(v.Level))
		if v.Level == policy.Mandatory {
			level = p.paint(red, string(v.Level))
		}
		fmt.Fprintf(b, "    %s %s/%s: %s\n", level, v.Pack, v.Policy, r.subject(v))
		for _, line := range strings.Split(strings.TrimRight(v.Message, "\n"), "\n") {
			b.WriteString("        " + line + "\n")
		}
	})
}

// digestPolicies are the violations as a PreviewDigest holds them.
func (r *run) digestPolicies() []policy.Event {
	var out []policy.Event
	for _, v := range r.violations() {
		out = append(out, v.Event())
	}
	return out
}

// writeMarkdownPolicies writes the "Policy" section of a pull-request
// comment, mandatory violations first.
func (r *run) writeMarkdownPolicies(b *strings.Builder) {
	vs := r.violations()
	if len(vs) == 0 {
		return
	}
	b.WriteString("#### Policy\n\n| Level | Policy | Resource | Message |\n| :-- | :-- | :-- | :-- |\n")
	for _, v := range vs {
		level := string(v.Level)
		if v.Level == policy.Mandatory {
			level = "**" + level + "**"
		}
		fmt.Fprintf(b, "| %s | <code>%s</code> | %s | %s |\n", level, html.EscapeString(v.Pack+"/"+v.Policy),
			html.EscapeString(r.subject(v)), tableCell(v.Message))
	}
	b.WriteByte('\n')
}

// tableCell escapes text for a cell of a Markdown table.
func tableCell(s string) string {
	s = html.EscapeString(strings.TrimSpace(s))
	return strings.NewReplacer("|", "&#124;", "\n", "<br>").Replace(s)
}
