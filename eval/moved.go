package eval

import (
	"context"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
)

// movedAliases returns the aliases that the moves of a resource or module
// give one of its instances: its former names, after the scope's prefix,
// or for a move between modules the former name and parent from the scope
// that declares the move.
func (s *scopeRun) movedAliases(moves []Moved, in *instance) []deploy.Alias {
	var out []deploy.Alias
	for _, m := range moves {
		if m.Key != "" && m.Key != in.name {
			continue
		}
		from := m.From
		if m.Key == "" && !strings.Contains(m.From, "[") && in.key != cty.NilVal {
			from += "[" + in.name + "]"
		}
		if m.Up == 0 && len(m.FromModules) == 0 {
			out = append(out, deploy.Alias{Name: s.prefix + from, Type: m.Type})
			continue
		}
		d := s
		for range m.Up {
			d = d.up
		}
		if len(m.Within) > 0 && s.prefix != d.prefix+strings.Join(m.Within, ".")+"." {
			continue
		}
		parent, prefix, anyParent := d.parent, d.prefix, false
		for _, mod := range m.FromModules {
			anyParent = anyParent || mod.Type == ""
			parent = resource.NewURN(s.r.info.Stack, s.r.info.Project, parent.QualifiedType(), mod.Type, prefix+mod.Name)
			prefix += mod.Name + "."
		}
		if anyParent {
			out = append(out, deploy.Alias{Name: prefix + from, Type: m.Type, AnyParent: true})
			continue
		}
		out = append(out, deploy.Alias{Name: prefix + from, Type: m.Type, Parent: parent, NoParent: parent == ""})
	}
	return out
}

// forget asks the engine to drop a removed resource (or module) from the
// stack without deleting it.
func (s *scopeRun) forget(ctx context.Context, n *Removed) (cty.Value, bool) {
	var err error
	if n.Type == "" {
		err = s.r.info.Monitor.ForgetComponent(ctx, s.parent, s.prefix+n.Name)
	} else {
		err = s.r.info.Monitor.Forget(ctx, resource.NewURN(s.r.info.Stack, s.r.info.Project, s.parent.QualifiedType(), n.Type, s.prefix+n.Name))
	}
	if err != nil {
		s.r.registerFailure(&n.Decl, "forget", err)
		return cty.DynamicVal, false
	}
	return cty.NullVal(cty.DynamicPseudoType), true
}
