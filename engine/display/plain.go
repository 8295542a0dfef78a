package display

import (
	"strings"

	"github.com/cairn-iac/cairn/engine/deploy"
)

// plainRenderer writes a line for each step event as it arrives (in a
// preview, where steps start and end at once, only when the step ends),
// with the step's diff under the first line of each logical step; the
// diagnostics, grouped by resource, and the summary come at the end.
type plainRenderer struct {
	r       *run
	w       *errWriter
	p       painter
	started bool
}

func (pr *plainRenderer) event(e deploy.Event) {
	se, ok := e.(deploy.StepEvent)
	if !ok || !pr.r.shows(&se) || se.Phase == deploy.StepStarted && quiet(&se) {
		return
	}
	var b strings.Builder
	pr.header(&b)
	op := se.Op
	if op == deploy.OpRefresh {
		op = refreshOutcome(&se)
	}
	s := styleOf(op)
	b.WriteString(" " + pr.p.paint(s.color, padRight(s.symbol, 2)) + " " + resourceTitle(se.URN, se.Type) + " ")
	status := stepStatus(&se)
	if se.Phase == deploy.StepFailed {
		status = pr.p.paint(red, status+": "+firstLine(se.Error))
	}
	b.WriteString(status)
	if info := infoText(&se); info != "" && se.Phase != deploy.StepStarted && se.Logical {
		b.WriteString(" " + info)
	}
	b.WriteByte('\n')
	if se.Logical && firstReport(&se) {
		writeDiffLines(&b, pr.r.format().render(pr.r.differ().changes(&se)), "      ", pr.p)
	}
	pr.w.writeString(b.String())
}

// firstReport reports whether the event is the first line written for its
// step: the start of a step that runs, the end of a quiet one, and the end
// of a refresh (whose diff is known only then).
func firstReport(e *deploy.StepEvent) bool {
	if e.Op == deploy.OpRefresh {
		return e.Phase == deploy.StepDone
	}
	return (e.Phase == deploy.StepStarted) != quiet(e)
}

// quiet reports whether a step's start goes unwritten: in a preview steps
// start and end at once, and a same does nothing.
func quiet(e *deploy.StepEvent) bool { return e.Preview || e.Op == deploy.OpSame }

// header writes the title before the first line of output.
func (pr *plainRenderer) header(b *strings.Builder) {
	if !pr.started {
		pr.started = true
		b.WriteString(pr.p.paint(bold, pr.r.title()) + "\n\n")
	}
}

func (pr *plainRenderer) close() {
	var b strings.Builder
	pr.header(&b)
	b.WriteByte('\n')
	pr.r.writeDiagnostics(&b, pr.p)
	b.WriteString(pr.r.summaryLines(pr.p))
	pr.w.writeString(b.String())
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
