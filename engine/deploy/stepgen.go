package deploy

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// generate turns a registration into the chain of steps that brings the
// resource to its goal, as Pulumi's step generator does. A nil chain with no
// error means the resource was not targeted and is not created.
func (d *deployment) generate(ctx context.Context, g *goal) ([]*step, error) {
	urn, new := g.new.URN, g.new
	old, err := d.claimOld(urn, g.aliases)
	if err != nil {
		return nil, err
	}

	deps := goalDeps(new)
	if !d.targets.include(urn, deps) {
		if old == nil {
			d.mu.Lock()
			d.skipped[urn] = true
			d.mu.Unlock()
			return nil, nil
		}
		// Untargeted: keep the resource exactly as recorded.
		return []*step{{op: OpSame, urn: urn, old: old, new: old.Copy(), logical: true, untargeted: true}}, nil
	}
	if err := d.checkSkippedDeps(urn, deps); err != nil {
		return nil, err
	}

	// inst is the provider whose calls the fast path may skip: the
	// resource's, or the one a provider resource's registration prepares.
	var prov provider.Provider
	var inst *instance
	switch {
	case resource.IsProviderType(new.Type):
		if inst, err = d.reg.prepared(ctx, urn, new.Inputs); err != nil {
			return nil, err
		}
	case new.Custom:
		if prov, err = d.providerFor(ctx, new); err != nil {
			return nil, err
		}
		inst, _ = prov.(*instance)
	}

	if old != nil && old.Type != new.Type && prov != nil {
		if old, err = d.move(ctx, old, new, prov); err != nil {
			return nil, err
		}
	}

	var digest []byte // what goes into Check and Diff, when the fast path may take it
	if inst != nil {
		digest, _ = d.goalDigest(ctx, g, inst)
	}

	// Import: adopt an existing resource by ID, unless the stack has it
	// under that ID already (as Terraform's import blocks leave the
	// resources of the state alone).
	if new.ImportID != "" && (old == nil || old.External || old.ImportID != new.ImportID && old.ID != new.ImportID) {
		op := OpImport
		if old != nil {
			op = OpImportReplacement
		}
		return []*step{{op: op, urn: urn, old: old, new: new, prov: prov, logical: true, inputs: new.Inputs}}, nil
	}

	goalInputs := new.Inputs
	if old != nil && len(new.IgnoreChanges) > 0 {
		if !new.Custom {
			d.diag(urn, SeverityDebug, "ignoreChanges has no effect on component resources")
		} else if new.Inputs, err = resource.ApplyIgnoreChanges(old.Inputs, new.Inputs, new.IgnoreChanges); err != nil {
			return nil, err
		}
	}

	deletedAhead := old != nil && (old.PendingReplacement || d.wasDeletedAhead(old.URN))
	if old != nil && !deletedAhead {
		if same := d.fastSame(g, old, prov, digest); same != nil {
			if d.trusts(ctx, inst) {
				if err := d.analyze(ctx, same.new); err != nil {
					return nil, err
				}
				return []*step{same}, nil
			}
			defer d.untrusted.track(inst.pkg, prov == nil)()
		}
	}

	// Check the inputs with the provider.
	if new.Custom {
		var olds resource.Map
		if old != nil && !deletedAhead {
			olds = old.Inputs
		}
		checked, err := d.check(ctx, prov, new, olds, new.Inputs)
		if err != nil {
			return nil, err
		}
		new.Inputs = checked
	}
	if err := d.analyze(ctx, new); err != nil {
		return nil, err
	}

	switch {
	case old == nil:
		return []*step{{op: OpCreate, urn: urn, new: new, prov: prov, logical: true, digest: digest}}, nil
	case deletedAhead:
		// The original was deleted before its replacement (DBR); create it.
		d.markReplaced(urn)
		return []*step{
			{op: OpReplace, urn: urn, old: old, new: new, logical: true},
			{op: OpCreateReplacement, urn: urn, old: old, new: new, prov: prov, removeOld: true, digest: digest},
		}, nil
	}

	diff, err := d.diff(ctx, g, old, new, prov)
	if err != nil {
		return nil, err
	}
	if diff.replace {
		return d.replaceChain(ctx, g, old, new, prov, goalInputs, diff, digest)
	}
	if diff.changes == provider.DiffSome || len(old.InitErrors) > 0 {
		return []*step{{op: OpUpdate, urn: urn, old: old, new: new, prov: prov, logical: true,
			diffs: diff.changed, detailed: diff.detailed, stables: diff.stables, digest: digest}}, nil
	}
	return []*step{{op: OpSame, urn: urn, old: old, new: new, prov: prov, logical: true, stables: diff.stables, digest: digest}}, nil
}

