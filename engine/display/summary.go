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

// counts returns the number of resources per operation: the summary's, or
// while no summary has come, those of the logical steps seen so far.
func (r *run) counts() map[deploy.Op]int {
	if r.summary != nil && r.summary.Changes != nil {
		return r.summary.Changes
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

// summaryLines are the last lines of the output: the counts per operation,
// the duration, and the error that ended the deployment if one did.
func (r *run) summaryLines(p painter) string {
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
	line := "Resources: " + text + ". Duration: " + formatDuration(r.duration()) + "\n"
	if r.summary != nil && r.summary.Error != "" {
		line += p.paint(red, "Error: "+r.summary.Error) + "\n"
	}
	return line
}
