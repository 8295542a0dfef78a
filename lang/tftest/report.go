package tftest

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// Reporter prints results as tofu test prints them: a line per file and
// per run, the failures with their position, and a summary; or, with
// JSON, one JSON object a line in the shape of tofu test -json.
type Reporter struct {
	Out     io.Writer
	JSON    bool
	Verbose bool
	Version string

	passed, failed, errored, skipped int
	// leftovers counts files whose cleanup failed.
	leftovers int
}

// Start announces the files and their runs.
func (p *Reporter) Start(files []*File) {
	if !p.JSON {
		return
	}
	p.emit("info", "Cairn "+p.Version, map[string]any{"type": "version", "cairn": p.Version, "ui": "1.2"})
	abstract := map[string][]string{}
	runs := 0
	for _, f := range files {
		for _, r := range f.Runs {
			abstract[f.Name] = append(abstract[f.Name], r.Name)
			runs++
		}
	}
	p.emit("info", fmt.Sprintf("Found %d file%s and %d run block%s", len(files), plural(len(files)), runs, plural(runs)),
		map[string]any{"type": "test_abstract", "test_abstract": abstract})
}

// File prints a file's result.
func (p *Reporter) File(res *FileResult) {
	f := res.File
	files := map[string]*hcl.File{}
	if f.HCL != nil {
		files[f.Name] = f.HCL
	}
	if p.JSON {
		p.emit("info", fmt.Sprintf("%s... %s", f.Name, res.Status), map[string]any{"type": "test_file", "@testfile": f.Name,
			"test_file": map[string]any{"path": f.Name, "status": res.Status}})
	} else {
		fmt.Fprintf(p.Out, "%s... %s\n", f.Name, res.Status.text())
	}
	for _, rr := range res.Runs {
		p.count(rr.Status)
		if p.JSON {
			p.emit("info", fmt.Sprintf("  %q... %s", rr.Run.Name, rr.Status), map[string]any{"type": "test_run", "@testfile": f.Name, "@testrun": rr.Run.Name,
				"test_run": map[string]any{"path": f.Name, "run": rr.Run.Name, "status": rr.Status}})
			for _, d := range rr.Diags {
				p.diagnostic(f.Name, rr.Run.Name, d)
			}
			continue
		}
		fmt.Fprintf(p.Out, "  run %q... %s\n", rr.Run.Name, rr.Status.text())
		for _, d := range rr.Diags {
			p.text(files, d)
		}
		if p.Verbose && rr.Detail != "" {
			fmt.Fprintf(p.Out, "    %s\n", strings.ReplaceAll(strings.TrimSpace(rr.Detail), "\n", "\n    "))
		}
	}
	if len(res.Runs) == 0 && res.Status == Error {
		p.errored++
	} else if res.Diags.HasErrors() {
		p.leftovers++ // the runs passed, but the cleanup failed
	}
	for _, d := range res.Diags {
		if p.JSON {
			p.diagnostic(f.Name, "", d)
		} else {
			p.text(files, d)
		}
	}
}

// Summary prints the counts last.
func (p *Reporter) Summary() {
	failed := p.failed + p.errored
	verdict := "Success!"
	if p.Failed() {
		verdict = "Failure!"
	}
	line := fmt.Sprintf("%s %d passed, %d failed.", verdict, p.passed, failed)
	if p.skipped > 0 {
		line = strings.TrimSuffix(line, ".") + fmt.Sprintf(", %d skipped.", p.skipped)
	}
	if p.JSON {
		status := "pass"
		if p.errored > 0 || p.leftovers > 0 {
			status = "error"
		} else if p.failed > 0 {
			status = "fail"
		}
		p.emit("info", line, map[string]any{"type": "test_summary", "test_summary": map[string]any{
			"status": status, "passed": p.passed, "failed": p.failed, "errored": p.errored, "skipped": p.skipped}})
		return
	}
	fmt.Fprintln(p.Out, line)
}

// Failed reports whether any run failed or erred, or a file's cleanup
// failed.
func (p *Reporter) Failed() bool { return p.failed+p.errored+p.leftovers > 0 }

func (p *Reporter) count(s Status) {
	switch s {
	case Pass:
		p.passed++
	case Fail:
		p.failed++
	case Error:
		p.errored++
	case Skip:
		p.skipped++
	}
}

// text prints a diagnostic: FILE:LINE:COL: summary, the condition for an
// assertion, and the detail.
func (p *Reporter) text(files map[string]*hcl.File, d *hcl.Diagnostic) {
	pos := ""
	if d.Subject != nil {
		pos = fmt.Sprintf("%s:%d:%d: ", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
	}
	fmt.Fprintf(p.Out, "    %s%s\n", pos, d.Summary)
	if d.Subject != nil && d.Summary == "Test assertion failed" {
		if f := files[d.Subject.Filename]; f != nil {
			fmt.Fprintf(p.Out, "      condition: %s\n", d.Subject.SliceBytes(f.Bytes))
		}
	}
	if d.Detail != "" {
		fmt.Fprintf(p.Out, "      %s\n", strings.ReplaceAll(d.Detail, "\n", "\n      "))
	}
}

func (p *Reporter) diagnostic(file, run string, d *hcl.Diagnostic) {
	diag := map[string]any{"severity": "error", "summary": d.Summary, "detail": d.Detail}
	if d.Severity == hcl.DiagWarning {
		diag["severity"] = "warning"
	}
	if r := d.Subject; r != nil {
		diag["range"] = map[string]any{"filename": r.Filename,
			"start": map[string]int{"line": r.Start.Line, "column": r.Start.Column, "byte": r.Start.Byte},
			"end":   map[string]int{"line": r.End.Line, "column": r.End.Column, "byte": r.End.Byte}}
	}
	m := map[string]any{"type": "diagnostic", "@testfile": file, "diagnostic": diag}
	if run != "" {
		m["@testrun"] = run
	}
	label := "Error: "
	if d.Severity == hcl.DiagWarning {
		label = "Warning: "
	}
	p.emit(diag["severity"].(string), label+d.Summary, m)
}

func (p *Reporter) emit(level, message string, fields map[string]any) {
	fields["@level"], fields["@message"], fields["@module"] = level, message, "cairn.test"
	fields["@timestamp"] = time.Now().UTC().Format(time.RFC3339Nano)
	data, _ := json.Marshal(fields)
	fmt.Fprintf(p.Out, "%s\n", data)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// text is how the lines of tofu test name a verdict: an error is a
// failure there, which the diagnostics below it explain.
func (s Status) text() Status {
	if s == Error {
		return Fail
	}
	return s
}
