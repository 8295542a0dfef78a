package eval

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
)

// typeInfo is what the checker learned from the schemas: the canonical
// token and schema of every resource, and the canonical tokens of invoked
// functions.
type typeInfo struct {
	resources map[*Resource]*resourceType
	functions map[string]*functionType // by token as written
}

// resourceType is a resource's type as resolved through its schema.
type resourceType struct {
	token     string
	schema    *schema.Resource // nil when unknown
	component bool             // a component its provider constructs
	names     speller
	// writeOnly holds the write-only inputs of a Terraform provider's
	// resource type (see resourceType.writeOnly).
	writeOnly map[string]bool
}

// functionType is a provider function as resolved through its schema.
type functionType struct {
	token  string // canonical
	schema *schema.Function
	names  speller
}

// resolved returns the type of r (its token as written when unresolved).
func (t *typeInfo) resolved(r *Resource) *resourceType {
	if t != nil {
		if rt := t.resources[r]; rt != nil {
			return rt
		}
	}
	return &resourceType{token: r.Type}
}

// function returns the canonical token of an invoked function.
func (t *typeInfo) function(tok string) string {
	if t != nil {
		if f, ok := t.functions[tok]; ok {
			return f.token
		}
	}
	return tok
}

// result returns the result of a function with its properties spelled the
// language's way.
func (t *typeInfo) result(tok string, ret resource.Map) resource.Map {
	if t != nil {
		if f, ok := t.functions[tok]; ok && f.schema.Outputs != nil {
			return f.names.object(ret, f.schema.Outputs.Properties)
		}
	}
	return ret
}

// marksPaths reports whether the provider of a function marks the secrets
// of its result itself, path by path, as a Terraform provider marks those
// of a data source: its result does not take the marks of its arguments.
func (t *typeInfo) marksPaths(tok string) bool {
	if t != nil {
		if f, ok := t.functions[tok]; ok {
			return f.names.terraform
		}
	}
	return false
}

// checker checks a program against the schemas of its packages.
type checker struct {
	ctx   context.Context
	prog  *Program
	info  *typeInfo
	pkgs  map[string]*schema.Package
	diags hcl.Diagnostics
}

// checkTypes resolves the type tokens of every resource and invoke and
// checks properties, arguments and property accesses against the schemas.
func checkTypes(ctx context.Context, p *Program, g *graph, diags hcl.Diagnostics) (*typeInfo, hcl.Diagnostics) {
	c := &checker{ctx: ctx, prog: p, pkgs: map[string]*schema.Package{},
		info: &typeInfo{resources: map[*Resource]*resourceType{}, functions: map[string]*functionType{}}}
	c.scope(g)
	c.accesses(g)
	return c.info, append(diags, c.diags...)
}

func (c *checker) report(d *hcl.Diagnostic) { c.diags = append(c.diags, d) }

// pkg returns the schema of a package at a version ("" for any), installed
// from url when missing, or nil when there is none.
func (c *checker) pkg(name, version, url string, at hcl.Range) *schema.Package {
	if c.prog.Schemas == nil {
		return nil
	}
	key := name + "@" + version + "|" + url
	if p, ok := c.pkgs[key]; ok {
		return p
	}
	p, err := SchemaFrom(c.ctx, c.prog.Schemas, name, version, url)
	c.pkgs[key] = p
	if err != nil {
		c.report(&hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: fmt.Sprintf("No schema for package %s", name),
			Detail: fmt.Sprintf("Its types are not checked and short type tokens are not resolved: %v.", err), Subject: at.Ptr()})
	}
	return p
}

// schemaOf names the package whose schema has r's type, at the version
// and from the URL r's options give (computed ones: any, none).
func schemaOf(r *Resource) (name, version, url string) {
	version, _ = literalString(r.Options.Version)
	url, _ = literalString(r.Options.PluginDownloadURL)
	if resource.IsProviderType(r.Type) {
		return resource.ProviderTypePackage(r.Type), version, url
	}
	return resource.TypePackage(r.Type), version, url
}

// prefetch starts loading the schemas of the packages of the root scope's
// resources, so that their plugins start while the graph is built.
func (p *Program) prefetch(ctx context.Context) {
	if p.Schemas == nil {
		return
	}
	seen := map[[3]string]bool{}
	for _, n := range p.Root.Nodes {
		r, ok := n.(*Resource)
		if !ok || r.Type == "" {
			continue
		}
		name, version, url := schemaOf(r)
		if k := [3]string{name, version, url}; !seen[k] {
			seen[k] = true
			go SchemaFrom(ctx, p.Schemas, name, version, url) // the checker asks again, and reports errors
		}
	}
}

