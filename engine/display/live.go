package display

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/engine/deploy"
)

// ANSI control sequences the live tree draws with.
const (
	clearLine = "\x1b[2K" // erase the line the cursor is on
	clearDown = "\x1b[J"  // erase from the cursor to the end of the screen
)

// liveRenderer draws the tree of resources in place, redrawing it on the
// display's clock when something changed or a step is in flight, and on
// close replaces it with the final rendering: the tree, the changes with
// their diffs, the diagnostics and the summary.
type liveRenderer struct {
	r     *run
	w     *errWriter
	p     painter
	size  func() (width, height int)
	drawn int // lines of the frame on screen
	dirty bool
}

func (l *liveRenderer) event(deploy.Event) { l.dirty = true }

func (l *liveRenderer) repaint() {
	if !l.dirty && !l.r.inFlight() {
		return
	}
	l.dirty = false
	width, height := l.size()
	lines := l.frame(width)
	if height > 3 && len(lines) > height-1 {
		// Keep the title and the last rows: the cursor cannot go back
		// above the top of the screen.
		keep := height - 4
		more := fmt.Sprintf("   … %d more", len(lines)-2-keep)
		lines = append(append(lines[:2:2], more), lines[len(lines)-keep:]...)
	}
	l.paint(lines)
}

func (l *liveRenderer) close() {
	width, _ := l.size()
	lines := l.frame(width)
	var b strings.Builder
	b.WriteByte('\n')
	l.r.writeChanges(&b, l.p)
	l.r.writeDiagnostics(&b, l.p)
	l.r.writeOutputs(&b, l.p)
	b.WriteString(l.r.summaryLines(l.p))
	l.r.writePolicies(&b, l.p)
	l.paint(append(lines, strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")...))
}

// frame is the live part of the screen: the title and the table, each line
// cut to the width so that no line wraps.
func (l *liveRenderer) frame(width int) []string {
	lines := append([]string{l.p.paint(bold, l.r.title()), ""}, l.r.table(l.p, width-1)...)
	for i, line := range lines {
		lines[i] = truncate(line, width-1)
	}
	return lines
}

// paint moves the cursor back over the frame on screen and draws lines in
// its place, erasing what is left of the old frame.
func (l *liveRenderer) paint(lines []string) {
	var b strings.Builder
	if l.drawn > 0 {
		fmt.Fprintf(&b, "\r\x1b[%dA", l.drawn)
	}
	for _, line := range lines {
		b.WriteString(clearLine + line + "\n")
	}
	b.WriteString(clearDown)
	l.drawn = len(lines)
	l.w.writeString(b.String())
}

// writeChanges writes the "Changes:" section: each changed resource, with
// its diff when diffs are shown.
func (r *run) writeChanges(b *strings.Builder, p painter) {
	steps := r.changed()
	writeSection(b, p, "Changes", len(steps), func(i int) {
		e := &steps[i].event
		st := styleOf(shownOp(e))
		b.WriteString("  " + p.paint(st.color, st.symbol+" "+resourceTitle(e.URN, e.Type)))
		if info := infoText(e); info != "" {
			b.WriteString(" " + info)
		}
		if e.Phase == deploy.StepFailed {
			b.WriteString(" " + p.paint(red, "[failed]"))
		}
		b.WriteByte('\n')
		if r.opts.ShowDiffs {
			writeDiffLines(b, r.format().render(r.differ().changes(e)), "      ", p)
		}
	})
}