// move converts the state of a resource that an alias of another type
// found into a state of the new type, when the new type's provider can
// (provider.Mover: a Terraform moved block between resource types); the
// moved state then stands for the old one, with the new provider.
func (d *deployment) move(ctx context.Context, old, new *resource.State, prov provider.Provider) (*resource.State, error) {
	m, ok := prov.(provider.Mover)
	if !ok {
		return old, nil
	}
	req := provider.MoveRequest{URN: new.URN, Type: new.Type, SourceType: old.Type, SourceInputs: old.Inputs, SourceOutputs: old.Outputs,
		SourcePackage: provider.ParameterizeRequest{Name: resource.TypePackage(old.Type)}}
	if ref, err := resource.ParseProviderRef(old.Provider); err == nil {
		d.mu.Lock()
		p := d.olds[ref.URN]
		d.mu.Unlock()
		if p != nil {
			param, _, err := parameterization(req.SourcePackage.Name, p.Inputs)
			if err != nil {
				return nil, err
			}
			if param != nil {
				req.SourcePackage = provider.ParameterizeRequest{Name: param.Name, Version: param.Version, Value: param.Value}
			}
		}
	}
	resp, err := m.Move(ctx, req)
	if errors.Is(err, provider.ErrNotImplemented) {
		return old, nil
	}
	if err != nil {
		return nil, fmt.Errorf("moving the state of %s (%s) to type %s: %w", old.URN, old.Type, new.Type, err)
	}
	moved := old.Copy()
	moved.Type, moved.Provider, moved.Inputs, moved.Outputs = new.Type, new.Provider, resp.Inputs, resp.Outputs
	d.mu.Lock()
	d.moved[moved] = old
	d.mu.Unlock()
	return moved, nil
}

// claimOld finds the base state of a resource by URN or alias and claims it,
// so that no two resources take over the same old state.
func (d *deployment) claimOld(urn resource.URN, aliases []resource.URN) (*resource.State, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if by, ok := d.claimed[urn]; ok && by != urn {
		return nil, fmt.Errorf("resource %s is also the alias of %s; two resources cannot claim the same state", urn, by)
	}
	old := d.olds[urn]
	if old == nil {
		for _, a := range aliases {
			o := d.olds[a]
			if o == nil {
				continue
			}
			if by, ok := d.claimed[a]; ok && by != urn {
				return nil, fmt.Errorf("resources %s and %s both alias %s; an old resource can be taken over by only one", by, urn, a)
			}
			if _, registered := d.records[a]; registered && a != urn {
				return nil, fmt.Errorf("resource %s aliases %s, which is also registered in this program", urn, a)
			}
			old = o
			break
		}
	}
	if old != nil {
		d.claimed[old.URN] = urn
	}
	return old, nil
}

// goalDeps lists every URN a goal depends on.
func goalDeps(s *resource.State) []resource.URN {
	return s.References()
}

func (d *deployment) checkSkippedDeps(urn resource.URN, deps []resource.URN) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, dep := range deps {
		if d.skipped[dep] {
			return fmt.Errorf("resource %s depends on %s, which was not created because it is not targeted; add --target %s", urn, dep, dep)
		}
	}
	return nil
}

