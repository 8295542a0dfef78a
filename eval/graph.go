package eval

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/resource"
)

// graph is the dependency graph of one scope: every node with the references
// of its expressions, resolved, and the nodes it waits for.
type graph struct {
	scope    *Scope
	nodes    []Node // declaration order, duplicates removed
	order    []Node // every node after the nodes it waits for (see cycles)
	byNode   map[Node]*vertex
	children map[*Module]*graph
	defaults map[string]*Resource // default provider by package
}

// vertex is a node of the graph.
type vertex struct {
	node Node
	refs []ref
	// deps are the distinct nodes (and instances) waited for, in order.
	deps []dep
	// provider is the default provider the node uses implicitly, if any.
	provider *Resource
}

// ref is one resolved traversal of a node's expressions.
type ref struct {
	Reference
	traversal hcl.Traversal
}

// dep is something a node waits for: a whole node, or one instance of it
// when the reference indexes it with a constant key, or with a key computed
// from the waiting instance's own count.index or each (web[count.index]).
type dep struct {
	node Node
	key  string // instance key (see InstanceKey); "" waits for the whole node
	// perInstance is the index of a per-instance reference: each instance
	// evaluates it and waits for that instance only.
	perInstance hcl.Expression
	rng         hcl.Range
}

// buildGraph resolves the references of a scope (and of module bodies),
// adds the implicit dependencies on default providers, and reports unknown
// names, duplicate names, misplaced count/each references and cycles.
func buildGraph(s *Scope) (*graph, hcl.Diagnostics) {
	g := &graph{scope: s, byNode: map[Node]*vertex{}, children: map[*Module]*graph{}}
	var diags hcl.Diagnostics
	seen := map[string]Node{}
	for _, n := range s.Nodes {
		d := n.Declaration()
		key := namespace(n) + d.Namespace + "\x00" + d.Name
		if prev, dup := seen[key]; dup {
			pd := prev.Declaration()
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Duplicate name %q", d.Name),
				Detail: fmt.Sprintf("%s is also declared as %s at %s; a name is declared once in a program, so rename one of them.",
					d, pd, RangeString(pd.NameRange)),
				Subject: d.NameRange.Ptr(),
			})
			continue
		}
		seen[key] = n
		g.nodes = append(g.nodes, n)
		g.byNode[n] = &vertex{node: n}
	}
	defaults, ds := defaultProviders(g.nodes)
	g.defaults = defaults
	diags = append(diags, ds...)
	for _, n := range g.nodes {
		diags = append(diags, g.resolve(g.byNode[n], defaults)...)
		if m, ok := n.(*Module); ok && m.Body != nil {
			child, ds := buildGraph(m.Body)
			diags = append(diags, ds...)
			g.children[m] = child
		}
	}
	diags = append(diags, g.cycles()...)
	return g, diags
}

// namespace returns the namespace of a node's name: outputs, checks and
// removed resources cannot be referred to, so their names are apart from the others'.
func namespace(n Node) string {
	switch n.(type) {
	case *Output:
		return "output\x00"
	case *Check:
		return "check\x00"
	case *Removed:
		return "removed\x00"
	}
	return ""
}

// resolve resolves the references of one node.
func (g *graph) resolve(v *vertex, defaults map[string]*Resource) hcl.Diagnostics {
	var diags hcl.Diagnostics
	exp := expansionOf(v.node)
	var pkgs []string
	for _, e := range v.node.Expressions() {
		if e == nil {
			continue
		}
		pkgs = append(pkgs, invokedPackages(e)...)
		inExpansion := exp != nil && (sameExpr(e, exp.Count) || sameExpr(e, exp.ForEach))
		indexes := indexKeys(e)
		for _, t := range e.Variables() {
			r, ds := g.scope.Resolver.Resolve(v.node, t)
			diags = append(diags, ds...)
			if ds.HasErrors() {
				continue
			}
			if d := checkBuiltin(v.node, exp, inExpansion, r, t); d != nil {
				diags = append(diags, d)
				continue
			}
			v.refs = append(v.refs, ref{Reference: r, traversal: t})
			if r.Node == nil {
				continue
			}
			if _, ok := g.byNode[r.Node]; !ok {
				continue // a duplicate, reported already
			}
			if _, isConfig := r.Node.(*Config); isConfig && r.Node == v.node {
				continue // a validation refers to the value it checks
			}
			d := dep{node: r.Node, key: constantKey(t, r.Len), rng: t.SourceRange()}
			if key := indexes[t.SourceRange()]; key != nil && d.key == "" && r.Len == len(t) && !inExpansion && g.instanceOnly(v.node, key) {
				d.perInstance = key
			}
			v.addDep(d)
		}
	}
	if p := implicitProvider(v.node, defaults); p != nil {
		v.provider = p
		v.addDep(dep{node: p, rng: v.node.Declaration().DeclRange})
	}
	for _, pkg := range pkgs {
		if p := defaults[pkg]; p != nil && p != v.node {
			v.addDep(dep{node: p, rng: v.node.Declaration().DeclRange})
		}
	}
	return diags
}

