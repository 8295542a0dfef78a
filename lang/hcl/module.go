package hcl

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/eval"
)

// fileSchema is the schema of a file's top level.
var fileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "variable", LabelNames: []string{"name"}},
	{Type: "locals"},
	{Type: "output", LabelNames: []string{"name"}},
	{Type: "resource", LabelNames: []string{"type", "name"}},
	{Type: "data", LabelNames: []string{"type", "name"}},
	{Type: "provider", LabelNames: []string{"name"}},
	{Type: "module", LabelNames: []string{"name"}},
	{Type: "moved"},
	{Type: "import"},
	{Type: "removed"},
	{Type: "check", LabelNames: []string{"name"}},
	{Type: "pulumi"},
	{Type: "terraform"},
}}

// module is one module being decoded: the root module or a module's body.
type module struct {
	l     *loader
	dir   string
	stack []string // the folders of this module and of those that call it
	nodes []eval.Node
	res   *resolver
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
	order := [][]string{{"pulumi", "terraform"}, {"provider"},
		{"variable", "locals", "output", "resource", "data", "module", "check"}, {"moved", "import", "removed"}}
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
	Blocks: []hcl.BlockHeaderSchema{{Type: "pulumi"}, {Type: "lifecycle"}},
}

// call decodes a module block: a component resource whose body is the
// module's source folder, decoded anew for each call.
func (m *module) call(b *hcl.Block) {
	name := b.Labels[0]
	content, inputs, diags := b.Body.PartialContent(callSchema)
	m.report(diags)
	mod := &eval.Module{Decl: eval.Decl{Name: name, Namespace: "module", Noun: "module", NameRange: b.LabelRanges[0], DeclRange: b.DefRange}}
	addTo(m.res.modules, name, mod)
	m.nodes = append(m.nodes, mod)
	if v := content.Attributes["version"]; v != nil {
		m.errorf(v.Range, "Unsupported module version", "Only local modules are supported: give source a path such as \"./modules/%s\" and no version.", name)
	}
	src, ok := content.Attributes["source"]
	if !ok {
		return
	}
	dir, ok := m.source(src)
	if !ok {
		return
	}
	mod.Type = "hcl:module:" + typeToken(filepath.Base(dir))
	m.expansion(content, &mod.Expansion)
	m.moduleLifecycle(content.Blocks, mod)
	m.pulumiOptions(content.Blocks, &mod.Options, shapes{openShape, openShape}, nil)
	if d := content.Attributes["depends_on"]; d != nil {
		mod.Options.DependsOn = d.Expr
	}
	if p := content.Attributes["providers"]; p != nil {
		mod.Options.Providers = p.Expr
	} else {
		mod.Options.Providers = m.defaultProviders(b.DefRange)
	}
	body := m.l.module(dir, "module."+name, m.l.readDir(dir), m.stack)
	body.res.call, body.res.caller = mod, m.res
	mod.Body = body.scope()
	inputShape := &shape{fields: map[string]*field{}, types: newTypes(nil)}
	for _, n := range body.nodes {
		if c, ok := n.(*eval.Config); ok {
			inputShape.fields[c.Name] = &field{name: c.Name, required: c.Default == nil}
		}
	}
	m.report(inputShape.check(inputs))
	m.deprecatedInputs(body.nodes, inputs)
	mod.Inputs = &bodyExpr{body: inputs, shape: inputShape, rng: b.DefRange}
}

// source returns the folder a module's source names: a local path, which
// must not be the folder of a module that calls it.
func (m *module) source(a *hcl.Attribute) (string, bool) {
	v, diags := a.Expr.Value(nil)
	m.report(diags)
	if diags.HasErrors() {
		return "", false
	}
	if v.Type() != cty.String || v.IsNull() || !local(v.AsString()) {
		m.errorf(a.Expr.Range(), "Invalid module source", "Only local modules are supported: the source must be a path starting with ./ or ../, such as \"./modules/web\".")
		return "", false
	}
	dir := filepath.Join(m.dir, v.AsString())
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		m.errorf(a.Expr.Range(), "Module source not found", "%s is not a folder.", v.AsString())
		return "", false
	}
	if slices.Contains(m.stack, dir) {
		m.errorf(a.Expr.Range(), "Module calls itself", "%s is the folder of this module or of a module that calls it; a module cannot contain itself.", v.AsString())
		return "", false
	}
	return dir, true
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
