package display

import (
	"slices"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
)

// Marks of diff lines.
const (
	markAdd     = '+'
	markDelete  = '-'
	markUpdate  = '~'
	markContext = ' '
)

// change is one property of a resource's diff: the path, what happened to
// it, and its values before and after (either may be missing).
type change struct {
	mark     byte
	path     string
	old, new resource.Value
	hasOld   bool
	hasNew   bool
	replace  bool // the change forces the resource to be replaced
}

// differ computes the property changes of steps.
type differ struct {
	full bool // every property, not only the changed ones (--diff)
}

// changes returns the property lines of a step, ordered by path, without
// the paths the resource hides from diffs nor the provider's internal
// properties (those whose name begins with "__", such as the random seed
// "__seed"). Creates, imports and deletes list
// their inputs; updates, replaces and refreshes their changed properties
// (and, when full, the unchanged ones as context); reads list their inputs
// only when full.
func (d differ) changes(e *deploy.StepEvent) []change {
	var out []change
	hidden := hiddenPaths(e)
	switch e.Op {
	case deploy.OpCreate, deploy.OpCreateReplacement:
		out = listing(markAdd, inputsOf(e.New))
	case deploy.OpImport, deploy.OpImportReplacement:
		out = listing(markContext, inputsOf(e.New))
	case deploy.OpRead, deploy.OpReadReplacement:
		if d.full {
			out = listing(markContext, inputsOf(e.New))
		}
	case deploy.OpDelete, deploy.OpDeleteReplaced, deploy.OpDiscard:
		out = listing(markDelete, inputsOf(e.Old))
	case deploy.OpUpdate, deploy.OpReplace, deploy.OpRefresh:
		out = hide(modified(e), hidden)
		if d.full {
			_, _, news := sides(e)
			out = append(out, unchanged(news, out)...)
		}
	}
	out = slices.DeleteFunc(hide(out, hidden), func(c change) bool { return isInternal(topKey(c.path)) })
	sort.SliceStable(out, func(i, j int) bool { return pathLess(out[i].path, out[j].path) })
	return out
}

// sides returns what a step compares: the old inputs and outputs and the
// new inputs, or for a refresh the old and new outputs.
func sides(e *deploy.StepEvent) (oldIn, oldOut, news resource.Map) {
	oldIn, oldOut, news = inputsOf(e.Old), outputsOf(e.Old), inputsOf(e.New)
	if e.Op == deploy.OpRefresh {
		oldIn, news = oldOut, outputsOf(e.New)
	}
	return oldIn, oldOut, news
}

// modified lists the changed properties of an update, replacement or
// refresh: those of the detailed diff (computed when the provider gave
// none), and the properties forcing a replacement that it lacks.
func modified(e *deploy.StepEvent) []change {
	oldIn, oldOut, news := sides(e)
	detailed := e.DetailedDiff
	if len(detailed) == 0 {
		detailed, _ = resource.DiffMaps(oldIn, news)
	}
	forced := map[string]bool{}
	for _, k := range e.Keys {
		forced[k] = true
	}
	touched := map[string]bool{}
	var out []change
	for _, p := range detailed.SortedPaths() {
		pd := detailed[p]
		olds := oldIn
		if !pd.InputDiff {
			olds = oldOut
		}
		c := change{path: p, replace: pd.Kind.IsReplace() || forced[topKey(p)]}
		c.old, c.hasOld = lookup(olds, p)
		c.new, c.hasNew = lookup(news, p)
		c.mark = markFor(pd.Kind, c.hasOld, c.hasNew)
		touched[topKey(p)] = true
		out = append(out, c)
	}
	for _, k := range e.Keys {
		if !touched[k] {
			touched[k] = true
			c := change{path: k, replace: true}
			c.old, c.hasOld = lookup(oldIn, k)
			c.new, c.hasNew = lookup(news, k)
			c.mark = markFor(resource.DiffUpdateReplace, c.hasOld, c.hasNew)
			out = append(out, c)
		}
	}
	return out
}

// unchanged lists the top-level properties of m that no change touches, as
// context.
func unchanged(m resource.Map, cs []change) []change {
	touched := map[string]bool{}
	for _, c := range cs {
		touched[topKey(c.path)] = true
	}
	var out []change
	for _, c := range listing(markContext, m) {
		if !touched[topKey(c.path)] {
			out = append(out, c)
		}
	}
	return out
}

