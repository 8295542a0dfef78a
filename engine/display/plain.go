package display

import (
	"strings"

	"github.com/cairn-iac/cairn/engine/deploy"
)

// plainRenderer writes one line per resource: in a preview all of them
// when the display closes, in the order of run.ordered so that two
// previews of one program read the same; otherwise a line when each step
// ends, as it happens. A changed resource's property diff follows its line
// only when diffs are shown (--diff). The diagnostics, grouped by
// resource, the stack's outputs after an update, and the summary come at
// the end.
type plainRenderer struct {
	r       *run
	w       *errWriter
	p       painter
	started bool
}

func (pr *plainRenderer) event(e deploy.Event) {
	se, ok := e.(deploy.StepEvent)
	if !ok || se.Preview || se.Phase == deploy.StepStarted || !pr.r.shows(&se) {
		return
	}
	var b strings.Builder
	pr.header(&b)
	pr.line(&b, &se)
	pr.w.writeString(b.String())
}

// line writes a step's line: its symbol, type, name, status and a summary
// of its diff, then its diff if shown.
func (pr *plainRenderer) line(b *strings.Builder, se *deploy.StepEvent) {
	s := styleOf(shownOp(se))
	b.WriteString(" " + pr.p.paint(s.color, padRight(s.symbol, 2)) + " " + resourceTitle(se.URN, se.Type) + " ")
	status := stepStatus(se)
	if se.Phase == deploy.StepFailed {
		status = pr.p.paint(red, status+": "+firstLine(se.Error))
	}
	b.WriteString(status)
	if info := infoText(se); info != "" && se.Logical {
		b.WriteString(" " + info)
	}
	b.WriteByte('\n')
	if se.Logical && pr.r.opts.ShowDiffs {
		writeDiffLines(b, pr.r.format().render(pr.r.differ().changes(se)), "      ", pr.p)
	}
}

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
	if pr.r.preview {
		for _, s := range pr.r.ordered() {
			if pr.r.shows(&s.event) {
				pr.line(&b, &s.event)
			}
		}
	}
	b.WriteByte('\n')
	pr.r.writeDiagnostics(&b, pr.p)
	pr.r.writeOutputs(&b, pr.p)
	b.WriteString(pr.r.summaryLines(pr.p))
	pr.r.writePolicies(&b, pr.p)
	pr.w.writeString(b.String())
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
