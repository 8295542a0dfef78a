package lsp

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/eval/funcs"
)

// isHCL reports whether the analysis is of an HCL program.
func (a *analysis) isHCL() bool {
	return a.kind == unitHCLProgram || a.kind == unitHCLFolder || a.kind == unitHCLFile
}

// spell returns how the program's language spells schema property names
// (nil: as the schema does).
func (a *analysis) spell() func(string) string {
	if a == nil || a.prog == nil {
		return nil
	}
	return a.prog.Dialect.PropertyName
}

// scopes returns the program's scopes: the root and the bodies of its
// modules.
func (a *analysis) scopes() []*eval.Scope {
	if a == nil || a.prog == nil || a.prog.Root == nil {
		return nil
	}
	var out []*eval.Scope
	var walk func(s *eval.Scope)
	walk = func(s *eval.Scope) {
		out = append(out, s)
		for _, n := range s.Nodes {
			if m, ok := n.(*eval.Module); ok && m.Body != nil {
				walk(m.Body)
			}
		}
	}
	walk(a.prog.Root)
	return out
}

// scopeOf returns the scope whose nodes are declared in the file at path:
// the root, or the body of a module the file is part of.
func (a *analysis) scopeOf(path string) *eval.Scope {
	scopes := a.scopes()
	for _, s := range scopes {
		for _, n := range s.Nodes {
			if a.path(n.Declaration().DeclRange.Filename) == path {
				return s
			}
		}
	}
	if len(scopes) > 0 {
		return scopes[0]
	}
	return nil
}

// refPath returns the steps that name a node in expressions (bucket;
// var.name, random_pet.web, data.random_x.y, module.m), or nil for nodes
// expressions cannot name.
func refPath(n eval.Node) []string {
	d := n.Declaration()
	switch n.(type) {
	case *eval.Output, *eval.Check, *eval.Removed:
		return nil
	}
	if strings.HasPrefix(d.Namespace, "provider.") {
		return nil
	}
	if d.Namespace == "" {
		return []string{d.Name}
	}
	return append(strings.Split(d.Namespace, "."), d.Name)
}

// builtins are the objects every expression may name, with their
// attributes: HCL's path only in HCL.
func (a *analysis) builtins() map[string][]string {
	out := map[string][]string{
		"pulumi": {"cwd", "organization", "project", "rootDirectory", "stack"},
		"count":  {"index"},
		"each":   {"key", "value"},
	}
	if a.isHCL() {
		out["path"] = []string{"cwd", "module", "root"}
	}
	return out
}

// exprCompletion completes the traversal being typed in an expression of
// the file at path: names of the program's nodes, their attributes, the
// builtins and the functions of the library.
func (a *analysis) exprCompletion(path string, ec *exprCursor, edit Range) []CompletionItem {
	scope := a.scopeOf(path)
	if scope == nil {
		return nil
	}
	var items []CompletionItem
	seen := map[string]bool{}
	add := func(it CompletionItem) {
		if !seen[it.Label] {
			seen[it.Label] = true
			it.TextEdit = &TextEdit{Range: edit, NewText: it.Label}
			items = append(items, it)
		}
	}
	steps := ec.steps
	for _, n := range scope.Nodes {
		p := refPath(n)
		switch {
		case p == nil:
		case len(steps) < len(p) && slices.Equal(p[:len(steps)], steps):
			it := CompletionItem{Label: p[len(steps)], Kind: kindModule}
			if len(steps) == len(p)-1 {
				it = a.nodeItem(n, p[len(steps)])
			}
			add(it)
		case len(steps) >= len(p) && slices.Equal(steps[:len(p)], p):
			for _, it := range a.attributes(n, steps[len(p):]) {
				add(it)
			}
		}
	}
	builtins := a.builtins()
	switch {
	case len(steps) == 0:
		for name := range builtins {
			add(CompletionItem{Label: name, Kind: kindKeyword, Detail: "builtin"})
		}
		for name, f := range funcs.Functions(funcs.Options{}) {
			if strings.HasPrefix(name, "core::") {
				continue // the same functions under their short names
			}
			add(CompletionItem{Label: name, Kind: kindFunction, Detail: signature(name, f.Params(), f.VarParam() != nil),
				Documentation: markdown(f.Description())})
		}
	case len(steps) == 1:
		for _, attr := range builtins[steps[0]] {
			add(CompletionItem{Label: attr, Kind: kindField, Detail: steps[0] + "." + attr})
		}
	}
	sort.Slice(items, func(i, j int) bool { return items[i].Label < items[j].Label })
	return items
}

