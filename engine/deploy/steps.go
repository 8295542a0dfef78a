package deploy

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// step is one action on one resource.
type step struct {
	op      Op
	urn     resource.URN
	old     *resource.State
	new     *resource.State
	prov    provider.Provider // nil for components and provider resources
	logical bool              // the op the user sees (not half of a replace)

	keys     []string
	diffs    []string
	detailed resource.DetailedDiff
	stables  []string
	inputs   resource.Map // import: the inputs the program declared
	digest   []byte       // the goal's digest, recorded with the state it ends with (see goalDigest)
	matched  string       // the state digest a fast-path same step matched, which it records again
	outcome  Op           // refresh: what it found

	untargeted     bool // a same step that keeps the old state verbatim
	markOldDelete  bool // create-before-replace: the original awaits deletion
	removeOld      bool // the created resource supersedes the old state
	pendingReplace bool // delete-before-replace: deleted ahead of its replacement
	skipDelete     bool // retainOnDelete or deletedWith: drop from state only
}

// stepResult is the state a chain ended with.
type stepResult struct {
	state   *resource.State
	opID    int64
	stables []string
}

// execute runs a chain of steps in order, as Pulumi's step executor does; the
// chain stops at the first failure, or at a step skipped because the
// deployment was cancelled.
func (d *deployment) execute(ctx context.Context, chain []*step) (stepResult, error) {
	var res stepResult
	if err := d.followPlan(chain); err != nil {
		return res, err
	}
	for _, s := range chain {
		r, err := d.run(ctx, s)
		if err != nil {
			return res, err
		}
		if r.state != nil {
			res = r
		}
	}
	d.recordPlanned(chain, res)
	return res, nil
}

// run runs one step, reporting it as it starts and ends. A step that calls a
// provider first takes a worker slot, held until it ends, so that no more
// operations are in flight (or pending) at once than there are workers. A
// step that would change something is skipped, and reported so, once the
// deployment is cancelled.
func (d *deployment) run(ctx context.Context, s *step) (stepResult, error) {
	if s.callsProvider() {
		d.acquire()
		defer d.release()
	}
	if s.op != OpSame && s.op != OpReplace && d.isCancelled() {
		d.skip(s)
		return stepResult{}, ErrCancelled
	}
	started := time.Now()
	d.emitStep(StepStarted, s, nil, 0)
	r, err := d.apply(context.WithoutCancel(ctx), s)
	if err != nil {
		d.emitStep(StepFailed, s, err, time.Since(started))
		return r, d.fail(s.urn, s.op, err)
	}
	if s.logical {
		d.count(s.op)
	}
	d.emitStep(StepDone, s, nil, time.Since(started))
	return r, nil
}

// skip reports a step that never started.
func (d *deployment) skip(s *step) { d.emitStep(StepSkipped, s, nil, 0) }

func (d *deployment) emitStep(phase StepPhase, s *step, err error, dur time.Duration) {
	// Old states are the base's, whose secrets the masker learned when the
	// deployment began; so are the values of a state the fast path kept.
	if s.matched == "" && !s.untargeted {
		d.learn(s.new)
	}
	if d.opts.Events == nil {
		return
	}
	e := StepEvent{Phase: phase, Op: s.op, URN: s.urn, Old: s.old, New: s.new, Keys: s.keys, Diffs: s.diffs,
		DetailedDiff: s.detailed, Logical: s.logical, Outcome: s.outcome, Preview: d.opts.DryRun, Duration: dur}
	switch {
	case s.new != nil:
		e.Type, e.Provider = s.new.Type, s.new.Provider
	case s.old != nil:
		e.Type, e.Provider = s.old.Type, s.old.Provider
	}
	if err != nil {
		e.Error = err.Error()
	}
	d.opts.emit(e)
}

// callsProvider reports whether the step calls a provider operation that
// changes or reads the world, and so is recorded as pending while it runs.
func (s *step) callsProvider() bool {
	return s.prov != nil && !s.skipDelete && !s.pendingReplaceOnly()
}

func (s *step) pendingReplaceOnly() bool {
	return s.op == OpRemovePendingReplace
}

// begin waits for the stack's secrets to be verified if the step changes
// something, then journals that a step that calls a provider is about to
// start its operation; until the step ends, the operation is pending.
func (d *deployment) begin(s *step, typ resource.OperationType, st *resource.State) (id int64, err error) {
	id = d.journal.newOperationID()
	if !d.opts.DryRun && mutates(typ) {
		if err := d.secretsVerified(); err != nil {
			return id, err
		}
	}
	if !s.callsProvider() || d.opts.DryRun {
		return id, nil
	}
	return id, d.journal.append(snapshot.JournalEntry{Kind: snapshot.EntryBegin, OperationID: id, Operation: &resource.Operation{Resource: st, Type: typ}})
}