func (d *deployment) wasDeletedAhead(urn resource.URN) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.dbrDeleted[urn]
}

func (d *deployment) markReplaced(urn resource.URN) {
	d.mu.Lock()
	d.replaced[urn] = true
	d.mu.Unlock()
}

func (d *deployment) wasReplaced(urn resource.URN) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.replaced[urn]
}

// check calls Check (CheckConfig for providers) in a worker slot and turns
// failures into an error naming each property.
func (d *deployment) check(ctx context.Context, prov provider.Provider, new *resource.State, olds, news resource.Map) (resource.Map, error) {
	defer d.plan()()
	return d.checkInSlot(ctx, prov, new, olds, news)
}

// checkInSlot is check for a caller that holds a worker slot.
func (d *deployment) checkInSlot(ctx context.Context, prov provider.Provider, new *resource.State, olds, news resource.Map) (resource.Map, error) {
	seed := func() ([]byte, error) {
		s, err := d.seedFor(new.URN)
		if err != nil {
			return nil, fmt.Errorf("deriving its random seed: %w", err)
		}
		return s, nil
	}
	ctx = context.WithoutCancel(ctx)
	var resp provider.CheckResponse
	var err error
	if resource.IsProviderType(new.Type) {
		resp, err = d.reg.check(ctx, new.URN, olds, news)
	} else {
		resp, err = prov.Check(ctx, provider.CheckRequest{URN: new.URN, Name: new.URN.Name(), Type: new.Type,
			Olds: olds, News: news, Seed: seed})
	}
	if err != nil {
		return nil, fmt.Errorf("checking inputs: %w", err)
	}
	if len(resp.Failures) > 0 {
		return nil, fmt.Errorf("invalid inputs: %s", failureText(resp.Failures))
	}
	if resp.Inputs == nil {
		return news, nil
	}
	return resp.Inputs, nil
}

// diffResult is what the engine concluded about a resource's changes.
type diffResult struct {
	changes  provider.DiffChanges
	replace  bool
	keys     []string // properties forcing the replacement
	changed  []string
	stables  []string
	detailed resource.DetailedDiff
	dbr      bool
}

