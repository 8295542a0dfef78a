package eval

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcled"
	wordwrap "github.com/mitchellh/go-wordwrap"
	"github.com/zclconf/go-cty/cty"
)

// maxShown is how many diagnostics WriteDiagnostics shows; one line counts
// the others.
const maxShown = 20

// A DiagnosticWriter renders program diagnostics as text, laid out as
// hcl.NewDiagnosticTextWriter lays them out: the severity and summary, the
// source lines of the subject with the subject highlighted, the values of
// the variables of the expression at fault, and the detail. Where hcl's
// writer scans a file from its start for each diagnostic, this one indexes
// the lines of each file once, so that the diagnostics of a large file cost
// what they show. It is safe for concurrent use.
type DiagnosticWriter struct {
	Files map[string]*hcl.File
	Width uint // the width details are wrapped to; 0 does not wrap
	Color bool // VT100 colors for the severity and the subject

	mu    sync.Mutex
	lines map[*hcl.File][]int // the byte offset of each line's start
}

// WriteDiagnostics writes the first 20 diagnostics, then how many more
// there are: a program with thousands of errors shows where to start.
func (w *DiagnosticWriter) WriteDiagnostics(out io.Writer, diags hcl.Diagnostics) error {
	shown := diags[:min(len(diags), maxShown)]
	for _, d := range shown {
		if err := w.WriteDiagnostic(out, d); err != nil {
			return err
		}
	}
	if rest := diags[len(shown):]; len(rest) > 0 {
		noun := "errors"
		for _, d := range rest {
			if d.Severity != hcl.DiagError {
				noun = "diagnostics"
			}
		}
		_, err := fmt.Fprintf(out, "…and %d more %s.\n\n", len(rest), noun)
		return err
	}
	return nil
}