// end journals the step's outcome (in memory only, during a preview).
func (d *deployment) end(e snapshot.JournalEntry) error { return d.journal.append(e) }

// baseIdx returns the index of a base state in the base snapshot (of the
// one it stands for, for a state moved to another type), or nil.
func (d *deployment) baseIdx(s *resource.State) *int {
	if s == nil {
		return nil
	}
	if i, ok := d.baseIndex[s]; ok {
		return intp(i)
	}
	d.mu.Lock()
	base := d.moved[s]
	d.mu.Unlock()
	if base != nil {
		return d.baseIdx(base)
	}
	return nil
}

// recordDigest returns the digest to record with the state n a step ended
// with: empty in a preview, or when the step had none to record.
func (d *deployment) recordDigest(s *step, n *resource.State) string {
	if d.opts.DryRun {
		return ""
	}
	if s.matched != "" {
		return s.matched
	}
	if len(s.digest) > 0 {
		n.Inputs, n.Outputs = d.sealMap(n.Inputs), d.sealMap(n.Outputs)
	}
	sum, _ := d.stateDigest(s.digest, n)
	return sum
}

// apply carries a step out.
func (d *deployment) apply(ctx context.Context, s *step) (stepResult, error) {
	switch s.op {
	case OpSame:
		return d.applySame(ctx, s)
	case OpCreate, OpCreateReplacement:
		return d.applyCreate(ctx, s)
	case OpUpdate:
		return d.applyUpdate(ctx, s)
	case OpDelete, OpDeleteReplaced, OpRemovePendingReplace, OpDiscard:
		return stepResult{}, d.applyDelete(ctx, s)
	case OpRead, OpReadReplacement:
		return d.applyRead(ctx, s)
	case OpImport, OpImportReplacement:
		return d.applyImport(ctx, s)
	case OpReplace:
		return stepResult{}, nil // logical: its halves do the work
	}
	return stepResult{}, fmt.Errorf("unknown step %s", s.op)
}

func (d *deployment) applySame(ctx context.Context, s *step) (stepResult, error) {
	n := s.new
	if !s.untargeted {
		n = s.new.Copy()
		n.ID, n.Outputs, n.Created, n.Modified = s.old.ID, s.old.Outputs, s.old.Created, s.old.Modified
		n.InitErrors = nil
		if resource.IsProviderType(n.Type) {
			if err := d.reg.same(ctx, n.URN, n.ID, n.Inputs, s.matched != ""); err != nil {
				return stepResult{}, err
			}
		}
	} else if resource.IsProviderType(n.Type) {
		if _, err := d.reg.get(ctx, resource.ProviderRef{URN: n.URN, ID: n.ID}.String()); err != nil {
			return stepResult{}, err
		}
	}
	if !s.untargeted {
		n.Digest = d.recordDigest(s, n)
	}
	s.new = n
	id := d.journal.newOperationID()
	if err := d.end(snapshot.JournalEntry{Kind: snapshot.EntrySuccess, OperationID: id, RemoveOld: d.baseIdx(s.old), State: n}); err != nil {
		return stepResult{}, err
	}
	return stepResult{state: n, opID: id, stables: s.stables}, nil
}

func (d *deployment) applyCreate(ctx context.Context, s *step) (stepResult, error) {
	n := s.new.Copy()
	id, err := d.begin(s, resource.OpCreating, n)
	if err != nil {
		return stepResult{}, err
	}
	n.Created, n.Modified = now(), nil
	var initErr *provider.InitError
	switch {
	case resource.IsProviderType(n.Type):
		pid, err := d.reg.create(ctx, n.URN, n.Inputs)
		if err != nil {
			return stepResult{}, d.endFailed(id, err)
		}
		n.ID, n.Outputs = pid, n.Inputs
	case n.Custom:
		resp, err := s.prov.Create(ctx, provider.CreateRequest{URN: n.URN, Name: n.URN.Name(), Type: n.Type, Inputs: n.Inputs,
			Timeout: seconds(n.CustomTimeouts.Create), Preview: d.opts.DryRun})
		if err != nil && !errors.As(err, &initErr) {
			return stepResult{}, d.endFailed(id, err)
		}
		if initErr != nil {
			resp = provider.CreateResponse{ID: initErr.ID, Outputs: initErr.Outputs}
			if resp.ID == "" {
				return stepResult{}, d.endFailed(id, err)
			}
			n.InitErrors, n.Taint = initErr.Reasons, initErr.Taint
		}
		n.ID, n.Outputs = resp.ID, resp.Outputs
		if d.opts.DryRun {
			n.ID = resource.UnknownID
		} else if n.ID == "" {
			return stepResult{}, d.endFailed(id, fmt.Errorf("the provider created the resource but returned no ID"))
		}
		n.Outputs = d.secretOutputs(n.Inputs, n.Outputs, n.AdditionalSecretOutputs)
		d.learnOutputs(n)
	default:
		n.Outputs = resource.Map{}
	}
	n.Digest = d.recordDigest(s, n)
	e := snapshot.JournalEntry{Kind: snapshot.EntrySuccess, OperationID: id, State: n}
	if s.markOldDelete {
		e.MarkDeleteOld = d.baseIdx(s.old)
		d.mu.Lock()
		d.cbrOlds = append(d.cbrOlds, s.old)
		d.mu.Unlock()
	}
	if s.removeOld {
		e.RemoveOld = d.baseIdx(s.old)
	}
	if err := d.end(e); err != nil {
		return stepResult{}, err
	}
	if initErr != nil && initErr.Taint {
		return stepResult{}, fmt.Errorf("created with errors, recorded tainted so the next update replaces it: %w", initErr)
	}
	if initErr != nil {
		return stepResult{}, fmt.Errorf("created with errors, recorded so the next update retries: %w", initErr)
	}
	return stepResult{state: n, opID: id}, nil
}