// scope checks the nodes of a scope and of its modules' bodies.
func (c *checker) scope(g *graph) {
	for _, n := range g.nodes {
		switch n := n.(type) {
		case *Resource:
			c.resource(n)
		case *Invoke:
			c.function(n.Token, n.TokenRange, n.Args)
		}
		for _, e := range n.Expressions() {
			c.invokeCalls(e)
		}
	}
	for _, child := range g.children {
		c.scope(child)
	}
}

// resource resolves a resource's type and checks its properties and
// stray options.
func (c *checker) resource(r *Resource) {
	rt := &resourceType{token: r.Type}
	c.info.resources[r] = rt
	if r.Type == "" {
		return // reported by the front end
	}
	name, version, url := schemaOf(r)
	pkg := c.pkg(name, version, url, r.TypeRange)
	switch {
	case resource.IsProviderType(r.Type):
		if pkg != nil {
			rt.schema = pkg.Provider
		}
	default:
		if pkg == nil {
			break
		}
		tok, res, ok := pkg.ResolveType(r.Type)
		if !ok {
			c.report(errorDiag(r.TypeRange, fmt.Sprintf("Unknown resource type %s", r.Type),
				fmt.Sprintf("Package %s has no resource type %s.%s", pkg.Name, r.Type, DidYouMean(r.Type, shortTokens(pkg.ResourceTokens())))))
			return
		}
		rt.token, rt.schema, rt.component = tok, res, res.IsComponent
		for name, p := range res.InputProperties {
			if tf := schema.TerraformOf(p.Language); tf != nil && tf.WriteOnly {
				if rt.writeOnly == nil {
					rt.writeOnly = map[string]bool{}
				}
				rt.writeOnly[name] = true
			}
		}
	}
	rt.names = newSpeller(pkg, c.prog.Dialect.PropertyName)
	c.strayOptions(r, rt)
	if rt.schema != nil && !resource.IsProviderType(r.Type) {
		c.properties(r.Properties, rt.token, "Property", rt.schema.InputProperties, rt.schema.RequiredInputs, pkg, r.NameRange)
	}
}

// strayOptions reports keys written among the options that are not
// options, as properties to move when the schema has them.
func (c *checker) strayOptions(r *Resource, rt *resourceType) {
	d := c.prog.Dialect
	for _, k := range r.StrayOptions {
		if rt.schema != nil && rt.schema.InputProperties[k.Name] != nil {
			c.report(errorDiag(k.Range, fmt.Sprintf("%s is not a resource option", k.Name),
				fmt.Sprintf("%s is a property of '%s'; move it under %s.", k.Name, rt.token, d.PropertiesBlock)))
			continue
		}
		c.report(errorDiag(k.Range, fmt.Sprintf("Unknown resource option %s", k.Name),
			fmt.Sprintf("The resource options are: %s.%s", strings.Join(d.OptionNames, ", "), DidYouMean(k.Name, d.OptionNames))))
	}
}

// properties checks an object constructor against the properties of a
// resource or function: unknown keys, missing required keys, and the types
// of literal values.
func (c *checker) properties(e hcl.Expression, token, noun string, props map[string]*schema.Property, required []string, pkg *schema.Package, at hcl.Range) {
	obj, ok := e.(*hclsyntax.ObjectConsExpr)
	if e != nil && !ok {
		return // computed as a whole: known only when it runs
	}
	present := map[string]bool{}
	if obj != nil {
		for _, item := range obj.Items {
			name, ok := objectKey(item.KeyExpr)
			if !ok {
				continue
			}
			present[name] = true
			p := props[name]
			if p == nil {
				c.report(c.unknownProperty(item.KeyExpr.Range(), noun, name, token, props))
				continue
			}
			c.assign(item.ValueExpr, p.TypeSpec, pkg, noun+" "+name+" of '"+token+"'")
		}
	}
	for _, name := range required {
		if p := props[name]; !present[name] && (p == nil || p.Default == nil) {
			c.report(errorDiag(rangeOr(e, at), fmt.Sprintf("Missing required %s %s", strings.ToLower(noun), name),
				fmt.Sprintf("'%s' requires the %s %s; give it a value.", token, strings.ToLower(noun), name)))
		}
	}
}

func (c *checker) unknownProperty(at hcl.Range, noun, name, token string, props map[string]*schema.Property) *hcl.Diagnostic {
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	hint := strings.TrimSpace(DidYouMean(name, names))
	if opt := Suggest(name, c.prog.Dialect.OptionNames); opt != "" && strings.EqualFold(opt, name) {
		hint = fmt.Sprintf("%s is a resource option; move it under %s.", opt, c.prog.Dialect.OptionsBlock)
	}
	if hint != "" {
		hint += " "
	}
	return errorDiag(at, fmt.Sprintf("%s %s does not exist on '%s'", noun, name, token),
		fmt.Sprintf("%sExisting %s are: %s.", hint, plural(noun), List(names, 8)))
}

