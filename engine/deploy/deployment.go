package deploy

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/engine/plan"
	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// deployment is one run of an operation over a base snapshot.
type deployment struct {
	opts      *Options
	base      *snapshot.Snapshot
	baseIndex map[*resource.State]int
	olds      map[resource.URN]*resource.State // live base resources
	journal   *journal
	reg       *registry
	sem       chan struct{} // worker slots of provider operations
	planSem   chan struct{} // worker slots of checks and diffs
	targets   *targeting
	start     time.Time
	// keepUnregistered keeps base resources the program did not register
	// (import runs a partial program).
	keepUnregistered bool
	// adoptImports records imported resources with the inputs their provider
	// reports instead of checking them against the program's.
	adoptImports bool

	seedMu    sync.Mutex
	seedState snapshot.Seeds // zero until the first seed is derived

	digestKeyOnce sync.Once
	digestMACs    sync.Pool // HMACs keyed by the digest key (see keyed)
	untrusted     untrusted // what the fast path declined for want of trust

	secretsVerified func() error                              // Options.VerifySecrets, once
	baseDependents  func() map[resource.URN][]*resource.State // who refers to each base URN, once
	pending         map[resource.URN]bool                     // resources with a pending operation in the base

	serveMu   sync.Mutex // the monitor served for components
	served    bool
	serveAddr string
	serveStop func()
	serveErr  error

	mu         sync.Mutex
	records    map[resource.URN]*record
	claimed    map[resource.URN]resource.URN       // base URN → URN of the resource that took it over
	moved      map[*resource.State]*resource.State // a state moved to another type → its base state
	replaced   map[resource.URN]bool               // replaced in this run
	dbrDeleted map[resource.URN]bool               // deleted ahead of their replacement
	cbrOlds    []*resource.State                   // replaced originals awaiting deletion
	skipped    map[resource.URN]bool               // creates skipped because untargeted
	forgotten  map[resource.URN]bool               // to leave the state without being deleted
	failed     map[resource.URN]bool
	followed   map[resource.URN]bool      // compared with Options.Plan
	planned    map[resource.URN]plan.Step // the steps a preview took
	defaults   map[string]*defaultProvider
	changes    map[Op]int
	stepErrs   []error
	analyzed   []policy.Resource  // in the order analyzed, for AnalyzeStack
	violations []policy.Violation // of the policies, in the order found
	cancelled  bool               // by a failure: no step starts any more

	interrupted <-chan struct{} // closed when the operation's context is cancelled
}

// record is a resource registered in this deployment.
type record struct {
	done      chan struct{}
	state     *resource.State
	opID      int64
	providers map[string]string // package → provider reference, inherited by children
	aliases   []resource.URN
	failed    bool
}

type defaultProvider struct {
	done chan struct{}
	ref  string
	err  error
}

// StepError is the failure of one resource's step.
type StepError struct {
	URN resource.URN
	Op  Op
	Err error
}

func (e *StepError) Error() string { return fmt.Sprintf("%s: %v", e.URN, e.Err) }
func (e *StepError) Unwrap() error { return e.Err }

// ErrCancelled is returned for registrations refused after the deployment was
// cancelled, by the user or by an earlier failure.
var ErrCancelled = errors.New("the deployment was cancelled")

// Result is what an operation did.
type Result struct {
	Snapshot *snapshot.Snapshot
	Changes  map[Op]int
	Duration time.Duration
	// Planned are, for a preview, the steps it took by URN with the
	// outputs expected, to save as a plan (plan.Plan.Resources).
	Planned map[resource.URN]plan.Step
	// Violations are the policies found violated, in the order found.
	Violations []policy.Violation
	// Untrusted counts, by package, the resources whose Check and Diff the
	// fast path could have skipped, their digest matching the one
	// recorded, had it trusted their provider (Options.FastPathPackages);
	// provider resources are not counted, but their package is listed.
	// UntrustedTime is the wall time during which the calls of any of them
	// (CheckConfig and DiffConfig too) were in flight.
	Untrusted     map[string]int
	UntrustedTime time.Duration
}

// ResourceChanges returns the counts of Changes that are not zero, by the
// op's name, as a stack's history records them.
func (r *Result) ResourceChanges() map[string]int {
	out := map[string]int{}
	for op, n := range r.Changes {
		if n > 0 {
			out[string(op)] = n
		}
	}
	return out
}

// HasChanges reports whether the operation changed (or would change) anything.
func (r *Result) HasChanges() bool {
	for op, n := range r.Changes {
		if op.IsChange() && n > 0 {
			return true
		}
	}
	return false
}

