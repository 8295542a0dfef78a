package hcl

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/plugins/tfaddr"
)

// fileSchema is the schema of a file's top level.
var fileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "variable", LabelNames: []string{"name"}},
	{Type: "locals"},
	{Type: "output", LabelNames: []string{"name"}},
	{Type: "resource", LabelNames: []string{"type", "name"}},
	{Type: "data", LabelNames: []string{"type", "name"}},
	{Type: "ephemeral", LabelNames: []string{"type", "name"}},
	{Type: "provider", LabelNames: []string{"name"}},
	{Type: "module", LabelNames: []string{"name"}},
	{Type: "moved"},
	{Type: "import"},
	{Type: "removed"},
	{Type: "check", LabelNames: []string{"name"}},
	{Type: "pulumi"},
	{Type: "terraform"},
	{Type: "language"},
}}

// module is one module being decoded: the root module or a module's body.
type module struct {
	l     *loader
	dir   string
	key   string   // the module's key: "" for the root (see ModuleCall)
	stack []string // the folders of this module and of those that call it
	nodes []eval.Node
	res   *resolver
	// tf is set for a module of Terraform files, and localNames maps the
	// local names of its providers to their packages (see providers.go).
	tf         bool
	localNames map[string]string
	// moves are the addresses the module's moved blocks move to, by the
	// address they move from, to follow chains of moves.
	moves map[string]address
	// hclVars are the variables whose values given as text (-var,
	// TF_VAR_) are HCL expressions: those of a type that is not primitive.
	hclVars map[string]bool
}

func (m *module) errorf(rng hcl.Range, summary, format string, args ...any) {
	m.l.diags = append(m.l.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: rng.Ptr()})
}

func (m *module) report(diags hcl.Diagnostics) { m.l.diags = append(m.l.diags, diags...) }

// decode decodes a module's blocks: the blocks that declare packages and
// providers first, since resource types resolve through them, and the
// blocks that refer to resources (moved, import, removed) last.
func (m *module) decode(blocks []*hcl.Block) {
	order := [][]string{{"pulumi", "terraform", "language"}, {"provider"},
		{"variable", "locals", "output", "resource", "data", "ephemeral", "module", "check"}, {"moved", "import", "removed"}}
	m.moves = movesOf(blocks)
	for _, types := range order {
		for _, b := range blocks {
			if slices.Contains(types, b.Type) {
				m.block(b)
			}
		}
	}
}

func (m *module) block(b *hcl.Block) {
	switch b.Type {
	case "pulumi":
		m.requirements(b)
	case "terraform":
		m.terraform(b)
	case "language":
		m.language(b)
	case "provider":
		m.provider(b)
	case "variable":
		m.variable(b)
	case "locals":
		m.locals(b)
	case "output":
		m.output(b)
	case "resource":
		m.resource(b)
	case "data":
		m.data(b)
	case "ephemeral":
		m.ephemeral(b)
	case "module":
		m.call(b)
	case "check":
		m.check(b)
	case "moved":
		m.moved(b)
	case "import":
		m.importBlock(b)
	case "removed":
		m.removed(b)
	}
}

// scope returns the module's nodes as a scope. Relative paths resolve
// against the program's folder, its working directory, as Terraform
// resolves them against the working directory.
func (m *module) scope() *eval.Scope {
	return &eval.Scope{Nodes: m.nodes, Resolver: m.res, Dir: m.l.root}
}

// callSchema is the schema of the meta-arguments of a module block; the
// other arguments are the module's inputs.
var callSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "source", Required: true}, {Name: "version"}, {Name: "count"},
		{Name: "for_each"}, {Name: "depends_on"}, {Name: "providers"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "pulumi"}, {Type: "lifecycle"}, {Type: "_"}},
}