// diff decides whether a resource is unchanged, updated or replaced, in
// Pulumi's order: forced replacement first, then provider changes and replacement
// triggers, then the provider's Diff (or the engine's own input diff when the
// provider cannot tell), then replaceOnChanges.
func (d *deployment) diff(ctx context.Context, g *goal, old, new *resource.State, prov provider.Provider) (diffResult, error) {
	urn := new.URN
	// A forced replacement keeps the order the program asks for.
	force := func(key string) diffResult {
		dd, changed := resource.DiffMaps(old.Inputs, new.Inputs)
		r := diffResult{changes: provider.DiffSome, replace: true, keys: []string{key}, changed: changed, detailed: dd}
		if g.dbr != nil {
			r.dbr = *g.dbr
		}
		return r
	}
	if d.targets.mustReplace(urn) || old.Taint {
		return force("id"), nil
	}
	if new.Custom && !resource.IsProviderType(new.Type) && old.Provider != new.Provider {
		replace, err := d.providerChangeForcesReplace(ctx, old.Provider, new.Provider)
		if err != nil {
			return diffResult{}, err
		}
		if replace {
			return force("provider"), nil
		}
	}
	if !new.ReplacementTrigger.IsNull() && !old.ReplacementTrigger.IsNull() {
		trigger := new.ReplacementTrigger.Unsecret()
		if trigger.ContainsUnknowns() {
			if !d.opts.DryRun {
				return diffResult{}, fmt.Errorf("replacementTrigger is not known; it must be known when the update runs")
			}
			return force("replacementTrigger"), nil
		}
		if !trigger.Equal(old.ReplacementTrigger.Unsecret()) {
			return force("replacementTrigger"), nil
		}
	}
	for _, u := range new.ReplaceWith {
		if d.wasReplaced(u) {
			return force("replaceWith"), nil
		}
	}
	if new.DeletedWith != "" && d.wasReplaced(new.DeletedWith) {
		return force("deletedWith"), nil
	}

	var resp provider.DiffResponse
	var err error
	switch {
	case resource.IsProviderType(new.Type):
		done := d.plan()
		resp, err = d.reg.diff(context.WithoutCancel(ctx), urn, old, new.Inputs)
		done()
	case new.Custom:
		done := d.plan()
		resp, err = prov.Diff(context.WithoutCancel(ctx), provider.DiffRequest{URN: urn, Name: urn.Name(), Type: new.Type, ID: old.ID,
			OldInputs: old.Inputs, OldOutputs: old.Outputs, News: new.Inputs, IgnoreChanges: new.IgnoreChanges})
		done()
	default:
		resp.Changes = provider.DiffUnknown
	}
	if err != nil {
		return diffResult{}, fmt.Errorf("diffing: %w", err)
	}
	if resp.Changes == provider.DiffUnknown {
		dd, changed := resource.DiffMaps(old.Inputs, new.Inputs)
		resp = provider.DiffResponse{Changes: provider.DiffNone, DeleteBeforeReplace: resp.DeleteBeforeReplace,
			ReplaceKeys: resp.ReplaceKeys, StableKeys: resp.StableKeys}
		if len(changed) > 0 {
			resp.Changes, resp.ChangedKeys, resp.DetailedDiff = provider.DiffSome, changed, dd
		}
	}
	r := diffResult{changes: resp.Changes, keys: resp.ReplaceKeys, changed: resp.ChangedKeys, stables: resp.StableKeys,
		detailed: resp.DetailedDiff, dbr: resp.DeleteBeforeReplace}
	if r.detailed == nil && r.changes == provider.DiffSome {
		r.detailed, _ = resource.DiffMaps(old.Inputs, new.Inputs)
	}
	if len(r.changed) == 0 && len(r.detailed) > 0 {
		r.changed = topLevelKeys(r.detailed)
	}
	if len(r.keys) > 0 && r.changes == provider.DiffSome {
		r.replace = true
	}
	for p, pd := range r.detailed {
		if pd.Kind.IsReplace() {
			r.replace = true
			r.keys = appendUnique(r.keys, topLevel(p))
		}
	}
	if err := d.applyReplaceOnChanges(&r, new.ReplaceOnChanges); err != nil {
		return diffResult{}, err
	}
	if g.dbr != nil {
		r.dbr = *g.dbr
	}
	return r, nil
}

// providerChangeForcesReplace decides whether moving a resource from one
// provider to another forces its replacement: always, unless both are
// default providers of the package and the new one's DiffConfig says it can
// manage what the old one made.
func (d *deployment) providerChangeForcesReplace(ctx context.Context, oldRef, newRef string) (bool, error) {
	if !isDefaultProvider(oldRef) || !isDefaultProvider(newRef) {
		return true, nil
	}
	oldPR, _ := resource.ParseProviderRef(oldRef)
	newPR, _ := resource.ParseProviderRef(newRef)
	if oldPR.Package() != newPR.Package() {
		return true, nil
	}
	oldState := d.reg.oldState[oldRef]
	if oldState == nil {
		return true, nil
	}
	inst, err := d.reg.instanceFor(ctx, newRef)
	if err != nil {
		return false, err
	}
	oldCfg, _ := splitInputs(oldState.Inputs)
	newCfg, _ := splitInputs(inst.configInputs())
	done := d.plan()
	resp, err := inst.DiffConfig(context.WithoutCancel(ctx), provider.DiffRequest{URN: newPR.URN, ID: newPR.ID,
		OldInputs: oldCfg, OldOutputs: oldCfg, News: newCfg})
	done()
	if err != nil {
		return false, fmt.Errorf("diffing provider configuration: %w", err)
	}
	if len(resp.ReplaceKeys) > 0 {
		return true, nil
	}
	for _, pd := range resp.DetailedDiff {
		if pd.Kind.IsReplace() {
			return true, nil
		}
	}
	return false, nil
}