// endFailed journals a failed operation and returns err. An operation whose
// outcome is unknown is not ended: it stays pending, as after a crash, so
// the next refresh can find out what exists. So does one that failed after
// its provider was told to stop it.
func (d *deployment) endFailed(id int64, err error) error {
	if d.isTerminated() {
		return fmt.Errorf("interrupted, so left pending; run `cairn refresh` to find out what exists: %w", err)
	}
	if errors.Is(err, provider.ErrOutcomeUnknown) {
		return err
	}
	if jerr := d.end(snapshot.JournalEntry{Kind: snapshot.EntryFailure, OperationID: id}); jerr != nil {
		return errors.Join(err, jerr)
	}
	return err
}

func (d *deployment) applyUpdate(ctx context.Context, s *step) (stepResult, error) {
	n := s.new.Copy()
	n.ID, n.Created, n.Modified = s.old.ID, s.old.Created, now()
	id, err := d.begin(s, resource.OpUpdating, s.old)
	if err != nil {
		return stepResult{}, err
	}
	var initErr *provider.InitError
	switch {
	case resource.IsProviderType(n.Type):
		inst, err := d.reg.prepared(ctx, n.URN, n.Inputs)
		if err == nil {
			err = d.reg.configure(ctx, inst, n.URN, n.ID, n.Inputs, true)
		}
		if err != nil {
			return stepResult{}, d.endFailed(id, err)
		}
		n.Outputs = n.Inputs
	case n.Custom:
		resp, err := s.prov.Update(ctx, provider.UpdateRequest{URN: n.URN, Name: n.URN.Name(), Type: n.Type, ID: n.ID,
			OldInputs: s.old.Inputs, OldOutputs: s.old.Outputs, News: n.Inputs, Timeout: seconds(n.CustomTimeouts.Update),
			IgnoreChanges: n.IgnoreChanges, Preview: d.opts.DryRun})
		if err != nil && !errors.As(err, &initErr) {
			return stepResult{}, d.endFailed(id, err)
		}
		if initErr != nil {
			resp.Outputs = initErr.Outputs
			n.InitErrors = initErr.Reasons
			n.Inputs = s.old.Inputs // what is known to be applied
		} else {
			n.InitErrors = nil
		}
		n.Outputs = d.secretOutputs(n.Inputs, resp.Outputs, n.AdditionalSecretOutputs)
		d.learnOutputs(n)
	default:
		n.Outputs = s.old.Outputs
	}
	n.Digest = d.recordDigest(s, n)
	if err := d.end(snapshot.JournalEntry{Kind: snapshot.EntrySuccess, OperationID: id, RemoveOld: d.baseIdx(s.old), State: n}); err != nil {
		return stepResult{}, err
	}
	if initErr != nil {
		return stepResult{}, fmt.Errorf("updated with errors, recorded so the next update retries: %w", initErr)
	}
	return stepResult{state: n, opID: id, stables: s.stables}, nil
}

