package display

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
)

// spinnerFrames turn once a second beside the steps in flight.
var spinnerFrames = []rune("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

// treeRow is a row in tree order with the branches drawn before its type.
type treeRow struct {
	*row
	branch string
}

// tree returns the rows to show, children under their parents in the order
// they were first seen. A row shows when it changes something, failed, is
// the stack, or has a child that shows; sames show when asked for.
func (r *run) tree() []treeRow {
	children := map[resource.URN][]*row{}
	var roots []*row
	for _, w := range r.order {
		if p, ok := r.rows[w.parent]; ok && p != w {
			children[w.parent] = append(children[w.parent], w)
		} else {
			roots = append(roots, w)
		}
	}
	visible := map[*row]bool{}
	var mark func(w *row, seen map[*row]bool) bool
	mark = func(w *row, seen map[*row]bool) bool {
		if seen[w] {
			return false
		}
		seen[w] = true
		v := r.opts.ShowSames || w.failed || w.outcome != deploy.OpSame || w.typ == resource.RootStackType
		for _, c := range children[w.urn] {
			v = mark(c, seen) || v
		}
		visible[w] = v
		return v
	}
	seen := map[*row]bool{}
	for _, w := range roots {
		mark(w, seen)
	}
	var out []treeRow
	var walk func(ws []*row, lead string, top bool)
	walk = func(ws []*row, lead string, top bool) {
		var shown []*row
		for _, w := range ws {
			if visible[w] {
				shown = append(shown, w)
			}
		}
		for i, w := range shown {
			branch, next := lead+"├─ ", lead+"│  "
			if i == len(shown)-1 {
				branch, next = lead+"└─ ", lead+"   "
			}
			if top {
				branch, next = "", ""
			}
			out = append(out, treeRow{w, branch})
			walk(children[w.urn], next, false)
		}
	}
	walk(roots, "", true)
	return out
}

// minTypeWidth is as narrow as the type column gets to fit the screen.
const minTypeWidth = 24

// table renders the tree as aligned columns under a heading: op symbol,
// type (with branches), name, status and info. Rows in flight show a
// spinner and their elapsed time. When the table is wider than width, long
// types lose their beginning first (their last part says the most).
func (r *run) table(p painter, width int) []string {
	now := r.now()
	rows := r.tree()
	cells := make([][4]string, 0, len(rows)+1)
	cells = append(cells, [4]string{"Type", "Name", "Status", "Info"})
	for _, t := range rows {
		cells = append(cells, [4]string{t.branch + t.typ, t.urn.Name(), r.rowStatus(t.row, now), r.rowInfo(t.row)})
	}
	var widths [4]int
	for _, c := range cells {
		for i := range widths {
			widths[i] = max(widths[i], utf8.RuneCountInString(c[i]))
		}
	}
	if excess := 3 + 2 + widths[0] + 2 + widths[1] + 2 + widths[2] + 2 + widths[3] - width; width > 0 && excess > 0 {
		widths[0] = max(widths[0]-excess, min(widths[0], minTypeWidth))
		for i := 1; i < len(cells); i++ {
			cells[i][0] = shortenType(rows[i-1].branch, rows[i-1].typ, widths[0])
		}
	}
	out := make([]string, 0, len(cells))
	for i, c := range cells {
		symbol, statusColor := "  ", ""
		if i > 0 {
			w := rows[i-1].row
			s := styleOf(w.outcome)
			symbol = p.paint(s.color, padRight(s.symbol, 2))
			if w.failed {
				statusColor = red
			}
		}
		line := " " + symbol + "  " + padRight(c[0], widths[0]) + "  " + padRight(c[1], widths[1]) + "  " +
			p.paint(statusColor, padRight(c[2], widths[2])) + "  " + c[3]
		if i == 0 {
			line = p.paint(dim, line)
		}
		out = append(out, strings.TrimRight(line, " "))
	}
	return out
}

// rowStatus is a row's status: the step in flight with a spinner and the
// time so far, or how the resource ended and how long it took.
func (r *run) rowStatus(w *row, now time.Time) string {
	s := styleOf(w.op)
	switch {
	case w.failed:
		return styleOf(w.op).doing + " failed"
	case w.skipped:
		return s.preview + " skipped"
	case w.active != "":
		elapsed := w.elapsed + now.Sub(w.since)
		frame := spinnerFrames[int(now.Sub(r.start)/repaintInterval)%len(spinnerFrames)]
		return string(frame) + " " + styleOf(w.active).doing + "… (" + formatDuration(elapsed) + ")"
	case !w.done || w.op == deploy.OpSame:
		return ""
	case r.preview:
		return s.preview
	}
	return s.done + " (" + formatDuration(w.elapsed) + ")"
}

// rowInfo is a row's latest progress message while its step runs, its
// diff summary and its count of diagnostics.
func (r *run) rowInfo(w *row) string {
	var parts []string
	if w.active != "" && w.progress != "" {
		parts = append(parts, firstLine(w.progress))
	}
	if w.step != nil {
		if info := infoText(&w.step.event); info != "" {
			parts = append(parts, info)
		}
	}
	if c := r.diagCounts(w.urn); c != "" {
		parts = append(parts, c)
	}
	return strings.Join(parts, " ")
}

// shortenType fits a branch and a type into width characters by cutting the
// beginning of the type.
func shortenType(branch, typ string, width int) string {
	room := width - utf8.RuneCountInString(branch)
	runes := []rune(typ)
	if len(runes) <= room {
		return branch + typ
	}
	if room < 2 {
		return truncate(branch+typ, width)
	}
	return branch + "…" + string(runes[len(runes)-room+1:])
}
