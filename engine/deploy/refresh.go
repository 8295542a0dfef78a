package deploy

import (
	"context"
	"fmt"
	"sync"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// Refresh reads every managed resource from its provider and records what
// exists: changed outputs are updated, resources that are gone are removed
// (and references to them dropped). Pending creates left by an interrupted
// run are kept, cleared (ClearPendingCreates) or imported by ID
// (ImportPendingCreates).
func Refresh(ctx context.Context, opts Options, base *snapshot.Snapshot) (*Result, error) {
	d, err := newDeployment(&opts, base, snapshot.KeepPendingCreates)
	if err != nil {
		return nil, err
	}
	return d.do(ctx, d.refresh)
}

func (d *deployment) refresh(ctx context.Context) error {
	if err := d.resolvePendingCreates(ctx); err != nil {
		return err
	}
	gone := map[resource.URN]bool{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, r := range d.base.Resources {
		if !r.Custom || resource.IsProviderType(r.Type) || r.PendingReplacement {
			continue
		}
		if d.targets.active() && !d.targets.include(r.URN, r.References()) {
			continue
		}
		p, err := d.providerFor(ctx, r)
		if err != nil {
			d.fail(r.URN, OpRefresh, err)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if d.refreshOne(ctx, r, p) {
				mu.Lock()
				gone[r.URN] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return d.dropReferences(gone)
}

// refreshOne reads one resource and records the result; it reports whether
// the resource no longer exists.
func (d *deployment) refreshOne(ctx context.Context, r *resource.State, p provider.Provider) bool {
	s := &step{op: OpRefresh, urn: r.URN, old: r, prov: p, logical: true}
	d.acquire()
	if d.isCancelled() {
		d.release()
		d.skip(s)
		return false
	}
	d.emitStep(StepStarted, s, nil, 0)
	resp, err := p.Read(context.WithoutCancel(ctx), provider.ReadRequest{URN: r.URN, Name: r.URN.Name(), Type: r.Type, ID: r.ID,
		Inputs: r.Inputs, Outputs: r.Outputs, Timeout: seconds(r.CustomTimeouts.Read)})
	d.release()
	if err != nil {
		err = fmt.Errorf("refreshing: %w", err)
		d.emitStep(StepFailed, s, err, 0)
		d.fail(r.URN, OpRefresh, err)
		return false
	}
	e := snapshot.JournalEntry{Kind: snapshot.EntryRefresh, OperationID: d.journal.newOperationID(), RemoveOld: d.baseIdx(r)}
	outcome := OpSame
	if resp.ID == "" {
		outcome = OpDelete
	} else {
		n := r.Copy()
		n.ID = resp.ID
		n.Outputs = d.secretOutputs(r.Inputs, resp.Outputs, r.AdditionalSecretOutputs)
		if resp.Inputs != nil {
			n.Inputs = resp.Inputs
		}
		s.new = n
		e.State = n
		s.detailed, s.diffs = resource.DiffMaps(r.Outputs, n.Outputs)
		if len(s.diffs) > 0 {
			outcome = OpUpdate
			n.Modified = now()
		}
	}
	if err := d.end(e); err != nil {
		d.fail(r.URN, OpRefresh, err)
		return false
	}
	d.count(outcome)
	s.outcome = outcome
	d.emitStep(StepDone, s, nil, 0)
	return resp.ID == ""
}

// dropReferences rewrites the resources that referred to resources a refresh
// found gone: dependencies are dropped and children move to the grandparent.
func (d *deployment) dropReferences(gone map[resource.URN]bool) error {
	if len(gone) == 0 {
		return nil
	}
	parentOf := map[resource.URN]resource.URN{}
	for _, r := range d.base.Resources {
		if gone[r.URN] {
			parentOf[r.URN] = r.Parent
		}
	}
	for _, r := range d.base.Resources {
		if gone[r.URN] {
			continue
		}
		changed := false
		n := r.Copy()
		for gone[n.Parent] {
			n.Parent, changed = parentOf[n.Parent], true
		}
		keep := n.Dependencies[:0]
		for _, u := range n.Dependencies {
			if gone[u] {
				changed = true
				continue
			}
			keep = append(keep, u)
		}
		n.Dependencies = keep
		for k, us := range n.PropertyDependencies {
			kept := us[:0]
			for _, u := range us {
				if gone[u] {
					changed = true
					continue
				}
				kept = append(kept, u)
			}
			n.PropertyDependencies[k] = kept
		}
		if gone[n.DeletedWith] {
			n.DeletedWith, changed = "", true
		}
		if !changed {
			continue
		}
		// Refreshed resources were replaced in place; rewrite what stands now.
		if err := d.end(snapshot.JournalEntry{Kind: snapshot.EntryOutputs, OperationID: d.journal.newOperationID(), RemoveOld: d.baseIdx(r), State: d.current(r, n)}); err != nil {
			return err
		}
	}
	return nil
}

// current returns rewritten, applied to the latest state the journal holds
// for base resource r.
func (d *deployment) current(r, rewritten *resource.State) *resource.State {
	d.journal.mu.Lock()
	defer d.journal.mu.Unlock()
	i := d.baseIndex[r]
	latest := d.journal.builder.Changed(i)
	if latest == nil {
		return rewritten
	}
	n := latest.Copy()
	n.Parent, n.Dependencies, n.PropertyDependencies, n.DeletedWith =
		rewritten.Parent, rewritten.Dependencies, rewritten.PropertyDependencies, rewritten.DeletedWith
	return n
}

// resolvePendingCreates adopts resources whose creation was interrupted, by
// the IDs the user found for them, and clears the others when asked to.
func (d *deployment) resolvePendingCreates(ctx context.Context) error {
	for i, op := range d.base.PendingOperations {
		if op.Type != resource.OpCreating {
			continue
		}
		id, ok := d.opts.ImportPendingCreates[op.Resource.URN]
		if !ok {
			if d.opts.ClearPendingCreates {
				d.diag(op.Resource.URN, SeverityInfo, "cleared the pending create of %s", op.Resource.URN)
				if err := d.end(snapshot.JournalEntry{Kind: snapshot.EntrySuccess, OperationID: d.journal.newOperationID(), ClearPending: intp(i)}); err != nil {
					return err
				}
			}
			continue
		}
		r := op.Resource.Copy()
		r.ID = id
		p, err := d.providerFor(ctx, r)
		if err != nil {
			return d.fail(r.URN, OpImport, err)
		}
		s := &step{op: OpImport, urn: r.URN, new: r, prov: p, logical: true}
		d.emitStep(StepStarted, s, nil, 0)
		d.acquire()
		resp, err := p.Read(context.WithoutCancel(ctx), provider.ReadRequest{URN: r.URN, Name: r.URN.Name(), Type: r.Type, ID: id, Inputs: r.Inputs})
		d.release()
		if err == nil && resp.ID == "" {
			err = fmt.Errorf("no %s with ID %q exists", r.Type, id)
		}
		if err != nil {
			d.emitStep(StepFailed, s, err, 0)
			return d.fail(r.URN, OpImport, fmt.Errorf("importing pending create: %w", err))
		}
		r.ID, r.Outputs, r.Created = resp.ID, d.secretOutputs(r.Inputs, resp.Outputs, r.AdditionalSecretOutputs), now()
		if resp.Inputs != nil {
			r.Inputs = resp.Inputs
		}
		if err := d.end(snapshot.JournalEntry{Kind: snapshot.EntrySuccess, OperationID: d.journal.newOperationID(), State: r, ClearPending: intp(i)}); err != nil {
			return err
		}
		d.count(OpImport)
		d.emitStep(StepDone, s, nil, 0)
	}
	return nil
}
