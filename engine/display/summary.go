package display

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/engine/deploy"
)

// title is the first line of the output: what runs on which stack.
func (r *run) title() string {
	op := r.opts.Operation
	if op == "" || op == OperationPreview {
		op = OperationUpdate
	}
	text := operationVerbs[op]
	if text == "" {
		text = string(op)
	}
	if r.preview {
		text = "Previewing " + string(op)
	}
	if target := r.target(); target != "" {
		text += " (" + target + ")"
	}
	return text
}

var operationVerbs = map[Operation]string{
	OperationUpdate:  "Updating",
	OperationRefresh: "Refreshing",
	OperationDestroy: "Destroying",
	OperationImport:  "Importing",
}

// target names the stack: "project/stack", or whichever of them is known.
func (r *run) target() string {
	switch {
	case r.opts.Project != "" && r.opts.Stack != "":
		return r.opts.Project + "/" + r.opts.Stack
	case r.opts.Stack != "":
		return r.opts.Stack
	}
	return r.opts.Project
}

// counts returns the number of resources per operation: the summary's
// without the hidden steps, or while no summary has come, those of the
// logical steps seen so far.
func (r *run) counts() map[deploy.Op]int {
	if r.summary != nil && r.summary.Changes != nil {
		out := map[deploy.Op]int{}
		for op, n := range r.summary.Changes {
			if n -= r.uncounted[op]; n > 0 {
				out[op] = n
			}
		}
		return out
	}
	out := map[deploy.Op]int{}
	for _, s := range r.steps {
		out[shownOp(&s.event)]++
	}
	return out
}

// skipped counts the resources whose step never started.
func (r *run) skipped() int {
	n := 0
	for _, w := range r.order {
		if w.skipped {
			n++
		}
	}
	return n
}

// countOrder returns the operations of counts in summary order: the known
// ones first, then the others by name, same last.
func countOrder(counts map[deploy.Op]int) []deploy.Op {
	var out, extra []deploy.Op
	known := map[deploy.Op]bool{deploy.OpSame: true}
	for _, op := range summaryOrder {
		known[op] = true
		if counts[op] > 0 {
			out = append(out, op)
		}
	}
	for op, n := range counts {
		if !known[op] && n > 0 {
			extra = append(extra, op)
		}
	}
	sort.Slice(extra, func(i, j int) bool { return extra[i] < extra[j] })
	out = append(out, extra...)
	if counts[deploy.OpSame] > 0 {
		out = append(out, deploy.OpSame)
	}
	return out
}

// countText words the count of an operation: "2 to create" in a preview,
// "2 created" after, "3 unchanged" for sames.
func (r *run) countText(op deploy.Op, n int) string {
	s := styleOf(op)
	switch {
	case op == deploy.OpSame:
		return fmt.Sprintf("%d unchanged", n)
	case r.preview:
		return fmt.Sprintf("%d to %s", n, s.label)
	}
	return fmt.Sprintf("%d %s", n, s.done)
}

// summaryLines are the last lines of the output: the counts per operation
// and, unless previewing, the duration. A preview that failed has none: its
// counts would be of a part of the program. The error that ended a
// deployment is the caller's to report, once.
func (r *run) summaryLines(p painter) string {
	if r.failedPreview() {
		return ""
	}
	counts := r.counts()
	var parts []string
	for _, op := range countOrder(counts) {
		parts = append(parts, p.paint(styleOf(op).color, r.countText(op, counts[op])))
	}
	if n := r.skipped(); n > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", n))
	}
	text := "no changes"
	if len(parts) > 0 {
		text = strings.Join(parts, ", ")
	}
	line := "Resources: " + text + "."
	if !r.preview {
		line += " Duration: " + formatDuration(r.duration())
	}
	return line + "\n"
}

// failedPreview reports whether the run is a preview that failed, whose
// counts would be of a part of the program only.
func (r *run) failedPreview() bool {
	return r.preview && r.summary != nil && r.summary.Error != ""
}

// writeOutputs writes the "Outputs:" section once an update has ended: the
// stack's outputs by name, secrets as [secret] unless shown.
func (r *run) writeOutputs(b *strings.Builder, p painter) {
	if r.preview || r.opts.Operation != OperationUpdate || r.summary == nil {
		return
	}
	outs := r.summary.Outputs
	keys := outs.SortedKeys()
	width := 0
	for _, k := range keys {
		width = max(width, len(k))
	}
	writeSection(b, p, "Outputs", len(keys), func(i int) {
		lines := r.format().lines(outs[keys[i]])
		b.WriteString("    " + padRight(keys[i], width) + ": " + lines[0] + "\n")
		for _, l := range lines[1:] {
			b.WriteString("    " + l + "\n")
		}
	})
}