// plural returns the lower-case plural of "Property" or "Argument".
func plural(noun string) string {
	if noun == "Property" {
		return "properties"
	}
	return strings.ToLower(noun) + "s"
}

// objectKey returns the name of a literal object key.
func objectKey(e hcl.Expression) (string, bool) {
	if k, ok := e.(*hclsyntax.ObjectConsKeyExpr); ok {
		if t, ok := k.Wrapped.(*hclsyntax.ScopeTraversalExpr); ok && !k.ForceNonLiteral && len(t.Traversal) == 1 {
			return t.Traversal.RootName(), true
		}
		e = k.Wrapped
	}
	return literalString(e)
}

// invokeCalls resolves the tokens of the invoke calls of an expression and
// checks their arguments.
func (c *checker) invokeCalls(e hcl.Expression) {
	se, ok := e.(hclsyntax.Expression)
	if !ok {
		return
	}
	_ = hclsyntax.VisitAll(se, func(n hclsyntax.Node) hcl.Diagnostics {
		if tok, ok := invokeToken(n); ok {
			call := n.(*hclsyntax.FunctionCallExpr)
			var args hcl.Expression
			if len(call.Args) > 1 {
				args = call.Args[1]
			}
			c.function(tok, call.Args[0].Range(), args)
		}
		return nil
	})
}

// function resolves a function token and checks its arguments.
func (c *checker) function(tok string, at hcl.Range, args hcl.Expression) {
	pkg := c.pkg(resource.TypePackage(tok), "", "", at)
	if pkg == nil {
		return
	}
	canon, fn, ok := pkg.ResolveFunction(tok)
	if !ok {
		c.report(errorDiag(at, fmt.Sprintf("Unknown function %s", tok),
			fmt.Sprintf("Package %s has no function %s.%s", pkg.Name, tok, DidYouMean(tok, shortTokens(pkg.FunctionTokens())))))
		return
	}
	c.info.functions[tok] = &functionType{token: canon, schema: fn, names: newSpeller(pkg, c.prog.Dialect.PropertyName)}
	if fn.Inputs != nil {
		c.properties(args, canon, "Argument", fn.Inputs.Properties, fn.Inputs.Required, pkg, at)
	}
}

// shortTokens returns the tokens with their short forms.
func shortTokens(toks []string) []string {
	out := append([]string(nil), toks...)
	for _, t := range toks {
		mod := resource.TypeModule(t)
		if i := strings.IndexByte(mod, '/'); i >= 0 {
			mod = mod[:i]
		}
		if mod == "index" {
			out = append(out, resource.TypePackage(t)+":"+resource.TypeName(t))
		} else if mod != "" {
			out = append(out, resource.TypePackage(t)+":"+mod+":"+resource.TypeName(t))
		}
	}
	sort.Strings(out)
	return out
}

// accesses checks the property accesses of every reference to a resource
// whose schema is known: ${bucket.arn} needs an output arn.
func (c *checker) accesses(g *graph) {
	for _, n := range g.nodes {
		for _, r := range g.byNode[n].refs {
			c.access(r)
		}
	}
	for _, child := range g.children {
		c.accesses(child)
	}
}

func (c *checker) access(r ref) {
	res, ok := r.Node.(*Resource)
	if !ok {
		return
	}
	rt := c.info.resources[res]
	if rt == nil || rt.schema == nil || resource.IsProviderType(res.Type) {
		return
	}
	rest := r.traversal[min(r.Len, len(r.traversal)):]
	if res.Expansion.Expanded() {
		if len(rest) == 0 {
			return
		}
		if _, ok := rest[0].(hcl.TraverseIndex); !ok {
			return
		}
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return
	}
	attr, ok := rest[0].(hcl.TraverseAttr)
	names := rt.names.spelled(rt.schema.Properties)
	for k := range rt.writeOnly {
		names = append(names, rt.names.spell(k)) // null, as Terraform has them
	}
	if !rt.names.terraform || rt.component || resource.IsProviderType(rt.token) {
		names = append([]string{"id", "urn"}, names...) // a Terraform resource's value is its attributes
	}
	if !ok || slices.Contains(names, attr.Name) {
		return
	}
	c.report(errorDiag(attr.SrcRange, fmt.Sprintf("Property %s does not exist on %s", attr.Name, &res.Decl),
		fmt.Sprintf("%s has no output %s.%s Existing properties are: %s.", &res.Decl, attr.Name, DidYouMean(attr.Name, names), List(names, 8))))
}
