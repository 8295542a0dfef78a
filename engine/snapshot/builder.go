package snapshot

import "github.com/cairn-iac/cairn/engine/resource"

// Builder rebuilds a snapshot from a base snapshot and journal entries. The
// engine uses it to keep the current snapshot; backends use it to replay a
// journal left behind by a process that died.
type Builder struct {
	base        []*resource.State
	basePending []resource.Operation
	pendingGone []bool
	pendingAt   map[resource.URN][]int // base pending operations by their resource
	baseGone    []bool
	baseState   []*resource.State // replacement copies of base resources
	added       []*added
	addedByOp   map[int64]*added
	pending     map[int64]resource.Operation
	pendingSeq  []int64
	keepPending func(resource.Operation) bool
	seeds       Seeds
}

type added struct {
	state *resource.State
	gone  bool
}

// NewBuilder starts a builder over base (which it does not modify). Pending
// operations of the base snapshot are kept when keep says so, until an
// entry resolves them: a step that creates, reads, imports or deletes their
// resource, or a refresh of it.
func NewBuilder(base *Snapshot, keep func(resource.Operation) bool) *Builder {
	b := &Builder{addedByOp: map[int64]*added{}, pending: map[int64]resource.Operation{}, keepPending: keep}
	if base != nil {
		b.base = base.Resources
		b.basePending = base.PendingOperations
		b.seeds = base.Seeds
	}
	b.baseGone = make([]bool, len(b.base))
	b.pendingGone = make([]bool, len(b.basePending))
	b.pendingAt = make(map[resource.URN][]int, len(b.basePending))
	for i, op := range b.basePending {
		b.pendingAt[op.Resource.URN] = append(b.pendingAt[op.Resource.URN], i)
	}
	b.baseState = make([]*resource.State, len(b.base))
	return b
}

// KeepPendingCreates keeps only the base snapshot's pending creates, as
// Pulumi does: other kinds are resolved by the operation that follows them.
func KeepPendingCreates(op resource.Operation) bool { return op.Type == resource.OpCreating }

func (b *Builder) baseAt(i int) *resource.State {
	if b.baseState[i] == nil {
		b.baseState[i] = b.base[i].Copy()
	}
	return b.baseState[i]
}

// resolve drops the base snapshot's pending operations on urn: a later
// step created, found or deleted the resource, so what exists is known.
func (b *Builder) resolve(urn resource.URN) {
	for _, i := range b.pendingAt[urn] {
		b.pendingGone[i] = true
	}
}

// resolves reports whether an operation of this kind, once it succeeds,
// settles what exists of its resource: an update does not (a pending create
// of a resource being updated is that of a replacement).
func resolves(t resource.OperationType) bool { return t != resource.OpUpdating }

// Changed returns the current state of base resource i if an entry changed
// it, else nil.
func (b *Builder) Changed(i int) *resource.State { return b.baseState[i] }

// Apply applies one entry.
func (b *Builder) Apply(e JournalEntry) {
	if i := e.ClearPending; i != nil && *i < len(b.pendingGone) {
		b.pendingGone[*i] = true
	}
	switch e.Kind {
	case EntryBegin:
		if e.Operation != nil {
			if _, ok := b.pending[e.OperationID]; !ok {
				b.pendingSeq = append(b.pendingSeq, e.OperationID)
			}
			b.pending[e.OperationID] = *e.Operation
		}
		return
	case EntryOutputs:
		if e.TargetNew != nil {
			if a := b.addedByOp[*e.TargetNew]; a != nil {
				a.state = e.State
			}
		} else if e.RemoveOld != nil && *e.RemoveOld < len(b.base) {
			b.baseState[*e.RemoveOld] = e.State
		}
		return
	case EntryRefresh:
		delete(b.pending, e.OperationID)
		if i := e.RemoveOld; i != nil && *i < len(b.base) {
			b.resolve(b.base[*i].URN)
			if e.State == nil {
				b.baseGone[*i] = true
			} else {
				b.baseState[*i] = e.State
			}
		}
		return
	case EntryFailure:
		delete(b.pending, e.OperationID)
		return
	case EntrySeeds:
		if e.Seeds != nil {
			b.seeds = *e.Seeds
		}
		return
	}
	if op, ok := b.pending[e.OperationID]; ok && resolves(op.Type) {
		b.resolve(op.Resource.URN)
	}
	delete(b.pending, e.OperationID)
	if i := e.RemoveOld; i != nil && *i < len(b.base) {
		b.baseGone[*i] = true
	}
	if i := e.MarkDeleteOld; i != nil && *i < len(b.base) {
		b.baseAt(*i).Delete = true
	}
	if i := e.PendingReplacementOld; i != nil && *i < len(b.base) {
		b.baseAt(*i).PendingReplacement = true
	}
	if op := e.RemoveNew; op != nil {
		if a := b.addedByOp[*op]; a != nil {
			a.gone = true
		}
	}
	if e.State != nil {
		a := &added{state: e.State}
		b.added = append(b.added, a)
		b.addedByOp[e.OperationID] = a
	}
}

// Snapshot returns the snapshot as it stands: added resources in the order
// they were added, then the base resources that remain, in their order, moved
// only where needed so that every resource follows those it refers to.
func (b *Builder) Snapshot() *Snapshot {
	var list []*resource.State
	for _, a := range b.added {
		if !a.gone {
			list = append(list, a.state)
		}
	}
	for i, r := range b.base {
		if b.baseGone[i] {
			continue
		}
		if b.baseState[i] != nil {
			r = b.baseState[i]
		}
		list = append(list, r)
	}
	s := &Snapshot{Resources: stableTopoSort(list), Seeds: b.seeds}
	for i, op := range b.basePending {
		if !b.pendingGone[i] && (b.keepPending == nil || b.keepPending(op)) {
			s.PendingOperations = append(s.PendingOperations, op)
		}
	}
	for _, id := range b.pendingSeq {
		if op, ok := b.pending[id]; ok {
			s.PendingOperations = append(s.PendingOperations, op)
		}
	}
	return s
}

// stableTopoSort orders states so that each follows every state it refers
// to, keeping the given order wherever it already satisfies that.
func stableTopoSort(list []*resource.State) []*resource.State {
	byURN := make(map[resource.URN][]int, len(list))
	for i, r := range list {
		byURN[r.URN] = append(byURN[r.URN], i)
	}
	placed := make([]bool, len(list))
	visiting := make([]bool, len(list))
	out := make([]*resource.State, 0, len(list))
	var place func(i int)
	place = func(i int) {
		if placed[i] || visiting[i] {
			return
		}
		visiting[i] = true
		for _, u := range list[i].References() {
			for _, j := range byURN[u] {
				if j != i {
					place(j)
				}
			}
		}
		visiting[i] = false
		placed[i] = true
		out = append(out, list[i])
	}
	for i := range list {
		place(i)
	}
	return out
}
