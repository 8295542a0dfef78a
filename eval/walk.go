package eval

import (
	"context"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval/values"
)

// scopeRun is one instance of a scope being evaluated: the program's root,
// or the body of one module instance. Every node runs on its own goroutine
// and waits for the nodes (or instances) it refers to.
type scopeRun struct {
	r       *run
	g       *graph
	parent  resource.URN // the parent of the scope's resources
	prefix  string       // of the names of the scope's resources: "" at the root, "site[0]." in a module
	up      *scopeRun    // the scope of the module instance that holds this one, nil at the root
	configs map[*Config]cty.Value
	funcs   map[string]function.Function
	states  map[Node]*nodeState
	wg      sync.WaitGroup

	// providers are those the module instance passes its body, by
	// package, as the engine passes them to its children.
	providers map[string]string
	// deferReads is set when what the module call's depends_on names
	// has changes: the body's data sources are read during the update.
	deferReads bool
}

// nodeState is the progress of one node. expanded is closed once the
// node's instances are known, done once all of them have finished; the
// fields are written before the channel that publishes them is closed.
type nodeState struct {
	expanded chan struct{}
	done     chan struct{}
	failed   bool
	mode     expansionMode
	order    []*instance
	byKey    map[string]*instance
	// ephemeral marks the instances' collection of an ephemeral
	// resource ephemeral, as each of its instances is.
	ephemeral bool
}

// instance is one instance of a node: the only one, or one per count index
// or forEach key.
type instance struct {
	key    cty.Value // the count index or forEach key; cty.NilVal when single
	each   cty.Value // the forEach value
	name   string    // key as written in instance names: 0, "a"
	done   chan struct{}
	failed bool
	value  cty.Value
	build  func() cty.Value // when set, makes value on first use (see result)
	once   sync.Once
	// changed is set for a resource (not a provider) whose registration
	// changed it (in a preview: would), and for a module instance one of
	// whose resources changed.
	changed bool
}

// result returns the instance's value once it is done.
func (in *instance) result() cty.Value {
	in.once.Do(func() {
		if in.build != nil {
			in.value, in.build = in.build(), nil
		}
	})
	return in.value
}

// changed reports whether an instance of one of the nodes v depends on
// changed (or, in a preview, would change).
func (s *scopeRun) changed(v *vertex) bool {
	for _, d := range v.deps {
		if st := s.states[d.node]; st != nil && st.anyChanged() {
			return true
		}
	}
	return false
}

// dependsOnChanged reports whether a node that the depends_on of v's
// node names has changes.
func (s *scopeRun) dependsOnChanged(v *vertex, dependsOn hcl.Expression) bool {
	if dependsOn == nil {
		return false
	}
	r := dependsOn.Range()
	for _, d := range v.deps {
		if d.rng.Filename == r.Filename && r.ContainsOffset(d.rng.Start.Byte) {
			if st := s.states[d.node]; st != nil && st.anyChanged() {
				return true
			}
		}
	}
	return false
}

// anyChanged reports whether an instance of the node changed; its
// instances are done.
func (st *nodeState) anyChanged() bool {
	for _, in := range st.order {
		if in.changed {
			return true
		}
	}
	return false
}

// expansionMode is how a node's instances make its value.
type expansionMode int

const (
	single   expansionMode = iota // the value of its only instance
	counted                       // a tuple of the instances' values
	keyed                         // an object of the instances' values by key
	unknown                       // not known yet (a preview): unknown
	disabled                      // no instance (Expansion.Enabled is false): null
)

func (r *run) newScopeRun(ctx context.Context, g *graph, parent resource.URN, configs map[*Config]cty.Value) *scopeRun {
	s := &scopeRun{r: r, g: g, parent: parent, configs: configs, states: map[Node]*nodeState{}}
	s.funcs = s.functions(ctx)
	for _, n := range g.nodes {
		inv, _ := n.(*Invoke)
		s.states[n] = &nodeState{expanded: make(chan struct{}), done: make(chan struct{}), ephemeral: inv != nil && inv.Ephemeral}
	}
	return s
}

// nodeWindow is how many nodes of a scope run at once.
const nodeWindow = 4096

// start runs the nodes of the scope in the graph's order on at most
// nodeWindow goroutines, each running one node after another, so that a
// stack of 100,000 resources neither parks 100,000 goroutines nor grows
// that many stacks. The window always moves: the earliest unfinished node
// waits for no unfinished node.
func (s *scopeRun) start(ctx context.Context) {
	next := make(chan Node)
	worker := func(n Node) {
		defer s.wg.Done()
		for ok := true; ok; n, ok = <-next {
			s.runNode(ctx, n)
		}
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(next)
		workers := 0
		for _, n := range s.g.order {
			select {
			case next <- n: // an idle worker takes it
			default:
				if workers == nodeWindow {
					next <- n
					continue
				}
				workers++
				s.wg.Add(1)
				go worker(n)
			}
		}
	}()
}