// sameExpr reports whether a and b are the same expression (by pointer:
// expressions that are values hold no references anyway).
func sameExpr(a, b hcl.Expression) bool {
	if a == nil || b == nil {
		return false
	}
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	return va.Kind() == reflect.Pointer && vb.Kind() == reflect.Pointer && va.Type() == vb.Type() && va.Pointer() == vb.Pointer()
}

// whole reports whether the dependency waits for the whole node.
func (d dep) whole() bool { return d.key == "" && d.perInstance == nil }

// addDep adds a dependency unless one that waits for as much is there; a
// dependency on the whole node replaces those on its instances.
func (v *vertex) addDep(d dep) {
	at := len(v.deps)
	out := v.deps[:0]
	for _, e := range v.deps {
		if e.node == d.node {
			samePer := e.perInstance == nil && d.perInstance == nil || sameExpr(e.perInstance, d.perInstance)
			if e.whole() || e.key == d.key && samePer {
				return
			}
			if d.whole() {
				at = min(at, len(out))
				continue
			}
		}
		out = append(out, e)
	}
	v.deps = slices.Insert(out, min(at, len(out)), d)
}

// indexKeys returns the key expressions of the index expressions of e whose
// collection is a plain reference (web[count.index]), by the reference's
// range.
func indexKeys(e hcl.Expression) map[hcl.Range]hcl.Expression {
	se, ok := e.(hclsyntax.Expression)
	if !ok {
		return nil
	}
	out := map[hcl.Range]hcl.Expression{}
	_ = hclsyntax.VisitAll(se, func(n hclsyntax.Node) hcl.Diagnostics {
		if ix, ok := n.(*hclsyntax.IndexExpr); ok {
			if c, ok := ix.Collection.(*hclsyntax.ScopeTraversalExpr); ok {
				out[c.Traversal.SourceRange()] = ix.Key
			}
		}
		return nil
	})
	return out
}

// instanceOnly reports whether an index expression of n depends on nothing
// but the instance (count.index, each.key, each.value), so that each
// instance can compute it before the rest is known.
func (g *graph) instanceOnly(n Node, key hcl.Expression) bool {
	vars := key.Variables()
	for _, t := range vars {
		r, diags := g.scope.Resolver.Resolve(n, t)
		if diags.HasErrors() || r.Builtin != BuiltinCount && r.Builtin != BuiltinEach {
			return false
		}
	}
	return len(vars) > 0
}

// checkBuiltin reports count.index and each.* used where they mean nothing.
func checkBuiltin(n Node, exp *Expansion, inExpansion bool, r Reference, t hcl.Traversal) *hcl.Diagnostic {
	var name, want string
	switch r.Builtin {
	case BuiltinCount:
		name, want = "count", "count"
		if exp != nil && exp.Count != nil && !inExpansion {
			return nil
		}
	case BuiltinEach:
		name, want = "each", "forEach"
		if exp != nil && exp.ForEach != nil && !inExpansion {
			return nil
		}
	default:
		return nil
	}
	detail := fmt.Sprintf("%q names the instance being made, so it can only be used in a declaration with the option %s.", name, want)
	if inExpansion {
		detail = fmt.Sprintf("%q names an instance, so it cannot be used to decide how many instances there are.", name)
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Reference to %q outside an expanded %s", name, n.Declaration().Noun),
		Detail:   detail,
		Subject:  t.SourceRange().Ptr(),
	}
}

// expansionOf returns the node's expansion, or nil if it cannot have one.
func expansionOf(n Node) *Expansion {
	switch n := n.(type) {
	case *Resource:
		return &n.Expansion
	case *Invoke:
		return &n.Expansion
	case *Module:
		return &n.Expansion
	}
	return nil
}

// constantKey returns the instance key of a reference followed by a
// constant index (web[0], web["a"]), or "".
func constantKey(t hcl.Traversal, n int) string {
	if n >= len(t) {
		return ""
	}
	if ix, ok := t[n].(hcl.TraverseIndex); ok {
		return InstanceKey(ix.Key)
	}
	return ""
}

// InstanceKey renders an instance key as instance names write it: 0 for a
// count index, "a" (quoted, with backslashes and quotes escaped) for a
// forEach key. It returns "" for anything else.
func InstanceKey(k cty.Value) string {
	k, _ = k.Unmark()
	if !k.IsKnown() || k.IsNull() {
		return ""
	}
	switch k.Type() {
	case cty.Number:
		if i, acc := k.AsBigFloat().Int64(); acc == 0 && i >= 0 {
			return fmt.Sprint(i)
		}
	case cty.String:
		return quoteKey(k.AsString())
	}
	return ""
}