// nodeItem is the completion of a node's name.
func (a *analysis) nodeItem(n eval.Node, label string) CompletionItem {
	it := CompletionItem{Label: label, Kind: kindVariable, Detail: n.Declaration().Noun}
	switch n := n.(type) {
	case *eval.Resource:
		it.Kind, it.Detail = kindClass, n.Type
		if t := a.schemas.resourceType(n.Type); t != nil {
			it.Detail, it.Documentation = t.token, markdown(t.description)
		}
	case *eval.Module:
		it.Kind = kindModule
	case *eval.Config:
		it.Kind = kindConstant
	case *eval.Invoke:
		it.Kind, it.Detail = kindFunction, n.Token
	}
	return it
}

// attributes completes the attributes of a node after the steps given:
// a resource's outputs (and id and urn), a function's results, a module's
// outputs.
func (a *analysis) attributes(n eval.Node, steps []string) []CompletionItem {
	var out []CompletionItem
	switch n := n.(type) {
	case *eval.Resource:
		t := a.schemas.resourceType(n.Type)
		if t == nil {
			return nil
		}
		if len(steps) == 0 {
			out = append(out, CompletionItem{Label: "id", Kind: kindField, Detail: "string"},
				CompletionItem{Label: "urn", Kind: kindField, Detail: "string"})
		}
		out = append(out, a.fieldItems(t, t.outputs, steps)...)
	case *eval.Invoke:
		if t := a.schemas.function(n.Token); t != nil {
			out = a.fieldItems(t, t.outputs, steps)
		}
	case *eval.Module:
		if n.Body != nil && len(steps) == 0 {
			for _, m := range n.Body.Nodes {
				if o, ok := m.(*eval.Output); ok {
					out = append(out, CompletionItem{Label: o.Name, Kind: kindField, Detail: "output of module " + n.Name})
				}
			}
		}
	}
	return out
}

// fieldItems completes the properties of an object reached by steps from
// props.
func (a *analysis) fieldItems(t *typeInfo, props map[string]*schema.Property, steps []string) []CompletionItem {
	fields := properties(props, nil, a.spell())
	if len(steps) > 0 {
		p, _ := lookupProperty(t.pkg, props, nil, steps, a.spell())
		if p == nil {
			return nil
		}
		fields = fieldsOf(t.pkg, p.schema.TypeSpec, a.spell())
	}
	out := make([]CompletionItem, 0, len(fields))
	for _, f := range fields {
		out = append(out, CompletionItem{Label: f.name, Kind: kindField, Detail: typeLabel(t.pkg, f.schema.TypeSpec),
			Documentation: markdown(propertyDoc(t.pkg, f))})
	}
	return out
}

// signature renders a function's parameters.
func signature(name string, params []function.Parameter, variadic bool) string {
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = p.Name
	}
	if variadic {
		names = append(names, "...")
	}
	return name + "(" + strings.Join(names, ", ") + ")"
}

// reference is a traversal of an expression under the cursor.
type reference struct {
	scope     *eval.Scope
	from      eval.Node
	traversal hcl.Traversal
	step      int // the step under the cursor
	target    eval.Reference
}

