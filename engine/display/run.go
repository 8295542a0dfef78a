package display

import (
	"time"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/resource"
)

// run is what a display has learnt of a deployment so far: a row per
// resource, the logical steps in the order they began, the diagnostics and
// the summary. Every renderer reads it; only Display.Handle changes it.
type run struct {
	opts    Options
	now     func() time.Time
	start   time.Time
	preview bool

	rows  map[resource.URN]*row
	order []*row
	steps []*stepRecord
	diags []deploy.DiagEvent
	// policies are the policy violations, in the order found.
	policies []policy.Violation
	summary  *deploy.SummaryEvent
	config   map[string]resource.Value // from the prelude, if any
	// uncounted is how many hidden steps the summary counts, per operation.
	uncounted map[deploy.Op]int
}

// row is one resource as the progress display shows it.
type row struct {
	urn      resource.URN
	typ      string
	parent   resource.URN
	op       deploy.Op // the logical operation, for its words
	outcome  deploy.Op // the operation shown: op, or what a refresh found
	active   deploy.Op // the step in flight, or ""
	since    time.Time // when the step in flight began
	elapsed  time.Duration
	done     bool
	failed   bool
	skipped  bool // its step never started
	step     *stepRecord
	progress string // the latest ephemeral message, shown while a step runs
}

// stepRecord is a logical step: the latest event about it (its states and
// diff as they were last reported, so after an update its new state has the
// provider's outputs).
type stepRecord struct {
	event deploy.StepEvent
}

func newRun(opts Options, now func() time.Time) *run {
	return &run{opts: opts, now: now, start: now(), preview: opts.Operation == OperationPreview,
		rows: map[resource.URN]*row{}, uncounted: map[deploy.Op]int{}}
}

// record updates the run with an event that has just happened.
func (r *run) record(e deploy.Event) {
	switch e := e.(type) {
	case deploy.StepEvent:
		r.step(e)
	case deploy.DiagEvent:
		r.diag(e)
	case deploy.PolicyEvent:
		r.policies = append(r.policies, e.Violation)
	case deploy.PreludeEvent:
		r.preview = r.preview || e.Preview
		r.config = e.Config
	case deploy.SummaryEvent:
		r.summary = &e
		r.preview = r.preview || e.Preview
	}
}

// hide notes a hidden step (see hidden) that the engine counts, to take
// it out of the summary's counts.
func (r *run) hide(e *deploy.StepEvent) {
	if e.Logical && e.Phase == deploy.StepDone {
		r.uncounted[countedOp(e)]++
	}
}

// countedOp is the operation the engine counts a finished step as: a
// refresh as what it found.
func countedOp(e *deploy.StepEvent) deploy.Op {
	if e.Op == deploy.OpRefresh && e.Outcome != "" {
		return e.Outcome
	}
	return e.Op
}

// diag keeps a diagnostic, but for an ephemeral one only the latest of its
// resource, as progress, and not debug ones.
func (r *run) diag(e deploy.DiagEvent) {
	switch {
	case e.Ephemeral:
		if w, ok := r.rows[e.URN]; ok {
			w.progress = e.Message
		}
	case e.Severity != deploy.SeverityDebug:
		r.diags = append(r.diags, e)
	}
}

func (r *run) step(e deploy.StepEvent) {
	r.preview = r.preview || e.Preview
	w := r.row(e.URN)
	if e.Type != "" {
		w.typ = e.Type
	}
	if st := stateOf(&e); st != nil && st.Parent != "" {
		w.parent = st.Parent
	}
	if e.Logical || w.op == "" {
		w.op, w.outcome = rowOp(e.Op), rowOp(e.Op)
	}
	if e.Phase == deploy.StepSkipped {
		w.skipped = true // not a step that ran, so not among the steps
		return
	}
	if e.Logical {
		if e.Phase == deploy.StepStarted || w.step == nil || w.step.event.Op != e.Op {
			w.step = &stepRecord{}
			r.steps = append(r.steps, w.step)
		}
		w.step.event = e
	}
	switch e.Phase {
	case deploy.StepStarted:
		w.active, w.since = e.Op, r.now()
		return
	case deploy.StepDone:
		w.done = true
		if e.Op == deploy.OpRefresh {
			w.outcome = refreshOutcome(&e)
		}
	case deploy.StepFailed:
		w.failed = true
	}
	w.active, w.progress = "", ""
	w.elapsed += e.Duration
}

// row returns the row of urn, adding it when it is new.
func (r *run) row(urn resource.URN) *row {
	if w, ok := r.rows[urn]; ok {
		return w
	}
	w := &row{urn: urn, typ: urn.Type()}
	r.rows[urn] = w
	r.order = append(r.order, w)
	return w
}

// shows reports whether a step is worth showing: everything but sames,
// unless sames are asked for or the resource's protection changed.
func (r *run) shows(e *deploy.StepEvent) bool {
	if e.Op != deploy.OpSame {
		return true
	}
	return r.opts.ShowSames || (e.Old != nil && e.New != nil && e.Old.Protect != e.New.Protect)
}

// changed returns the logical steps that change something and are shown,
// in the order of run.ordered.
func (r *run) changed() []*stepRecord {
	var out []*stepRecord
	for _, s := range r.ordered() {
		if shownOp(&s.event).IsChange() {
			out = append(out, s)
		}
	}
	return out
}

// inFlight reports whether any step is running.
func (r *run) inFlight() bool {
	for _, w := range r.order {
		if w.active != "" {
			return true
		}
	}
	return false
}

// refreshOutcome returns what a refresh found once it is done (its
// outcome), and refresh before.
func refreshOutcome(e *deploy.StepEvent) deploy.Op {
	if e.Phase != deploy.StepDone || e.Outcome == "" {
		return deploy.OpRefresh
	}
	return e.Outcome
}

// shownOp is the operation a logical step shows as: a refresh as what it
// found once done.
func shownOp(e *deploy.StepEvent) deploy.Op {
	if e.Op == deploy.OpRefresh {
		return refreshOutcome(e)
	}
	return rowOp(e.Op)
}

// stateOf returns the step's new state, or its old one.
func stateOf(e *deploy.StepEvent) *resource.State {
	if e.New != nil {
		return e.New
	}
	return e.Old
}

// duration is how long the deployment took: the summary's, or the time
// since the display began.
func (r *run) duration() time.Duration {
	if r.summary != nil {
		return r.summary.Duration
	}
	return r.now().Sub(r.start)
}

// format is how the run renders values.
func (r *run) format() valueFormat { return valueFormat{showSecrets: r.opts.ShowSecrets} }

// differ is how the run computes diffs.
func (r *run) differ() differ { return differ{full: r.opts.ShowDiffs} }