// quoteKey quotes a forEach key as it appears in instance names.
func quoteKey(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// defaultProviders returns the default provider of each package.
func defaultProviders(nodes []Node) (map[string]*Resource, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	out := map[string]*Resource{}
	for _, n := range nodes {
		r, ok := n.(*Resource)
		if !ok || !r.DefaultProvider {
			continue
		}
		if !resource.IsProviderType(r.Type) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Default provider is not a provider",
				Detail:   fmt.Sprintf("%s has type %s; only provider resources (type pulumi:providers:<package>) can be default providers.", &r.Decl, r.Type),
				Subject:  r.NameRange.Ptr(),
			})
			continue
		}
		pkg := resource.ProviderTypePackage(r.Type)
		if prev, dup := out[pkg]; dup {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("Two default providers for package %s", pkg),
				Detail:   fmt.Sprintf("%s and %s (%s) are both default providers; keep one.", &r.Decl, &prev.Decl, RangeString(prev.NameRange)),
				Subject:  r.NameRange.Ptr(),
			})
			continue
		}
		out[pkg] = r
	}
	return out, diags
}

// implicitProvider returns the default provider a node uses without naming
// a provider.
func implicitProvider(n Node, defaults map[string]*Resource) *Resource {
	var pkg string
	switch n := n.(type) {
	case *Resource:
		if resource.IsProviderType(n.Type) || n.Options.Provider != nil || n.Options.Providers != nil {
			return nil
		}
		pkg = resource.TypePackage(n.Type)
	case *Invoke:
		if n.Options.Provider != nil {
			return nil
		}
		pkg = resource.TypePackage(n.Token)
	default:
		return nil
	}
	return defaults[pkg]
}

// invokedPackages returns the packages of the literal tokens of the invoke
// calls in an expression, and of the provider functions it calls.
func invokedPackages(e hcl.Expression) []string {
	se, ok := e.(hclsyntax.Expression)
	if !ok {
		return nil
	}
	var out []string
	_ = hclsyntax.VisitAll(se, func(n hclsyntax.Node) hcl.Diagnostics {
		if tok, ok := invokeToken(n); ok {
			out = append(out, resource.TypePackage(tok))
		} else if pkg, ok := providerFunctionPackage(n); ok {
			out = append(out, pkg)
		}
		return nil
	})
	return out
}

// providerFunctionPackage returns the package of a call of a provider
// function, provider::<pkg>::<name>(…), which its default provider serves.
func providerFunctionPackage(n hclsyntax.Node) (string, bool) {
	call, ok := n.(*hclsyntax.FunctionCallExpr)
	if !ok {
		return "", false
	}
	rest, ok := strings.CutPrefix(call.Name, "provider::")
	if !ok {
		return "", false
	}
	pkg, _, ok := strings.Cut(rest, "::")
	return pkg, ok
}

// cycles reports each cycle of the graph once, naming the references that
// close it, and orders the nodes (g.order) depth first, each after the
// nodes it waits for.
func (g *graph) cycles() hcl.Diagnostics {
	const (
		white = iota
		grey
		black
	)
	color := map[Node]int{}
	var stack []dep
	var diags hcl.Diagnostics
	var visit func(n Node)
	visit = func(n Node) {
		color[n] = grey
		for _, d := range g.byNode[n].deps {
			switch color[d.node] {
			case white:
				stack = append(stack, dep{node: n, rng: d.rng})
				visit(d.node)
				stack = stack[:len(stack)-1]
			case grey:
				diags = append(diags, cycleDiag(append(stack, dep{node: n, rng: d.rng}), d.node))
			}
		}
		color[n] = black
		g.order = append(g.order, n)
	}
	for _, n := range g.nodes {
		if color[n] == white {
			visit(n)
		}
	}
	return diags
}

// cycleDiag describes the cycle that path closes on start: path holds each
// node of the walk with the range of its reference to the next.
func cycleDiag(path []dep, start Node) *hcl.Diagnostic {
	i := len(path) - 1
	for i > 0 && path[i].node != start {
		i--
	}
	path = path[i:]
	first := path[0].node.Declaration()
	last := path[len(path)-1]
	var b strings.Builder
	for j, step := range path {
		d := step.node.Declaration()
		next := start.Declaration()
		if j+1 < len(path) {
			next = path[j+1].node.Declaration()
		}
		if j > 0 {
			b.WriteString(", which ")
		} else {
			b.WriteString(d.String() + " ")
		}
		if next == d {
			fmt.Fprintf(&b, "refers to itself (%s)", RangeString(step.rng))
		} else {
			fmt.Fprintf(&b, "refers to %s (%s)", next, RangeString(step.rng))
		}
	}
	b.WriteString(". A value cannot depend on itself: remove one of these references.")
	summary := fmt.Sprintf("Cycle between %s and %s", first, last.node.Declaration())
	if len(path) == 1 {
		summary = fmt.Sprintf("%s refers to itself", first)
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  strings.ToUpper(summary[:1]) + summary[1:],
		Detail:   b.String(),
		Subject:  last.rng.Ptr(),
	}
}

// RangeString renders a range's start as file:line:column.
func RangeString(r hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}