// applyReplaceOnChanges turns changes under the listed paths into replacements.
func (d *deployment) applyReplaceOnChanges(r *diffResult, paths []string) error {
	if len(paths) == 0 || r.changes != provider.DiffSome {
		return nil
	}
	for _, s := range paths {
		p, err := resource.ParsePath(s)
		if err != nil {
			return fmt.Errorf("replaceOnChanges: %w", err)
		}
		for cp, pd := range r.detailed {
			q, err := resource.ParsePath(cp)
			if err != nil {
				continue
			}
			if p.Covers(q) || q.Covers(p) {
				pd.Kind = pd.Kind.AsReplace()
				r.detailed[cp] = pd
				r.replace = true
				r.keys = appendUnique(r.keys, topLevel(cp))
			}
		}
		for _, k := range r.changed {
			if p.Covers(resource.Path{k}) || (len(p) > 0 && p[0] == k) || (len(p) > 0 && p[0] == resource.Wildcard) {
				r.replace = true
				r.keys = appendUnique(r.keys, k)
			}
		}
	}
	return nil
}

// replaceChain builds the steps of a replacement: create-before-delete by
// default, delete-before-create (with the dependents that must go first) when
// the provider or the program asks for it.
func (d *deployment) replaceChain(ctx context.Context, g *goal, old, new *resource.State, prov provider.Provider,
	goalInputs resource.Map, diff diffResult, digest []byte) ([]*step, error) {
	urn := new.URN
	if old.Protect && new.Protect {
		return nil, fmt.Errorf("it must be replaced (because of %s) but it is protected; remove the protect option (lifecycle prevent_destroy in Terraform), run the update, and try again", strings.Join(diff.keys, ", "))
	}
	if new.ImportID != "" && !d.opts.DryRun {
		return nil, fmt.Errorf("it must be replaced (because of %s) but it declares import ID %q; remove the import option to allow the replacement", strings.Join(diff.keys, ", "), new.ImportID)
	}
	if new.Custom {
		// Check again without the old inputs, so the replacement does not
		// reuse values generated for the original, as in Pulumi.
		checked, err := d.check(ctx, prov, new, nil, goalInputs)
		if err != nil {
			return nil, err
		}
		new.Inputs = checked
	}
	d.markReplaced(urn)
	replace := &step{op: OpReplace, urn: urn, old: old, new: new, logical: true,
		keys: diff.keys, diffs: diff.changed, detailed: diff.detailed}
	if !diff.dbr {
		return []*step{
			{op: OpCreateReplacement, urn: urn, old: old, new: new, prov: prov, keys: diff.keys, diffs: diff.changed, detailed: diff.detailed, markOldDelete: true, digest: digest},
			replace,
		}, nil
	}
	dependents, err := d.dependentReplacements(ctx, old)
	if err != nil {
		return nil, err
	}
	var chain []*step
	for _, dep := range dependents {
		dp, err := d.providerFor(ctx, dep)
		if err != nil {
			return nil, err
		}
		chain = append(chain, &step{op: OpDeleteReplaced, urn: dep.URN, old: dep, prov: dp, pendingReplace: true})
	}
	chain = append(chain,
		&step{op: OpDeleteReplaced, urn: urn, old: old, prov: prov, pendingReplace: true},
		replace,
		&step{op: OpCreateReplacement, urn: urn, old: old, new: new, prov: prov, keys: diff.keys, diffs: diff.changed, detailed: diff.detailed, removeOld: true, digest: digest},
	)
	return chain, nil
}