// call decodes a module block: a component resource whose body is the
// module's source folder, decoded anew for each call.
func (m *module) call(b *hcl.Block) {
	name := b.Labels[0]
	content, inputs, diags := b.Body.PartialContent(callSchema)
	m.report(diags)
	inputs = m.escaped(content.Blocks, inputs)
	mod := &eval.Module{Decl: eval.Decl{Name: name, Namespace: "module", Noun: "module", NameRange: b.LabelRanges[0], DeclRange: b.DefRange}}
	addTo(m.res.modules, name, mod)
	m.nodes = append(m.nodes, mod)
	src, ok := content.Attributes["source"]
	if !ok {
		return
	}
	dir, srcText, ok := m.source(name, src, content.Attributes["version"])
	if !ok {
		return
	}
	mod.Type = "hcl:module:" + typeToken(moduleName(srcText, dir))
	m.expansion(content, &mod.Expansion)
	m.impliedMove("module", name, mod.Expansion, &mod.Options.Moved, b.DefRange)
	m.moduleLifecycle(content.Blocks, mod)
	m.pulumiOptions(content.Blocks, &mod.Options, shapes{openShape, openShape}, nil)
	if d := content.Attributes["depends_on"]; d != nil {
		mod.Options.DependsOn = m.dependsOn(d.Expr)
	}
	if p := content.Attributes["providers"]; p != nil {
		mod.Options.Providers = passedProviders(p.Expr, m.defaultProviders(b.DefRange))
	} else {
		mod.Options.Providers = m.defaultProviders(b.DefRange)
	}
	body := m.l.module(dir, m.childKey(name), m.l.readDir(dir), m.stack)
	body.res.call, body.res.caller = mod, m.res
	mod.Body = body.scope()
	inputShape := &shape{fields: map[string]*field{}, types: newTypes(nil)}
	for _, n := range body.nodes {
		if c, ok := n.(*eval.Config); ok && !strings.HasPrefix(c.Name, aliasInput) {
			inputShape.fields[c.Name] = &field{name: c.Name, required: c.Default == nil}
		}
	}
	m.report(inputShape.check(inputs))
	m.deprecatedInputs(body.nodes, inputs)
	mod.Inputs = &bodyExpr{body: inputs, shape: inputShape, rng: b.DefRange}
	if p := content.Attributes["providers"]; p != nil {
		if aliases := m.aliasInputs(name, p.Expr); len(aliases) > 0 {
			mod.Inputs = &inputsExpr{Expression: mod.Inputs, aliases: aliases}
		}
	}
}

// passedProviders returns the providers a module call passes: the values
// of a providers map, whose keys are the module's names, not references in
// the caller; those passed under an alias (aws.east = aws.west) go as
// inputs instead (aliasInputs). A provider serves its package; the
// caller's default providers (defaults, a list or nil) serve the other
// packages, as Terraform lets a module inherit them: those of the local
// names the values do not use (one expression cannot refer to both aws
// and aws.west).
func passedProviders(e, defaults hcl.Expression) hcl.Expression {
	obj, ok := e.(*hclsyntax.ObjectConsExpr)
	if !ok {
		return e
	}
	list := &hclsyntax.TupleConsExpr{SrcRange: obj.SrcRange, OpenRange: obj.OpenRange}
	used := map[string]bool{}
	var items []hclsyntax.ObjectConsItem
	for _, item := range obj.Items {
		if t, diags := hcl.AbsTraversalForExpr(item.KeyExpr); !diags.HasErrors() && len(t) > 1 {
			continue // local.alias = …: an input of the module (see aliasInputs)
		}
		items = append(items, item)
		for _, t := range item.ValueExpr.Variables() {
			used[t.RootName()] = true
		}
	}
	if d, ok := defaults.(*hclsyntax.TupleConsExpr); ok {
		for _, de := range d.Exprs {
			if t, ok := de.(*hclsyntax.ScopeTraversalExpr); ok && !used[t.Traversal.RootName()] {
				list.Exprs = append(list.Exprs, de)
			}
		}
	}
	for _, item := range items {
		list.Exprs = append(list.Exprs, item.ValueExpr)
	}
	if len(list.Exprs) == 0 {
		return nil
	}
	return list
}

// ModuleCall is a module block whose source Options.Modules finds.
type ModuleCall struct {
	// Key names the call as Terraform's module manifest does: web for
	// module.web, web.net for module.net within it.
	Key     string
	Source  string
	Version string // the version constraints, if any
	// Dir is the folder a local source names, resolved against the
	// calling module's folder.
	Dir string
}

