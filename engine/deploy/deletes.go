package deploy

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"
	"sync"

	"github.com/cairn-iac/cairn/engine/resource"
)

// deletesAfterProgram lists what an update deletes once its program has
// finished, as Pulumi's engine does: base resources the program no longer
// declares, originals of create-before-delete replacements, and pending
// deletes left by earlier runs.
func (d *deployment) deletesAfterProgram() []*resource.State {
	d.mu.Lock()
	defer d.mu.Unlock()
	cbr := map[*resource.State]bool{}
	for _, o := range d.cbrOlds {
		cbr[o] = true
	}
	var out []*resource.State
	for _, r := range d.base.Resources {
		if cbr[r] || r.Delete {
			out = append(out, r)
			continue
		}
		if _, taken := d.claimed[r.URN]; taken {
			continue
		}
		if d.targets.active() && !d.targets.include(r.URN, r.References()) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// runDeletes deletes resources in reverse dependency order: the list is cut
// into antichains (no resource of one depends on another of the same), run
// one after the other, each in parallel.
func (d *deployment) runDeletes(ctx context.Context, victims []*resource.State) error {
	if len(victims) == 0 {
		return nil
	}
	steps, err := d.deleteSteps(ctx, victims)
	if err != nil {
		return err
	}
	levels := antichains(victims)
	blocked := map[resource.URN]bool{} // must stay: something that depends on them failed
	var errs []string
	for _, level := range levels {
		var wg sync.WaitGroup
		var mu sync.Mutex
		for _, r := range level {
			s := steps[r]
			if blocked[r.URN] && d.opts.ContinueOnError {
				continue
			}
			if d.isCancelled() {
				d.skip(s)
				continue
			}
			if s.logical {
				// The other deletes are halves of replacements, planned as such.
				if err := d.followPlan([]*step{s}); err != nil {
					errs = append(errs, err.Error())
					continue
				}
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				done, err := d.run(ctx, s)
				if err == nil && s.logical {
					d.recordPlanned([]*step{s}, done)
				}
				if err != nil && !errors.Is(err, ErrCancelled) {
					mu.Lock()
					errs = append(errs, err.Error())
					for _, u := range r.References() {
						blocked[u] = true
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if len(errs) > 0 && !d.opts.ContinueOnError {
			return nil // step failures are reported by finish
		}
	}
	return nil
}

// deleteSteps makes the step for each victim, checking protection. Resources
// the stack does not own (external reads, retainOnDelete, or deletedWith a
// resource deleted too) only leave the state; forgotten ones are discarded.
func (d *deployment) deleteSteps(ctx context.Context, victims []*resource.State) (map[*resource.State]*step, error) {
	d.mu.Lock()
	cbr := map[*resource.State]bool{}
	for _, o := range d.cbrOlds {
		cbr[o] = true
	}
	forgotten := maps.Clone(d.forgotten)
	var declared map[string]bool
	if d.opts.ProtectDeclared {
		declared = map[string]bool{}
		for urn := range d.records {
			declared[unkeyed(urn)] = true
		}
	}
	d.mu.Unlock()
	deleting := map[resource.URN]bool{}
	parents := map[resource.URN]resource.URN{}
	for _, r := range victims {
		deleting[r.URN] = true
		parents[r.URN] = r.Parent
	}
	// What is under a forgotten resource is forgotten with it.
	for _, r := range victims {
		for p := r.Parent; p != ""; p = parents[p] {
			if forgotten[p] {
				forgotten[r.URN] = true
				break
			}
		}
	}
	var protected []string
	steps := map[*resource.State]*step{}
	for _, r := range victims {
		s := &step{op: OpDelete, urn: r.URN, old: r, logical: true}
		switch {
		case cbr[r]:
			s.op, s.logical = OpDeleteReplaced, false
		case r.PendingReplacement || d.wasDeletedAhead(r.URN):
			s.op, s.logical = OpRemovePendingReplace, false
		case forgotten[r.URN] && !r.Delete:
			s.op = OpDiscard
		case r.Protect && !r.Delete && (declared == nil || declared[unkeyed(r.URN)]):
			protected = append(protected, string(r.URN))
		}
		if r.Custom && !resource.IsProviderType(r.Type) && s.op != OpRemovePendingReplace && s.op != OpDiscard {
			if r.External || r.RetainOnDelete || (r.DeletedWith != "" && deleting[r.DeletedWith]) {
				s.skipDelete = true
			} else {
				p, err := d.providerFor(ctx, r)
				if err != nil {
					return nil, fmt.Errorf("cannot delete %s: %w", r.URN, err)
				}
				s.prov = p
			}
		}
		steps[r] = s
	}
	if len(protected) > 0 {
		sort.Strings(protected)
		for _, u := range protected {
			d.diag(resource.URN(u), SeverityError, "cannot delete: the resource is protected; run `cairn state unprotect %s` first", u)
		}
		return nil, fmt.Errorf("%d protected resources would be deleted: %s", len(protected), strings.Join(protected, ", "))
	}
	return steps, nil
}

// unkeyed is a resource's type and name without its instance keys, or
// those of the modules it is in (see resource.URN.UnkeyedName).
func unkeyed(urn resource.URN) string { return urn.Type() + "::" + urn.UnkeyedName() }

// antichains groups resources for deletion: a resource comes in a later group
// than every resource of the set that depends on it.
func antichains(victims []*resource.State) [][]*resource.State {
	in := map[resource.URN]bool{}
	for _, r := range victims {
		in[r.URN] = true
	}
	deps := dependents(victims)
	height := map[*resource.State]int{}
	// victims keep the snapshot's dependency order, so dependents come later;
	// walk backwards so each dependent's height is known first.
	maxH := 0
	for i := len(victims) - 1; i >= 0; i-- {
		r := victims[i]
		h := 0
		for _, dep := range deps[r.URN] {
			if dh, ok := height[dep]; ok && dh+1 > h {
				h = dh + 1
			}
		}
		height[r] = h
		if h > maxH {
			maxH = h
		}
	}
	levels := make([][]*resource.State, maxH+1)
	for _, r := range victims {
		levels[height[r]] = append(levels[height[r]], r)
	}
	return levels
}