// transitiveDependents returns the base resources that refer to root,
// directly or through one another, in base order: the only ones a
// replacement of root can force to be replaced too.
func (d *deployment) transitiveDependents(root *resource.State) []*resource.State {
	deps := d.baseDependents()
	seen := map[*resource.State]bool{}
	var out []*resource.State
	for queue := []resource.URN{root.URN}; len(queue) > 0; queue = queue[1:] {
		for _, r := range deps[queue[0]] {
			if !seen[r] {
				seen[r] = true
				out = append(out, r)
				queue = append(queue, r.URN)
			}
		}
	}
	slices.SortFunc(out, func(a, b *resource.State) int { return cmp.Compare(d.baseIndex[a], d.baseIndex[b]) })
	return out
}

// dependentReplacements computes the resources that must be deleted before
// root is deleted for a delete-before-replace (Pulumi's dependent
// replacements): the transitive dependents of root in the base snapshot,
// keeping only those whose inputs from a replaced resource force their own
// replacement, as the provider's Diff says when those inputs are unknown. The
// result is in reverse topological order.
func (d *deployment) dependentReplacements(ctx context.Context, root *resource.State) ([]*resource.State, error) {
	replacing := map[resource.URN]bool{root.URN: true}
	var out []*resource.State
	start := d.baseIndex[root]
	for _, r := range d.transitiveDependents(root) {
		if d.baseIndex[r] <= start || r.Delete || !r.Custom || resource.IsProviderType(r.Type) {
			continue
		}
		d.mu.Lock()
		_, registered := d.records[r.URN]
		d.mu.Unlock()
		if registered {
			continue
		}
		replace := false
		if pr, err := resource.ParseProviderRef(r.Provider); err == nil && replacing[pr.URN] {
			replace = true
		} else {
			var keys []string
			for _, k := range slices.Sorted(maps.Keys(r.PropertyDependencies)) {
				for _, u := range r.PropertyDependencies[k] {
					if replacing[u] {
						keys = append(keys, k)
						break
					}
				}
			}
			if len(keys) == 0 {
				continue
			}
			news := r.Inputs.Copy()
			for _, k := range keys {
				news[k] = resource.Unknown()
			}
			p, err := d.providerFor(ctx, r)
			if err != nil {
				return nil, err
			}
			done := d.plan()
			resp, err := p.Diff(context.WithoutCancel(ctx), provider.DiffRequest{URN: r.URN, Name: r.URN.Name(), Type: r.Type, ID: r.ID,
				OldInputs: r.Inputs, OldOutputs: r.Outputs, News: news, IgnoreChanges: r.IgnoreChanges})
			done()
			if err != nil {
				return nil, fmt.Errorf("diffing dependent %s: %w", r.URN, err)
			}
			replace = len(resp.ReplaceKeys) > 0
			for _, pd := range resp.DetailedDiff {
				replace = replace || pd.Kind.IsReplace()
			}
		}
		if !replace {
			continue
		}
		if r.Protect {
			return nil, fmt.Errorf("dependent %s must be replaced too, but it is protected", r.URN)
		}
		replacing[r.URN] = true
		out = append(out, r)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	d.mu.Lock()
	for _, r := range out {
		d.dbrDeleted[r.URN] = true
	}
	d.mu.Unlock()
	return out, nil
}

func topLevel(path string) string {
	p, err := resource.ParsePath(path)
	if err != nil || len(p) == 0 {
		return path
	}
	if s, ok := p[0].(string); ok {
		return s
	}
	return path
}

func topLevelKeys(dd resource.DetailedDiff) []string {
	var out []string
	for p := range dd {
		out = appendUnique(out, topLevel(p))
	}
	sort.Strings(out)
	return out
}

func appendUnique(xs []string, x string) []string {
	for _, e := range xs {
		if e == x {
			return xs
		}
	}
	return append(xs, x)
}