// wait waits for every node of the scope.
func (s *scopeRun) wait() { s.wg.Wait() }

// runNode waits for what the node refers to, expands it and evaluates each
// instance. A node whose dependency failed fails silently: only the root
// error is reported.
func (s *scopeRun) runNode(ctx context.Context, n Node) {
	st := s.states[n]
	v := s.g.byNode[n]
	defer close(st.done)
	published := false
	defer func() {
		if !published {
			close(st.expanded)
		}
	}()
	for _, d := range v.deps {
		if d.perInstance == nil && !s.await(ctx, d) {
			st.failed = true
			return
		}
	}
	mode, insts, ok := s.expand(v)
	if !ok {
		st.failed = true
		return
	}
	st.mode, st.order, st.byKey = mode, insts, make(map[string]*instance, len(insts))
	for _, in := range insts {
		st.byKey[in.name] = in
	}
	published = true
	close(st.expanded)

	run := func(in *instance) {
		defer close(in.done)
		if !s.awaitInstanceDeps(ctx, v, in) {
			in.failed = true
			return
		}
		val, ok := s.evaluate(ctx, v, in)
		in.value, in.failed = val, !ok
	}
	if len(insts) == 1 {
		run(insts[0]) // no second goroutine: a stack of 100,000 resources has as many nodes
	} else {
		var wg sync.WaitGroup
		for _, in := range insts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				run(in)
			}()
		}
		wg.Wait()
	}
	for _, in := range insts {
		if in.failed {
			st.failed = true
		}
	}
}

// await waits for a dependency and reports whether it succeeded.
func (s *scopeRun) await(ctx context.Context, d dep) bool {
	st := s.states[d.node]
	if d.key != "" {
		select {
		case <-st.expanded:
		case <-ctx.Done():
			return false
		}
		if in, ok := st.byKey[d.key]; ok {
			select {
			case <-in.done:
				return !in.failed
			case <-ctx.Done():
				return false
			}
		}
	}
	select {
	case <-st.done:
		return !st.failed
	case <-ctx.Done():
		return false
	}
}

// awaitInstanceDeps waits for the instances an instance refers to by its
// own key (web[count.index]): the instance with the key it computes, or the
// whole node when the key is not one of its instances.
func (s *scopeRun) awaitInstanceDeps(ctx context.Context, v *vertex, in *instance) bool {
	var ectx *hcl.EvalContext
	for _, d := range v.deps {
		if d.perInstance == nil {
			continue
		}
		if ectx == nil {
			ectx = s.evalContext(v, in)
		}
		k, diags := d.perInstance.Value(ectx)
		if !diags.HasErrors() {
			d.key = InstanceKey(k)
		}
		if !s.await(ctx, d) {
			return false
		}
	}
	return true
}

// current returns the node's value as far as it is known: the instances
// that have not finished are unknown. Consumers read it once the instances
// they refer to have finished.
func (st *nodeState) current() cty.Value {
	select {
	case <-st.expanded:
	default:
		return cty.DynamicVal
	}
	vals := make([]cty.Value, len(st.order))
	for i, in := range st.order {
		vals[i] = cty.DynamicVal
		select {
		case <-in.done:
			if !in.failed {
				vals[i] = in.result()
			}
		default:
		}
	}
	switch st.mode {
	case single:
		if len(vals) == 0 {
			return cty.DynamicVal // failed before it had an instance
		}
		return vals[0]
	case counted:
		if len(vals) == 0 {
			return ephemeralIf(cty.EmptyTupleVal, st.ephemeral)
		}
		return ephemeralIf(cty.TupleVal(vals), st.ephemeral)
	case keyed:
		attrs := make(map[string]cty.Value, len(vals))
		for i, in := range st.order {
			attrs[in.key.AsString()] = vals[i]
		}
		return ephemeralIf(cty.ObjectVal(attrs), st.ephemeral)
	case disabled:
		return cty.NullVal(cty.DynamicPseudoType)
	}
	return cty.DynamicVal
}