func newDeployment(opts *Options, base *snapshot.Snapshot, keep func(resource.Operation) bool) (*deployment, error) {
	if base == nil {
		base = &snapshot.Snapshot{}
	}
	if err := base.VerifyIntegrity(); err != nil {
		return nil, fmt.Errorf("the stack's state is invalid, so no operation can run on it: %w", err)
	}
	targets, err := newTargeting(opts)
	if err != nil {
		return nil, err
	}
	persisted := opts.Journal
	if opts.DryRun {
		persisted = nil // a preview changes nothing, so records nothing
	}
	d := &deployment{
		opts:       opts,
		base:       base,
		baseIndex:  make(map[*resource.State]int, len(base.Resources)),
		olds:       make(map[resource.URN]*resource.State, len(base.Resources)),
		journal:    newJournal(base, persisted, keep),
		reg:        newRegistry(opts.Host, base, opts.DryRun),
		sem:        make(chan struct{}, opts.parallel()),
		planSem:    make(chan struct{}, opts.parallel()),
		targets:    targets,
		start:      time.Now(),
		records:    map[resource.URN]*record{},
		claimed:    map[resource.URN]resource.URN{},
		moved:      map[*resource.State]*resource.State{},
		replaced:   map[resource.URN]bool{},
		dbrDeleted: map[resource.URN]bool{},
		skipped:    map[resource.URN]bool{},
		forgotten:  map[resource.URN]bool{},
		failed:     map[resource.URN]bool{},
		followed:   map[resource.URN]bool{},
		planned:    map[resource.URN]plan.Step{},
		defaults:   map[string]*defaultProvider{},
		changes:    map[Op]int{},
	}
	for i, r := range base.Resources {
		d.baseIndex[r] = i
		if !r.Delete {
			d.olds[r.URN] = r
		}
	}
	d.secretsVerified = sync.OnceValue(d.verifySecrets)
	d.baseDependents = sync.OnceValue(func() map[resource.URN][]*resource.State { return dependents(base.Resources) })
	d.learnMaps(resource.Map(opts.Config))
	for _, r := range base.Resources {
		d.learn(r)
	}
	d.pending = map[resource.URN]bool{}
	for _, op := range base.PendingOperations {
		d.learn(op.Resource)
		d.pending[op.Resource.URN] = true
	}
	opts.emit(PreludeEvent{Preview: opts.DryRun, Config: opts.Config})
	return d, nil
}

// acquire takes a worker slot for a provider operation.
func (d *deployment) acquire() { d.sem <- struct{}{} }
func (d *deployment) release() { <-d.sem }

// plan takes a worker slot for a check or a diff; calling the result gives
// it back.
func (d *deployment) plan() (done func()) {
	d.planSem <- struct{}{}
	return func() { <-d.planSem }
}

func (d *deployment) diag(urn resource.URN, sev Severity, format string, args ...any) {
	d.opts.emit(DiagEvent{URN: urn, Severity: sev, Message: fmt.Sprintf(format, args...)})
}

func (d *deployment) count(op Op) {
	d.mu.Lock()
	d.changes[op]++
	d.mu.Unlock()
}

// fail records a step failure and, unless continuing on errors or previewing,
// cancels the deployment.
func (d *deployment) fail(urn resource.URN, op Op, err error) error {
	se := &StepError{URN: urn, Op: op, Err: err}
	d.mu.Lock()
	d.stepErrs = append(d.stepErrs, se)
	d.failed[urn] = true
	// A policy violation leaves the resource as it was, so the resources
	// that do not depend on it may go ahead.
	var ve *ViolationError
	if !d.opts.ContinueOnError && !d.opts.DryRun && !errors.As(err, &ve) {
		d.cancelled = true
	}
	d.mu.Unlock()
	d.diag(urn, SeverityError, "%v", err)
	return se
}

// isCancelled reports whether steps may no longer start: the operation was
// interrupted, or a failure cancelled it.
func (d *deployment) isCancelled() bool {
	if closed(d.interrupted) || d.isTerminated() {
		return true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cancelled
}

// isTerminated reports whether the steps in flight were told to stop.
func (d *deployment) isTerminated() bool { return closed(d.opts.Terminate) }

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// do runs the body of an operation and finishes the deployment. Once ctx is
// cancelled no step starts any more, while those in flight finish; once
// Options.Terminate is closed, the providers are told to stop those too.
func (d *deployment) do(ctx context.Context, body func(context.Context) error) (*Result, error) {
	d.interrupted = ctx.Done()
	done, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-d.opts.Terminate:
			d.reg.cancel(context.WithoutCancel(ctx))
		case <-done:
		}
	}()
	err := body(ctx)
	close(done)
	<-watched
	return d.finish(err)
}