func (m *module) childKey(name string) string {
	if m.key == "" {
		return name
	}
	return m.key + "." + name
}

// source returns the folder of the module a call names, and the source:
// a local path, or, through Options.Modules, a module it installs; never
// the folder of a module that calls it.
func (m *module) source(name string, a, version *hcl.Attribute) (string, string, bool) {
	call := ModuleCall{Key: m.childKey(name)}
	var ok bool
	if call.Source, ok = m.constantString(a, "Invalid module source", "The source of a module is a constant string, such as \"./modules/web\" or \"hashicorp/consul/aws\"."); !ok {
		return "", "", false
	}
	if version != nil {
		if call.Version, ok = m.constantString(version, "Invalid module version", "The version of a module is a constant string of version constraints, such as \"~> 1.2\"."); !ok {
			return "", "", false
		}
		if local(call.Source) {
			m.errorf(version.Range, "Invalid module version", "A local module has no version: remove version, or call the module from a registry.")
			return "", "", false
		}
		if _, err := tfaddr.ParseModuleConstraints(call.Version); err != nil {
			m.errorf(version.Expr.Range(), "Invalid module version", "%v; write constraints such as \"~> 1.2\" or \">= 1.0, < 2.0\".", err)
			return "", "", false
		}
	}
	dir := ""
	if local(call.Source) {
		dir = filepath.Join(m.dir, call.Source)
		call.Dir = dir
	}
	switch {
	case m.l.opts.Modules != nil:
		var err error
		if dir, err = m.l.opts.Modules(call); err != nil {
			m.errorf(a.Expr.Range(), "Module not installed", "module.%s: %v", name, err)
			return "", "", false
		}
	case dir == "":
		m.errorf(a.Expr.Range(), "Module not installed", "%s is not a local path (./ or ../), and remote modules are installed only when Cairn previews or updates a stack.", call.Source)
		return "", "", false
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		m.errorf(a.Expr.Range(), "Module source not found", "%s is not a folder.", call.Source)
		return "", "", false
	}
	if slices.Contains(m.stack, dir) {
		m.errorf(a.Expr.Range(), "Module calls itself", "%s is the folder of this module or of a module that calls it; a module cannot contain itself.", call.Source)
		return "", "", false
	}
	return dir, call.Source, true
}

// constantString returns the value of an attribute that must be a
// constant string.
func (m *module) constantString(a *hcl.Attribute, summary, detail string) (string, bool) {
	v, diags := a.Expr.Value(nil)
	m.report(diags)
	if diags.HasErrors() {
		return "", false
	}
	if v.Type() != cty.String || v.IsNull() {
		m.errorf(a.Expr.Range(), summary, "%s", detail)
		return "", false
	}
	return v.AsString(), true
}

// moduleName names the module a source gives, for its component's type:
// a local module's folder; a remote one's subdirectory, else the name of
// a registry module (consul in hashicorp/consul/aws), else the last part
// of its address (vpc of git::https://example.com/vpc.git?ref=v1), so
// that moving a module from a folder to a registry keeps its type.
func moduleName(src, dir string) string {
	if local(src) {
		return filepath.Base(dir)
	}
	if _, rest, ok := strings.Cut(src, "::"); ok {
		src = rest
	}
	src, _, _ = strings.Cut(src, "?")
	scheme, rest, hasScheme := strings.Cut(src, "://")
	if !hasScheme {
		rest = scheme
	}
	if _, subdir, ok := strings.Cut(rest, "//"); ok {
		return path.Base(subdir)
	}
	parts := strings.Split(rest, "/")
	switch {
	case hasScheme || strings.Contains(rest, "@") || parts[0] == "github.com":
	case len(parts) == 4, len(parts) == 3 && !strings.Contains(parts[0], "."):
		return parts[len(parts)-2]
	}
	base := path.Base(rest)
	for _, ext := range []string{".git", ".zip", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tar"} {
		base = strings.TrimSuffix(base, ext)
	}
	return base
}

func local(src string) bool { return strings.HasPrefix(src, "./") || strings.HasPrefix(src, "../") }

// typeToken makes a folder's name fit for a type token.
func typeToken(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, s)
}
