package eval

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
)

// DiagnosticsError is the error of a program that could not run, or failed
// while running: its diagnostics, and the sources to render them with
// (a DiagnosticWriter).
type DiagnosticsError struct {
	Diags hcl.Diagnostics
	Files map[string]*hcl.File
}

// Error renders the diagnostics (the first 20) with their source snippets.
func (e *DiagnosticsError) Error() string {
	var b strings.Builder
	_ = (&DiagnosticWriter{Files: e.Files}).WriteDiagnostics(&b, e.Diags)
	return strings.TrimSpace(b.String())
}

// diagSink collects the diagnostics of a run from many goroutines, each
// once; warnings also go to warn as they arrive.
type diagSink struct {
	mu    sync.Mutex
	seen  map[string]bool
	diags hcl.Diagnostics
	warn  func(*hcl.Diagnostic)
}

func (s *diagSink) add(ds hcl.Diagnostics) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	for _, d := range ds {
		k := diagKey(d)
		if s.seen[k] {
			continue
		}
		s.seen[k] = true
		s.diags = append(s.diags, d)
		if d.Severity == hcl.DiagWarning && s.warn != nil {
			s.warn(d)
		}
	}
}

func (s *diagSink) errors() hcl.Diagnostics {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out hcl.Diagnostics
	for _, d := range s.diags {
		if d.Severity == hcl.DiagError {
			out = append(out, d)
		}
	}
	return SortDiagnostics(out)
}

func diagKey(d *hcl.Diagnostic) string {
	r := ""
	if d.Subject != nil {
		r = d.Subject.String()
	}
	return fmt.Sprintf("%d\x00%s\x00%s\x00%s", d.Severity, d.Summary, d.Detail, r)
}

// SortDiagnostics orders diagnostics by file, position and summary, and
// drops repeats, so that concurrent evaluation reports them the same way
// every time.
func SortDiagnostics(ds hcl.Diagnostics) hcl.Diagnostics {
	seen := map[string]bool{}
	out := make(hcl.Diagnostics, 0, len(ds))
	for _, d := range ds {
		if k := diagKey(d); !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Subject, out[j].Subject
		switch {
		case a == nil || b == nil:
			return a == nil && b != nil
		case a.Filename != b.Filename:
			return a.Filename < b.Filename
		case a.Start.Byte != b.Start.Byte:
			return a.Start.Byte < b.Start.Byte
		}
		return out[i].Summary < out[j].Summary
	})
	return out
}

// DidYouMean returns ` Did you mean "x"?` for the candidate closest to name
// (case-insensitive matches first), or "" when none is close.
func DidYouMean(name string, candidates []string) string {
	if s := Suggest(name, candidates); s != "" {
		return fmt.Sprintf(" Did you mean %q?", s)
	}
	return ""
}

// Suggest returns the candidate closest to name by edit distance, if it is
// close enough to be a likely typo; ties go to the first in sorted order.
func Suggest(name string, candidates []string) string {
	best, bestDist, folded := "", 3, false
	for _, c := range candidates {
		if strings.EqualFold(c, name) {
			if !folded || c < best {
				best, folded = c, true
			}
			continue
		}
		if folded {
			continue
		}
		if d := levenshtein.Distance(name, c, nil); d < bestDist || d == bestDist && c < best {
			best, bestDist = c, d
		}
	}
	return best
}

// List renders names as "a, b, c and N others", sorted, each once,
// showing at most max.
func List(names []string, max int) string {
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	sorted = slices.Compact(sorted)
	if len(sorted) <= max {
		return strings.Join(sorted, ", ")
	}
	return fmt.Sprintf("%s and %d others", strings.Join(sorted[:max], ", "), len(sorted)-max)
}

// errorDiag makes an error diagnostic.
func errorDiag(subject hcl.Range, summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: subject.Ptr()}
}
