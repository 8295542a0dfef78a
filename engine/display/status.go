package display

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
)

// stepStatus is the status text of one step event: "creating…" when it
// starts, "created (0.4s)" when done ("create" in a preview, "unchanged"
// for a same), "creating failed" when it fails, "create skipped" when it
// never started.
func stepStatus(e *deploy.StepEvent) string {
	s := styleOf(e.Op)
	switch e.Phase {
	case deploy.StepStarted:
		return s.doing + "…"
	case deploy.StepFailed:
		return s.doing + " failed"
	case deploy.StepSkipped:
		return s.preview + " skipped"
	}
	if e.Preview || e.Op == deploy.OpSame {
		return s.preview
	}
	return s.done + " (" + formatDuration(e.Duration) + ")"
}

// infoText sums up a step's diff: "[diff: ~tags, +versioning]", for a
// replacement "[replace: bucket]", and for a refresh that found nothing
// "[gone]".
func infoText(e *deploy.StepEvent) string {
	var parts []string
	if keys := diffKeys(e); len(keys) > 0 {
		parts = append(parts, "[diff: "+strings.Join(keys, ", ")+"]")
	}
	if len(e.Keys) > 0 {
		parts = append(parts, "[replace: "+strings.Join(e.Keys, ", ")+"]")
	}
	if refreshOutcome(e) == deploy.OpDelete {
		parts = append(parts, "[gone]")
	}
	return strings.Join(parts, " ")
}

// diffKeys returns the top-level properties a step changes, each marked +
// (added), - (removed) or ~ (changed), in order; internal ones are left out.
func diffKeys(e *deploy.StepEvent) []string {
	kinds := map[string]byte{}
	for p, pd := range e.DetailedDiff {
		k := topKey(p)
		m := markFor(pd.Kind, true, true)
		if prev, ok := kinds[k]; ok && prev != m {
			m = markUpdate
		}
		kinds[k] = m
	}
	for _, k := range e.Diffs {
		if _, ok := kinds[k]; !ok {
			kinds[k] = markUpdate
		}
	}
	keys := make([]string, 0, len(kinds))
	for k := range kinds {
		if !isInternal(k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for i, k := range keys {
		keys[i] = string(kinds[k]) + k
	}
	return keys
}

// resourceTitle names a resource for a reader: its type and name.
func resourceTitle(urn resource.URN, typ string) string {
	if typ == "" {
		typ = urn.Type()
	}
	return typ + " " + urn.Name()
}

// formatDuration writes a duration the way people read it: milliseconds
// under a tenth of a second, tenths of a second under ten seconds, whole
// seconds under a minute, then minutes and seconds.
func formatDuration(d time.Duration) string {
	switch {
	case d < 100*time.Millisecond:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Round(time.Second).Seconds()))
	}
	d = d.Round(time.Second)
	return fmt.Sprintf("%dm%ds", int(d.Minutes()), int(d.Seconds())%60)
}