// WriteDiagnostic writes one diagnostic.
func (w *DiagnosticWriter) WriteDiagnostic(out io.Writer, d *hcl.Diagnostic) error {
	var b strings.Builder
	severity, color := "Error", "\x1b[31m"
	if d.Severity == hcl.DiagWarning {
		severity, color = "Warning", "\x1b[33m"
	}
	if w.Color {
		severity = color + severity + "\x1b[0m"
	}
	fmt.Fprintf(&b, "%s: %s\n\n", severity, d.Summary)
	if d.Subject != nil {
		w.snippet(&b, d)
		writeValues(&b, d)
	}
	if d.Detail != "" {
		detail := d.Detail
		if w.Width > 0 {
			detail = wordwrap.WrapString(detail, w.Width)
		}
		fmt.Fprintf(&b, "%s\n\n", detail)
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// snippet writes where the subject is and its source lines (those of the
// context too, if any).
func (w *DiagnosticWriter) snippet(b *strings.Builder, d *hcl.Diagnostic) {
	subject := *d.Subject
	file := w.Files[subject.Filename]
	if file == nil || file.Bytes == nil {
		fmt.Fprintf(b, "  on %s line %d:\n  (source code not available)\n\n", subject.Filename, subject.Start.Line)
		return
	}
	in := ""
	if ctx := hcled.ContextString(file, subject.Start.Byte); ctx != "" {
		in = ", in " + ctx
	}
	fmt.Fprintf(b, "  on %s line %d%s:\n", subject.Filename, subject.Start.Line, in)
	// The lines shown are those that overlap the subject and context, as
	// hcl.Range.Overlaps has it; an empty subject stands for one byte.
	shown, hi := subject, subject
	if d.Context != nil {
		shown = hcl.RangeOver(shown, *d.Context)
	}
	sStart, sEnd := shown.Start.Byte, max(shown.End.Byte, shown.Start.Byte+1)
	hStart, hEnd := hi.Start.Byte, max(hi.End.Byte, hi.Start.Byte+1)
	src, starts := file.Bytes, w.lineStarts(file)
	lineOf := func(off int) int { return sort.SearchInts(starts, min(max(off, 0), len(src))+1) - 1 }
	for i := lineOf(sStart); i <= lineOf(sEnd); i++ {
		start, end := starts[i], len(src)
		if i+1 < len(starts) {
			end = starts[i+1] - 1
		}
		text := bytes.TrimSuffix(src[start:end], []byte("\r"))
		end = start + len(text)
		if !overlaps(start, end, sStart, sEnd) {
			continue
		}
		fmt.Fprintf(b, "%4d: ", i+1)
		if hs, he := max(start, hStart), min(end, hEnd); w.Color && overlaps(start, end, hStart, hEnd) && hs < he {
			fmt.Fprintf(b, "%s\x1b[1;4m%s\x1b[0m%s\n", src[start:hs], src[hs:he], src[he:end])
		} else {
			fmt.Fprintf(b, "%s\n", text)
		}
	}
	b.WriteByte('\n')
}

// overlaps reports whether the byte ranges [a0, a1) and [b0, b1) overlap as
// hcl.Range.Overlaps has it: both are non-empty and one holds the start or
// the end of the other.
func overlaps(a0, a1, b0, b1 int) bool {
	in := func(off, start, end int) bool { return off >= start && off < end }
	return a0 < a1 && b0 < b1 && (in(b0, a0, a1) || in(b1, a0, a1) || in(a0, b0, b1) || in(a1, b0, b1))
}

// lineStarts returns the byte offsets at which the lines of a file start.
func (w *DiagnosticWriter) lineStarts(f *hcl.File) []int {
	w.mu.Lock()
	defer w.mu.Unlock()
	if starts, ok := w.lines[f]; ok {
		return starts
	}
	starts := []int{0}
	for i, c := range f.Bytes {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	if w.lines == nil {
		w.lines = map[*hcl.File][]int{}
	}
	w.lines[f] = starts
	return starts
}

// writeValues writes the values the variables of the expression at fault
// had, when the diagnostic says in which context it was evaluated.
func writeValues(b *strings.Builder, d *hcl.Diagnostic) {
	if d.Expression == nil || d.EvalContext == nil {
		return
	}
	var stmts []string
	seen := map[string]bool{}
	for _, t := range d.Expression.Variables() {
		v, diags := t.TraverseAbs(d.EvalContext)
		name := traversalText(t)
		if diags.HasErrors() || seen[name] || !v.IsKnown() || v.IsMarked() {
			continue
		}
		seen[name] = true
		if v.IsNull() {
			stmts = append(stmts, name+" set to null")
		} else {
			stmts = append(stmts, name+" as "+valueText(v))
		}
	}
	sort.Strings(stmts)
	for i, s := range stmts {
		lead, end := "     ", ",\n"
		if i == 0 {
			lead = "with "
		}
		if i == len(stmts)-1 {
			end = ".\n\n"
		}
		b.WriteString(lead + s + end)
	}
}

// traversalText is a short rendering of a traversal: a.b[0].
func traversalText(t hcl.Traversal) string {
	var b strings.Builder
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			key := "..."
			if s.Key.Type().IsPrimitiveType() {
				key = valueText(s.Key)
			}
			b.WriteString("[" + key + "]")
		}
	}
	return b.String()
}

// valueText is a short description of a value: itself when it is
// primitive, its type and size otherwise.
func valueText(v cty.Value) string {
	ty := v.Type()
	switch {
	case v.IsNull():
		return "null"
	case !v.IsKnown():
		return "(not yet known)"
	case ty == cty.Bool:
		return fmt.Sprint(v.True())
	case ty == cty.Number:
		return v.AsBigFloat().Text('g', 10)
	case ty == cty.String:
		return fmt.Sprintf("%q", v.AsString())
	case ty.IsCollectionType() || ty.IsTupleType():
		switch n := v.LengthInt(); n {
		case 0:
			return "empty " + ty.FriendlyName()
		case 1:
			return ty.FriendlyName() + " with 1 element"
		default:
			return fmt.Sprintf("%s with %d elements", ty.FriendlyName(), n)
		}
	case ty.IsObjectType():
		switch attrs := ty.AttributeTypes(); len(attrs) {
		case 0:
			return "object with no attributes"
		case 1:
			for k := range attrs {
				return fmt.Sprintf("object with 1 attribute %q", k)
			}
		default:
			return fmt.Sprintf("object with %d attributes", len(attrs))
		}
	}
	return ty.FriendlyName()
}