// referenceAt finds the reference under the byte offset off of the file
// at path.
func (a *analysis) referenceAt(path string, off int) *reference {
	for _, s := range a.scopes() {
		for _, n := range s.Nodes {
			for _, e := range n.Expressions() {
				if e == nil {
					continue
				}
				for _, t := range e.Variables() {
					rng := t.SourceRange()
					if a.path(rng.Filename) != path || !contains(rng, off) {
						continue
					}
					r := &reference{scope: s, from: n, traversal: t}
					for i, step := range t {
						if contains(step.SourceRange(), off) {
							r.step = i
						}
					}
					r.target, _ = s.Resolver.Resolve(n, t)
					return r
				}
			}
		}
	}
	return nil
}

// attrs returns the attribute names of the reference's steps after the
// node it names, up to the one under the cursor; index steps are left out.
func (r *reference) attrs() []string {
	var out []string
	for i := r.target.Len; i <= r.step && i < len(r.traversal); i++ {
		if at, ok := r.traversal[i].(hcl.TraverseAttr); ok {
			out = append(out, at.Name)
		}
	}
	return out
}

// hover describes what a reference names.
func (a *analysis) referenceHover(r *reference) string {
	n := r.target.Node
	if n == nil {
		return builtinDoc(r.target.Builtin)
	}
	attrs := r.attrs()
	if r.step >= r.target.Len && len(attrs) > 0 {
		if doc := a.attributeDoc(n, attrs); doc != "" {
			return doc
		}
	}
	return a.nodeDoc(n)
}

// nodeDoc describes a node.
func (a *analysis) nodeDoc(n eval.Node) string {
	d := n.Declaration()
	doc := d.String()
	switch n := n.(type) {
	case *eval.Resource:
		if t := a.schemas.resourceType(n.Type); t != nil {
			return doc + ": " + typeDoc(t)
		}
		return doc + ": `" + n.Type + "`"
	case *eval.Invoke:
		if t := a.schemas.function(n.Token); t != nil {
			return doc + ": " + typeDoc(t)
		}
	case *eval.Config:
		if n.Type != cty.NilType {
			doc += " `" + n.Type.FriendlyName() + "`"
		}
		if n.Secret {
			doc += " (secret)"
		}
	}
	return doc
}

// attributeDoc describes an attribute of a node: a resource's output or a
// function's result.
func (a *analysis) attributeDoc(n eval.Node, attrs []string) string {
	var t *typeInfo
	switch n := n.(type) {
	case *eval.Resource:
		if len(attrs) == 1 && (attrs[0] == "id" || attrs[0] == "urn") {
			return fmt.Sprintf("**%s** `string`\n\nThe %s of %s.", attrs[0], map[string]string{"id": "provider's ID", "urn": "URN"}[attrs[0]], n.Declaration())
		}
		t = a.schemas.resourceType(n.Type)
	case *eval.Invoke:
		t = a.schemas.function(n.Token)
	}
	if t == nil {
		return ""
	}
	p, _ := lookupProperty(t.pkg, t.outputs, nil, attrs, a.spell())
	if p == nil {
		return ""
	}
	return propertyDoc(t.pkg, *p)
}

// builtinDoc describes a builtin object.
func builtinDoc(b eval.Builtin) string {
	switch b {
	case eval.BuiltinPulumi:
		return "**pulumi**: the run's `cwd`, `organization`, `project`, `rootDirectory` and `stack`."
	case eval.BuiltinCount:
		return "**count.index**: the index of this instance of a resource with count."
	case eval.BuiltinEach:
		return "**each.key** and **each.value**: the key and value of this instance of a resource with forEach."
	case eval.BuiltinConstant:
		return "**path**: `path.module`, `path.root` and `path.cwd`."
	}
	return ""
}

// definition returns where a reference's target is declared: the node, or
// the output of a module it names.
func (a *analysis) definition(r *reference) *hcl.Range {
	n := r.target.Node
	if n == nil {
		return nil
	}
	if m, ok := n.(*eval.Module); ok && m.Body != nil && r.step >= r.target.Len {
		if attrs := r.attrs(); len(attrs) > 0 {
			for _, o := range m.Body.Nodes {
				if o, ok := o.(*eval.Output); ok && o.Name == attrs[0] {
					return &o.NameRange
				}
			}
		}
	}
	rng := n.Declaration().NameRange
	return &rng
}