// markFor returns the mark of a change of kind k, corrected by which values
// exist.
func markFor(k resource.DiffKind, hasOld, hasNew bool) byte {
	switch {
	case !hasOld && hasNew:
		return markAdd
	case hasOld && !hasNew:
		return markDelete
	}
	switch k {
	case resource.DiffAdd, resource.DiffAddReplace:
		return markAdd
	case resource.DiffDelete, resource.DiffDeleteReplace:
		return markDelete
	}
	return markUpdate
}

// listing returns one change a top-level property, every one with mark.
func listing(mark byte, m resource.Map) []change {
	out := make([]change, 0, len(m))
	for _, k := range m.SortedKeys() {
		c := change{mark: mark, path: keyPath(k)}
		if mark == markDelete {
			c.old, c.hasOld = m[k], true
		} else {
			c.new, c.hasNew = m[k], true
		}
		out = append(out, c)
	}
	return out
}

// lookup returns the value at the written path p in m. A value under a
// secret comes back as a secret, so that it stays masked.
func lookup(m resource.Map, p string) (resource.Value, bool) {
	path, err := resource.ParsePath(p)
	if err != nil || m == nil {
		return resource.Null, false
	}
	v := resource.Object(m)
	secret := false
	for _, e := range path {
		v = v.Resolve()
		if v.IsSecret() {
			secret, v = true, v.SecretElement()
		}
		var ok bool
		switch e := e.(type) {
		case int:
			ok = v.IsArray() && e < len(v.ArrayValue())
			if ok {
				v = v.ArrayValue()[e]
			}
		case string:
			if v.IsObject() {
				v, ok = v.ObjectValue()[e]
			}
		}
		if !ok {
			return resource.Null, false
		}
	}
	if secret {
		v = resource.MakeSecret(v)
	}
	return v, true
}

// hiddenPaths returns the parsed hideDiff paths of the step's resource.
func hiddenPaths(e *deploy.StepEvent) []resource.Path {
	var out []resource.Path
	for _, st := range []*resource.State{e.Old, e.New} {
		if st == nil {
			continue
		}
		for _, s := range st.HideDiff {
			if p, err := resource.ParsePath(s); err == nil {
				out = append(out, p)
			}
		}
	}
	return out
}

// hide drops the changes at or under a hidden path and removes hidden
// members from the values of the others.
func hide(cs []change, hidden []resource.Path) []change {
	if len(hidden) == 0 {
		return cs
	}
	out := cs[:0]
	for _, c := range cs {
		p, err := resource.ParsePath(c.path)
		if err != nil {
			out = append(out, c)
			continue
		}
		covered := false
		for _, h := range hidden {
			if h.Covers(p) {
				covered = true
				break
			}
			if len(h) > len(p) && h[:len(p)].Matches(p) {
				c.old = prune(c.old, h[len(p):])
				c.new = prune(c.new, h[len(p):])
			}
		}
		if !covered {
			out = append(out, c)
		}
	}
	return out
}

// prune removes the members of v that the relative path rel matches.
func prune(v resource.Value, rel resource.Path) resource.Value {
	for _, q := range rel.Expand(v) {
		v = q.Delete(v)
	}
	return v
}

// inputsOf returns the inputs of a state, or nil.
func inputsOf(s *resource.State) resource.Map {
	if s == nil {
		return nil
	}
	return s.Inputs
}

// outputsOf returns the outputs of a state, or nil.
func outputsOf(s *resource.State) resource.Map {
	if s == nil {
		return nil
	}
	return s.Outputs
}

// isInternal reports whether a top-level property is a provider's own,
// never shown: its name begins with "__".
func isInternal(key string) bool { return strings.HasPrefix(key, "__") }

// keyPath writes a top-level key as a path.
func keyPath(k string) string { return resource.Path{k}.String() }

// topKey returns the top-level property of a written path.
func topKey(p string) string {
	if path, err := resource.ParsePath(p); err == nil {
		if k, ok := path[0].(string); ok {
			return k
		}
	}
	return p
}

// pathLess orders paths by their top-level property, then as written.
func pathLess(a, b string) bool {
	if ka, kb := topKey(a), topKey(b); ka != kb {
		return ka < kb
	}
	return strings.Compare(a, b) < 0
}