// finish closes providers, emits the summary and builds the result.
func (d *deployment) finish(err error) (*Result, error) {
	d.stopServing()
	d.reg.close()
	if err == nil {
		d.mu.Lock()
		if n := len(d.stepErrs); n > 0 {
			if n == 1 {
				err = d.stepErrs[0]
			} else if v := violators(d.stepErrs); v == n {
				err = fmt.Errorf("%d resources violate mandatory policies, so they were left as they were", n)
			} else {
				err = fmt.Errorf("%d resource operations failed", n)
			}
		}
		d.mu.Unlock()
	}
	if err == nil {
		err = unmatchedPatterns(d.opts, d.seenURNs())
	}
	if n := d.mandatoryViolations(); err == nil && n > 0 && d.opts.DryRun {
		err = fmt.Errorf("%d mandatory policy violation(s); `up` would refuse to change what violates them", n)
	}
	if err == nil {
		err = d.unfollowedPlan()
	}
	res := &Result{Snapshot: d.journal.snapshot(), Changes: d.changes, Duration: time.Since(d.start), Violations: d.violations}
	res.Untrusted, res.UntrustedTime = d.untrusted.result()
	if d.opts.DryRun {
		res.Planned = d.planned
	}
	if err == nil && d.opts.ExpectNoChanges && res.HasChanges() {
		err = errors.New("no changes were expected, but changes were found (--expect-no-changes)")
	}
	sum := SummaryEvent{Preview: d.opts.DryRun, Changes: res.Changes, Duration: res.Duration}
	if root := res.Snapshot.Root(); root != nil && !d.opts.DryRun {
		sum.Outputs = root.Outputs
	}
	if err != nil {
		sum.Error = err.Error()
	}
	d.opts.emit(sum)
	return res, err
}

// violators counts the errors that are policy violations.
func violators(errs []error) int {
	n := 0
	for _, err := range errs {
		var ve *ViolationError
		if errors.As(err, &ve) {
			n++
		}
	}
	return n
}

// seenURNs lists the URNs of the stack's recorded resources and of those
// the program registered.
func (d *deployment) seenURNs() []resource.URN {
	urns := make([]resource.URN, 0, len(d.base.Resources)+len(d.records))
	for _, r := range d.base.Resources {
		urns = append(urns, r.URN)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for u := range d.records {
		urns = append(urns, u)
	}
	return urns
}

// Update runs the program and brings the stack to the state it declares
// (or, with DryRun, previews what that would take).
func Update(ctx context.Context, opts Options, base *snapshot.Snapshot) (*Result, error) {
	if opts.Program == nil {
		return nil, errors.New("update needs a program")
	}
	d, err := newDeployment(&opts, base, snapshot.KeepPendingCreates)
	if err != nil {
		return nil, err
	}
	return d.do(ctx, func(ctx context.Context) error { return d.runProgram(ctx, opts.Program) })
}

// runProgram runs the program against this deployment's monitor, then
// deletes what it no longer declares.
func (d *deployment) runProgram(ctx context.Context, prog Program) error {
	d.warnPending()
	err := prog.Run(ctx, RunInfo{
		Monitor: d, Project: d.opts.Project, Stack: d.opts.Stack, Organization: d.opts.Organization,
		Config: d.opts.Config, DryRun: d.opts.DryRun, Parallel: d.opts.parallel(),
	})
	if ctx.Err() != nil {
		return fmt.Errorf("%w: %v", ErrCancelled, context.Cause(ctx))
	}
	var se *StepError
	if err != nil && !errors.As(err, &se) && !errors.Is(err, ErrCancelled) {
		// The step errors, if any, are reported by finish; this one is the
		// program's own. A preview deletes nothing anyway.
		if d.opts.DryRun {
			return err
		}
		return fmt.Errorf("the program failed, so nothing was deleted: %w", err)
	}
	if !d.isCancelled() {
		// The whole planned stack goes to the analyzers before anything is
		// deleted.
		if err := d.analyzeStack(ctx); err != nil {
			return err
		}
	}
	d.mu.Lock()
	failures := len(d.stepErrs)
	d.mu.Unlock()
	if d.isCancelled() || d.keepUnregistered || (failures > 0 && !d.opts.ContinueOnError) {
		return nil
	}
	if err := d.refuseEmpty(); err != nil {
		return err
	}
	return d.runDeletes(ctx, d.deletesAfterProgram())
}

// warnPending warns about operations a previous run left unfinished.
func (d *deployment) warnPending() {
	if len(d.base.PendingOperations) == 0 || d.opts.DryRun {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the stack has %d operations that a previous run began and did not finish:", len(d.base.PendingOperations))
	for _, op := range d.base.PendingOperations {
		fmt.Fprintf(&b, "\n  * %s, interrupted while %s", op.Resource.URN, op.Type)
	}
	b.WriteString("\nthese resources may exist in the cloud but not in the state, or the other way round; run `cairn refresh` to reconcile them (pending creates need --clear-pending-creates or an import)")
	d.diag("", SeverityWarning, "%s", b.String())
}
