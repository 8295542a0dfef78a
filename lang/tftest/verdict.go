package tftest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

var (
	// checkWarning is how an operation reports a check block that failed
	// or could not be evaluated: "warning: Check NAME failed\n\n  on …\n\nMESSAGE".
	checkWarning = regexp.MustCompile(`^warning: Check (\S+) (failed|known after the update)`)
	// positioned is an error at a position: "error: FILE:LINE:COL: SUMMARY: DETAIL".
	positioned = regexp.MustCompile(`^error: ([^:\s]+):(\d+):(\d+): `)
)

// judge gives a run its verdict from the operation's diagnostics: the
// assertions that failed (check blocks cairn_tftest_<i>), the failures
// it expected (of variables, outputs, checks and resources, by the
// position of the error) and the errors it did not.
func judge(rr *RunResult, run *Run, c *Config, doc *document, ends []int) {
	expected := map[string]bool{}
	happened := map[string]bool{}
	for _, tr := range run.ExpectFailures {
		expected[Address(tr)] = true
	}
	for _, d := range doc.Diagnostics {
		msg := strings.TrimSpace(d.Message)
		if m := checkWarning.FindStringSubmatch(msg); m != nil {
			name := m[1]
			if i, err := strconv.Atoi(strings.TrimPrefix(name, checkPrefix)); err == nil && strings.HasPrefix(name, checkPrefix) && i < len(run.Asserts) {
				rr.Diags = append(rr.Diags, assertFailed(run.Asserts[i], m[2] == "failed", lastParagraph(msg)))
				continue
			}
			if expected["check."+name] {
				happened["check."+name] = true
			} else {
				rr.Diags = append(rr.Diags, runError(run, "Check block assertion failed", strings.TrimPrefix(msg, "warning: ")))
			}
			continue
		}
		if d.Severity != "error" {
			continue
		}
		if m := positioned.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			if a := assertAt(run, ends, line); a != nil && m[1] == assertFile+c.Ext {
				// An assertion that cannot be evaluated, at its condition.
				rr.Diags = append(rr.Diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid assertion",
					Detail: strings.TrimPrefix(msg, m[0]), Subject: a.Condition.Range().Ptr()})
				rr.Status = Error
				continue
			}
			if addr := c.At(m[1], line, col); addr != "" && expected[addr] {
				happened[addr] = true
				continue
			}
		}
		if strings.HasPrefix(msg, "error: update failed") || strings.HasPrefix(msg, "error: preview failed") {
			continue
		}
		rr.Diags = append(rr.Diags, runError(run, "The run failed", strings.TrimPrefix(msg, "error: ")))
		rr.Status = Error
	}
	for _, tr := range run.ExpectFailures {
		if addr := Address(tr); !happened[addr] {
			rr.Diags = append(rr.Diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing expected failure",
				Detail:  fmt.Sprintf("The object %s was expected to report an error, but did not.", addr),
				Subject: tr.SourceRange().Ptr()})
			rr.Status = Error
		}
	}
	if rr.Status == Pass && len(rr.Diags) > 0 {
		rr.Status = Fail
	}
}

// assertFailed is the diagnostic of a failed assertion, at its
// condition.
func assertFailed(a *Assert, failed bool, message string) *hcl.Diagnostic {
	if !failed {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Unknown condition value",
			Detail:  "The condition could not be evaluated at this time: its value is known only after an apply. Assert it in a run with command = apply.",
			Subject: a.Condition.Range().Ptr()}
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Test assertion failed", Detail: message, Subject: a.Condition.Range().Ptr()}
}

// lastParagraph is the error message of a check's diagnostic.
func lastParagraph(msg string) string {
	if i := strings.LastIndex(msg, "\n\n"); i >= 0 {
		return strings.TrimSpace(msg[i+2:])
	}
	return msg
}