func (d *deployment) applyDelete(ctx context.Context, s *step) error {
	o := s.old
	id, err := d.begin(s, resource.OpDeleting, o)
	if err != nil {
		return err
	}
	if s.callsProvider() && o.Custom && !d.opts.DryRun {
		err := s.prov.Delete(ctx, provider.DeleteRequest{URN: o.URN, Name: o.URN.Name(), Type: o.Type, ID: o.ID,
			Inputs: o.Inputs, Outputs: o.Outputs, Timeout: seconds(o.CustomTimeouts.Delete)})
		if err != nil {
			return d.endFailed(id, err)
		}
	}
	e := snapshot.JournalEntry{Kind: snapshot.EntrySuccess, OperationID: id}
	if s.pendingReplace {
		e.PendingReplacementOld = d.baseIdx(o)
	} else {
		e.RemoveOld = d.baseIdx(o)
	}
	return d.end(e)
}

func (d *deployment) applyRead(ctx context.Context, s *step) (stepResult, error) {
	n := s.new.Copy()
	id, err := d.begin(s, resource.OpReading, n)
	if err != nil {
		return stepResult{}, err
	}
	resp, err := s.prov.Read(ctx, provider.ReadRequest{URN: n.URN, Name: n.URN.Name(), Type: n.Type, ID: n.ID, Inputs: n.Inputs,
		Timeout: seconds(n.CustomTimeouts.Read)})
	if err != nil {
		return stepResult{}, d.endFailed(id, err)
	}
	if resp.ID == "" {
		return stepResult{}, d.endFailed(id, fmt.Errorf("no %s with ID %q exists", n.Type, n.ID))
	}
	n.ID, n.Outputs = resp.ID, d.secretOutputs(n.Inputs, resp.Outputs, n.AdditionalSecretOutputs)
	if s.old != nil {
		n.Created = s.old.Created
	} else {
		n.Created = now()
	}
	if err := d.end(snapshot.JournalEntry{Kind: snapshot.EntrySuccess, OperationID: id, RemoveOld: d.baseIdx(s.old), State: n}); err != nil {
		return stepResult{}, err
	}
	return stepResult{state: n, opID: id}, nil
}

// applyImport reads an existing resource by ID and adopts it: Read, then
// Check the program's inputs against what was read, then Diff; a difference
// fails the import (Pulumi's rule), so that nothing is silently changed.
func (d *deployment) applyImport(ctx context.Context, s *step) (stepResult, error) {
	n := s.new.Copy()
	n.ID = n.ImportID
	id, err := d.begin(s, resource.OpImporting, n)
	if err != nil {
		return stepResult{}, err
	}
	resp, err := s.prov.Read(ctx, provider.ReadRequest{URN: n.URN, Name: n.URN.Name(), Type: n.Type, ID: n.ImportID,
		Timeout: seconds(n.CustomTimeouts.Read)})
	if err != nil {
		return stepResult{}, d.endFailed(id, fmt.Errorf("importing %s: %w", n.ImportID, err))
	}
	if resp.ID == "" {
		return stepResult{}, d.endFailed(id, fmt.Errorf("importing: no %s with ID %q exists", n.Type, n.ImportID))
	}
	n.ID = resp.ID
	n.Created = now()
	n.Outputs = resp.Outputs
	read := resp.Inputs
	if read == nil {
		read = resp.Outputs
	}
	goal := s.inputs
	if d.adoptImports {
		goal = read
	}
	checked, err := d.checkInSlot(ctx, s.prov, n, read, goal)
	if err != nil {
		return stepResult{}, d.endFailed(id, fmt.Errorf("importing: %w", err))
	}
	n.Inputs = checked
	diff, err := s.prov.Diff(ctx, provider.DiffRequest{URN: n.URN, Name: n.URN.Name(), Type: n.Type, ID: n.ID,
		OldInputs: read, OldOutputs: resp.Outputs, News: checked, IgnoreChanges: n.IgnoreChanges})
	if err != nil {
		return stepResult{}, d.endFailed(id, fmt.Errorf("importing: diffing: %w", err))
	}
	if diff.Changes == provider.DiffUnknown {
		_, changed := resource.DiffMaps(read, checked)
		diff.ChangedKeys = changed
		if len(changed) > 0 {
			diff.Changes = provider.DiffSome
		}
	}
	if diff.Changes == provider.DiffSome {
		keys := diff.ChangedKeys
		if len(keys) == 0 {
			keys = topLevelKeys(diff.DetailedDiff)
		}
		return stepResult{}, d.endFailed(id, fmt.Errorf("importing %s: the program's inputs differ from the existing resource in %v; make them match what exists (or leave them out) and import again", n.ImportID, keys))
	}
	n.Outputs = d.secretOutputs(n.Inputs, n.Outputs, n.AdditionalSecretOutputs)
	e := snapshot.JournalEntry{Kind: snapshot.EntrySuccess, OperationID: id, State: n, RemoveOld: d.baseIdx(s.old)}
	if err := d.end(e); err != nil {
		return stepResult{}, err
	}
	return stepResult{state: n, opID: id}, nil
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