// evalContext returns the context an instance's expressions are evaluated
// in: the values of what the node refers to, nested under their names, and
// the scope's functions.
func (s *scopeRun) evalContext(v *vertex, in *instance) *hcl.EvalContext {
	root := varTree{}
	for _, r := range v.refs {
		var val cty.Value
		switch {
		case r.Node != nil && r.Node == v.node:
			val = s.configs[r.Node.(*Config)] // a validation: only configuration values refer to themselves
		case r.Node != nil:
			val = s.states[r.Node].current()
		case r.Builtin == BuiltinPulumi:
			val = s.r.pulumiValue(s.g.scope)
		case r.Builtin == BuiltinCount && in != nil && in.key != cty.NilVal:
			val = cty.ObjectVal(map[string]cty.Value{"index": in.key})
		case r.Builtin == BuiltinEach && in != nil && in.key != cty.NilVal:
			val = cty.ObjectVal(map[string]cty.Value{"key": in.key, "value": in.each})
		case r.Builtin == BuiltinConstant:
			val = r.Value
		case r.Builtin == BuiltinTerraform:
			val = cty.ObjectVal(map[string]cty.Value{"workspace": cty.StringVal(s.r.info.Stack)})
		default:
			continue
		}
		root.set(traversalNames(r.traversal, r.Len), val)
	}
	return &hcl.EvalContext{Variables: root.values(), Functions: s.funcs}
}

// traversalNames returns the names of the first n steps of t.
func traversalNames(t hcl.Traversal, n int) []string {
	names := make([]string, 0, n)
	for _, step := range t[:min(n, len(t))] {
		switch step := step.(type) {
		case hcl.TraverseRoot:
			names = append(names, step.Name)
		case hcl.TraverseAttr:
			names = append(names, step.Name)
		case hcl.TraverseIndex:
			if k, _ := step.Key.Unmark(); k.IsKnown() && k.Type() == cty.String {
				names = append(names, k.AsString())
			}
		}
	}
	return names
}

// varTree builds nested objects of variables.
type varTree map[string]any // a cty.Value or a varTree

func (t varTree) set(names []string, v cty.Value) {
	if len(names) == 0 {
		return
	}
	if len(names) == 1 {
		t[names[0]] = v
		return
	}
	sub, ok := t[names[0]].(varTree)
	if !ok {
		if _, leaf := t[names[0]].(cty.Value); leaf {
			return
		}
		sub = varTree{}
		t[names[0]] = sub
	}
	sub.set(names[1:], v)
}

func (t varTree) values() map[string]cty.Value {
	out := make(map[string]cty.Value, len(t))
	for k, x := range t {
		switch x := x.(type) {
		case cty.Value:
			out[k] = x
		case varTree:
			out[k] = cty.ObjectVal(x.values())
		}
	}
	return out
}

// evaluate evaluates one instance of a node and reports whether it
// succeeded.
func (s *scopeRun) evaluate(ctx context.Context, v *vertex, in *instance) (cty.Value, bool) {
	ectx := s.evalContext(v, in)
	switch n := v.node.(type) {
	case *Config:
		val, ok := s.configs[n]
		return val, ok && s.validate(n, ectx)
	case *Local:
		return s.eval(ectx, n.Value)
	case *Output:
		if !s.conditions(n.Preconditions, ectx, "Output precondition failed") {
			return cty.DynamicVal, false
		}
		val, ok := s.eval(ectx, n.Value)
		if ok && !n.Ephemeral {
			ok = s.refuseEphemeral(val, n.Value.Range(), "Output does not allow ephemeral value",
				"The value is ephemeral, which is never kept; only a module's output declared ephemeral = true may have one (ephemeralasnull(…) makes it null).")
		}
		return ephemeralIf(secretIf(val, n.Secret), n.Ephemeral), ok
	case *Resource:
		return s.resource(ctx, v, n, in, ectx)
	case *Invoke:
		if n.Check != nil {
			return s.scopedRead(ctx, v, n, ectx)
		}
		return s.invokeNode(ctx, v, n, ectx)
	case *Module:
		return s.module(ctx, v, n, in, ectx)
	case *Check:
		return s.check(n, ectx)
	case *Removed:
		return s.forget(ctx, n)
	}
	return cty.DynamicVal, false
}

// eval evaluates an expression, reporting its diagnostics; a nil
// expression is null.
func (s *scopeRun) eval(ectx *hcl.EvalContext, e hcl.Expression) (cty.Value, bool) {
	if e == nil {
		return cty.NullVal(cty.DynamicPseudoType), true
	}
	val, diags := e.Value(ectx)
	s.r.report(diags)
	return val, !diags.HasErrors()
}

// outputs returns the values of the scope's outputs as engine values, once
// the scope has finished, and whether all of them succeeded.
func (s *scopeRun) outputs() (resource.Map, bool) {
	out := resource.Map{}
	ok := true
	for _, n := range s.g.nodes {
		o, isOutput := n.(*Output)
		if !isOutput {
			continue
		}
		st := s.states[n]
		if st.failed {
			ok = false
			continue
		}
		if o.Ephemeral {
			continue // never kept
		}
		ev, _, err := values.ToEngine(st.current())
		if err != nil {
			s.r.report(hcl.Diagnostics{errorDiag(o.NameRange, "Invalid output value", err.Error())})
			ok = false
			continue
		}
		out[o.Name] = ev
	}
	return out, ok
}
