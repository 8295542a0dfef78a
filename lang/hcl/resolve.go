package hcl

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/eval"
)

// resolver resolves the references of one module (the root module or a
// module's body): var.x, local.x, module.x, data.<type>.<name>,
// ephemeral.<type>.<name>,
// <type>.<name>, provider references <pkg> and <pkg>.<alias>, and the
// builtins count, each, path, pulumi, terraform (terraform.workspace is the
// stack) and self (in postconditions).
type resolver struct {
	where     string // "the root module", "module.site"
	vars      map[string]eval.Node
	locals    map[string]eval.Node
	modules   map[string]eval.Node
	resources map[string]map[string]eval.Node // by type name, then name
	data      map[string]map[string]eval.Node
	ephemeral map[string]map[string]eval.Node
	providers map[string]map[string]eval.Node // by package, then alias ("" for the default)
	paths     map[string]cty.Value            // path.module, path.root, path.cwd
	scoped    map[eval.Node]eval.Node         // the data sources of check blocks, to their checks
	// deprecated are the messages of the module's deprecated outputs, by
	// name, said where a caller refers to them.
	deprecated map[string]string
	outputs    map[string]*eval.Output
	// call is the module call of a module's body, and caller the module
	// that makes it; nil at the root.
	call   *eval.Module
	caller *resolver
}

func newResolver(where string, paths map[string]cty.Value) *resolver {
	return &resolver{where: where, vars: map[string]eval.Node{}, locals: map[string]eval.Node{}, modules: map[string]eval.Node{},
		resources: map[string]map[string]eval.Node{}, data: map[string]map[string]eval.Node{},
		providers: map[string]map[string]eval.Node{}, paths: paths, scoped: map[eval.Node]eval.Node{},
		deprecated: map[string]string{}, outputs: map[string]*eval.Output{}, ephemeral: map[string]map[string]eval.Node{}}
}

// add records a node under its namespace and name; the first of
// duplicates wins (eval reports duplicates).
func add(m map[string]map[string]eval.Node, ns, name string, n eval.Node) {
	if m[ns] == nil {
		m[ns] = map[string]eval.Node{}
	}
	if _, dup := m[ns][name]; !dup {
		m[ns][name] = n
	}
}

func addTo(m map[string]eval.Node, name string, n eval.Node) {
	if _, dup := m[name]; !dup {
		m[name] = n
	}
}

// Resolve implements eval.Resolver.
func (r *resolver) Resolve(from eval.Node, t hcl.Traversal) (eval.Reference, hcl.Diagnostics) {
	root := t.RootName()
	switch root {
	case "var":
		return r.named(t, r.vars, "input variable", func(n string) string {
			return fmt.Sprintf("An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", n, n)
		})
	case "local":
		return r.named(t, r.locals, "local value", func(n string) string {
			return fmt.Sprintf("A local value with the name %q has not been declared.", n)
		})
	case "module":
		ref, diags := r.named(t, r.modules, "module", func(n string) string {
			return fmt.Sprintf("No module call named %q is declared in %s.", n, r.where)
		})
		return ref, append(diags, deprecatedOutput(ref.Node, t)...)
	case "data":
		if len(t) < 3 {
			return invalidRef(t, `A reference to a data source must be followed by at least two attribute accesses: the type and the name, as in data.<type>.<name>.`)
		}
		typ, _ := attrName(t, 1)
		ref, diags := r.resource(t[1:], 3, r.data, "data", fmt.Sprintf("A data resource %%q %%q has not been declared in %s.", r.where), typ)
		if c := r.scoped[ref.Node]; c != nil && c != from {
			return eval.Reference{}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Reference to scoped data source",
				Detail:  fmt.Sprintf("%s is scoped to %s at %s: only that check's assertions can refer to it.", ref.Node.Declaration(), c.Declaration(), c.Declaration().DeclRange),
				Subject: t.SourceRange().Ptr()}}
		}
		return ref, diags
	case "ephemeral":
		if len(t) < 3 {
			return invalidRef(t, `A reference to an ephemeral resource must be followed by at least two attribute accesses: the type and the name, as in ephemeral.<type>.<name>.`)
		}
		typ, _ := attrName(t, 1)
		return r.resource(t[1:], 3, r.ephemeral, "ephemeral", fmt.Sprintf("An ephemeral resource %%q %%q has not been declared in %s.", r.where), typ)
	case "count":
		if a, ok := attrName(t, 1); !ok || a != "index" {
			return invalidRef(t, `The "count" object has one attribute: count.index.`)
		}
		return eval.Reference{Builtin: eval.BuiltinCount, Len: 1}, nil
	case "each":
		if a, ok := attrName(t, 1); !ok || a != "key" && a != "value" {
			return invalidRef(t, `The "each" object has two attributes: each.key and each.value.`)
		}
		return eval.Reference{Builtin: eval.BuiltinEach, Len: 1}, nil
	case "path":
		a, _ := attrName(t, 1)
		v, ok := r.paths[a]
		if !ok {
			return invalidRef(t, `The "path" object has the attributes path.module, path.root and path.cwd.`)
		}
		return eval.Reference{Builtin: eval.BuiltinConstant, Value: v, Len: 2}, nil
	case "pulumi":
		return eval.Reference{Builtin: eval.BuiltinPulumi, Len: 1}, nil
	case "self":
		return eval.Reference{Builtin: eval.BuiltinSelf, Len: 1}, nil
	case "terraform":
		if a, ok := attrName(t, 1); !ok || a != "workspace" {
			return invalidRef(t, `The "terraform" object has one attribute: terraform.workspace, the stack's name.`)
		}
		return eval.Reference{Builtin: eval.BuiltinTerraform, Len: 1}, nil
	}
	if byAlias, ok := r.providers[root]; ok {
		if a, ok := attrName(t, 1); ok && byAlias[a] != nil {
			return eval.Reference{Node: byAlias[a], Len: 2}, nil
		}
		if p := byAlias[""]; p != nil {
			return eval.Reference{Node: p, Len: 1}, nil
		}
	}
	if len(t) < 2 {
		return invalidRef(t, fmt.Sprintf("There is no variable named %q; a reference to a resource type must be followed by the resource's name, as in %s.<name>.", root, root))
	}
	return r.resource(t, 2, r.resources, "managed", fmt.Sprintf("A managed resource %%q %%q has not been declared in %s.", r.where), root)
}

// deprecatedOutput warns of a reference to a module's deprecated output:
// module.<name>.<output>, or module.<name>[<key>].<output>.
func deprecatedOutput(n eval.Node, t hcl.Traversal) hcl.Diagnostics {
	m, _ := n.(*eval.Module)
	if m == nil || m.Body == nil {
		return nil
	}
	body, _ := m.Body.Resolver.(*resolver)
	rest := t[2:]
	if len(rest) > 0 && m.Expansion.Expanded() {
		if _, ok := rest[0].(hcl.TraverseIndex); ok {
			rest = rest[1:]
		}
	}
	out, ok := attrName(rest, 0)
	if body == nil || !ok || body.deprecated[out] == "" {
		return nil
	}
	return hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: fmt.Sprintf("Deprecated output module.%s.%s", m.Name, out),
		Detail: body.deprecated[out], Subject: t.SourceRange().Ptr()}}
}

// named resolves <root>.<name> in one of the namespaces of single names.
func (r *resolver) named(t hcl.Traversal, m map[string]eval.Node, noun string, detail func(string) string) (eval.Reference, hcl.Diagnostics) {
	name, ok := attrName(t, 1)
	if !ok {
		return invalidRef(t, fmt.Sprintf("The %q object cannot be accessed directly; refer to one of its attributes, as in %s.<name>.", t.RootName(), t.RootName()))
	}
	if n := m[name]; n != nil {
		return eval.Reference{Node: n, Len: 2}, nil
	}
	return eval.Reference{}, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Reference to undeclared " + noun,
		Detail:   detail(name) + eval.DidYouMean(name, slices.Sorted(maps.Keys(m))),
		Subject:  t.SourceRange().Ptr(),
	}}
}

// resource resolves <type>.<name> (steps of t from its type) to a resource
// or data source.
func (r *resolver) resource(t hcl.Traversal, n int, m map[string]map[string]eval.Node, kind, detail, typ string) (eval.Reference, hcl.Diagnostics) {
	name, ok := attrName(t, 1)
	if !ok {
		return invalidRef(t, "A reference to a resource type must be followed by the resource's name, as in <type>.<name>.")
	}
	if node := m[typ][name]; node != nil {
		return eval.Reference{Node: node, Len: n}, nil
	}
	var addrs []string
	for ty, byName := range m {
		for nm := range byName {
			addrs = append(addrs, ty+"."+nm)
		}
	}
	hint := eval.DidYouMean(typ+"."+name, addrs)
	if kind != "managed" {
		hint = eval.DidYouMean(kind+"."+typ+"."+name, prefixed(kind+".", addrs))
	}
	return eval.Reference{}, hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Reference to undeclared resource",
		Detail:   fmt.Sprintf(detail, typ, name) + hint,
		Subject:  t.SourceRange().Ptr(),
	}}
}

// attrName returns the name of step at of t when it is an attribute (or
// the root).
func attrName(t hcl.Traversal, at int) (string, bool) {
	if at >= len(t) {
		return "", false
	}
	switch s := t[at].(type) {
	case hcl.TraverseRoot:
		return s.Name, true
	case hcl.TraverseAttr:
		return s.Name, true
	}
	return "", false
}

func invalidRef(t hcl.Traversal, detail string) (eval.Reference, hcl.Diagnostics) {
	return eval.Reference{}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid reference", Detail: detail, Subject: t.SourceRange().Ptr()}}
}

func prefixed(p string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = p + n
	}
	return out
}
