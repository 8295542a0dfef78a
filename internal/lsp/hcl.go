package lsp

import (
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/eval"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

// hclBlocks are the blocks of an HCL file, with the arguments and nested
// blocks they take besides those of a schema.
var hclBlocks = map[string]struct {
	doc         string
	args, inner []string
}{
	"resource": {"A resource: its type (random_pet, or a type token) and its name.", []string{"count", "for_each", "depends_on", "provider"}, []string{"lifecycle", "pulumi"}},
	"data":     {"A call of a provider function: its type and its name.", []string{"count", "for_each", "depends_on", "provider"}, nil},
	"variable": {"An input of the stack, from its configuration.", []string{"type", "default", "description", "sensitive", "nullable"}, []string{"validation"}},
	"output":   {"An output of the stack.", []string{"value", "description", "sensitive", "depends_on"}, nil},
	"locals":   {"Named values.", nil, nil},
	"module":   {"A call of a local module: a folder of *.hcl files.", []string{"source", "count", "for_each", "depends_on", "providers"}, []string{"pulumi"}},
	"provider": {"A provider resource of a package; without an alias, the default one.", []string{"alias"}, []string{"pulumi"}},
	"moved":    {"A former name of a resource, whose state it takes over.", []string{"from", "to"}, nil},
	"import":   {"An existing resource to adopt.", []string{"to", "id"}, nil},
	"removed":  {"A resource to forget rather than delete.", []string{"from"}, []string{"lifecycle"}},
	"check":    {"Assertions, reported as warnings when false.", nil, []string{"assert"}},
	"pulumi":   {"Package versions: required_providers.", nil, []string{"required_providers"}},
}

// hclNested are the arguments of blocks nested in the blocks above.
var hclNested = map[string][]string{
	"lifecycle":  {"create_before_destroy", "prevent_destroy", "ignore_changes", "replace_triggered_by", "destroy"},
	"validation": {"condition", "error_message"},
	"assert":     {"condition", "error_message"},
}

// hclCompletion completes an HCL program at byte offset off.
func (v *view) hclCompletion(off int) *CompletionList {
	c := hclCursorAt(v.d.text.src, off)
	out := &completions{edit: Range{Start: v.d.text.position(c.start), End: v.d.text.position(off)}}
	switch {
	case c.label == 0 && len(c.header) == 1 && (c.header[0] == "resource" || c.header[0] == "data"):
		out.IsIncomplete = v.hclTypeCompletion(c.typed, c.header[0] == "data", out)
	case c.label == 0 && len(c.header) == 1 && c.header[0] == "provider":
		for name := range v.sch.loaded() {
			out.add(name, kindModule, "package", "", name)
		}
	case c.label >= 0 || c.inString:
	case c.expr != nil:
		if v.a != nil {
			out.Items = v.a.exprCompletion(v.d.path, c.expr, Range{Start: v.d.text.position(c.expr.start), End: out.edit.End})
		}
		for _, val := range v.hclValues(c) {
			out.add(val, kindValue, c.attr, "", val)
		}
	case len(c.blocks) == 0:
		for name, b := range hclBlocks {
			out.add(name, kindKeyword, "block", b.doc, name)
		}
	default:
		v.hclBodyCompletion(c, out)
	}
	return &out.CompletionList
}

// hclTypeCompletion completes the type label of a resource or data block:
// Terraform-style names, or tokens once a colon is typed.
func (v *view) hclTypeCompletion(typed string, data bool, out *completions) bool {
	if strings.Contains(typed, ":") {
		return v.typeCompletion(typed, out)
	}
	pkgs := v.sch.loaded()
	loading := false
	if name, _, ok := strings.Cut(typed, "_"); ok && pkgs[name] == nil {
		if pkg := v.sch.peek(name); pkg != nil {
			pkgs[name] = pkg
		}
		loading = v.sch.pending(name)
	}
	for _, pkg := range pkgs {
		toks := pkg.ResourceTokens()
		if data {
			toks = pkg.FunctionTokens()
		}
		for _, tok := range toks {
			name := langhcl.TypeName(tok)
			if !strings.HasPrefix(name, typed) {
				continue
			}
			doc := ""
			if data {
				doc = pkg.Functions[tok].Description
			} else {
				doc = pkg.Resources[tok].Description
			}
			out.add(name, kindClass, tok, doc, name)
		}
	}
	return loading
}

// hclBodyCompletion completes the arguments and blocks of the block
// around the cursor.
func (v *view) hclBodyCompletion(c hclCursor, out *completions) {
	outer := c.blocks[0]
	b := hclBlocks[outer[0]]
	if len(c.blocks) == 1 {
		for _, a := range b.args {
			out.add(a, kindKeyword, "meta-argument", "", a+" = ")
		}
		for _, n := range b.inner {
			out.add(n, kindKeyword, "block", "", n+" ")
		}
	}
	inner := c.blocks[1:]
	if len(inner) > 0 {
		switch name := inner[0][0]; {
		case name == "pulumi" && outer[0] != "pulumi" && v.a != nil && v.a.prog != nil:
			for _, o := range v.a.prog.Dialect.OptionNames {
				out.add(o, kindKeyword, "option", "", o+" = ")
			}
			return
		case hclNested[name] != nil:
			for _, a := range hclNested[name] {
				out.add(a, kindKeyword, name, "", a+" = ")
			}
			return
		}
	}
	t := v.hclBlockType(outer)
	if t == nil {
		if outer[0] == "module" && len(outer) == 2 {
			for _, name := range v.moduleInputs(outer[1]) {
				out.add(name, kindProperty, "module input", "", name+" = ")
			}
		}
		return
	}
	fields := properties(t.inputs, t.required, v.a.spell())
	if len(inner) > 0 {
		path := make([]string, len(inner))
		for i, h := range inner {
			path[i] = h[0]
		}
		p, _ := lookupProperty(t.pkg, t.inputs, t.required, path, v.a.spell())
		if p == nil {
			return
		}
		fields = fieldsOf(t.pkg, p.schema.TypeSpec, v.a.spell())
	}
	for _, f := range fields {
		text := f.name + " = "
		if objectType(t.pkg, f.schema.TypeSpec) != nil || f.schema.Items != nil && objectType(t.pkg, *f.schema.Items) != nil {
			text = f.name + " "
		}
		out.add(f.name, kindProperty, typeLabel(t.pkg, f.schema.TypeSpec), propertyDoc(t.pkg, f), text)
	}
}

// hclBlockType returns the schema type of a resource, data or provider
// block.
func (v *view) hclBlockType(header []string) *typeInfo {
	if len(header) < 2 {
		return nil
	}
	switch header[0] {
	case "resource", "data":
		return v.sch.hclType(header[1], header[0] == "data")
	case "provider":
		return v.sch.resourceType("pulumi:providers:" + header[1])
	}
	return nil
}

// moduleInputs returns the variables of the module called name.
func (v *view) moduleInputs(name string) []string {
	var out []string
	for _, s := range v.a.scopes() {
		for _, n := range s.Nodes {
			if m, ok := n.(*eval.Module); ok && m.Name == name && m.Body != nil {
				for _, in := range m.Body.Nodes {
					if c, ok := in.(*eval.Config); ok {
						out = append(out, c.Name)
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// hclValues returns the values an argument may take when there are few,
// written as HCL literals.
func (v *view) hclValues(c hclCursor) []string {
	if c.attr == "" || len(c.blocks) == 0 {
		return nil
	}
	t := v.hclBlockType(c.blocks[0])
	if t == nil {
		return nil
	}
	path := []string{}
	for _, h := range c.blocks[1:] {
		path = append(path, h[0])
	}
	p, _ := lookupProperty(t.pkg, t.inputs, t.required, append(path, c.attr), v.a.spell())
	if p == nil {
		return nil
	}
	out := values(t.pkg, p.schema.TypeSpec)
	if p.schema.Type != "boolean" {
		out = quoteAll(out)
	}
	return out
}

// hclHover describes what is under byte offset off of an HCL program.
func (v *view) hclHover(off int) (string, Range) {
	c := hclCursorAt(v.d.text.src, off)
	rng := Range{Start: v.d.text.position(c.start), End: v.d.text.position(c.end)}
	switch {
	case c.label == 0 && len(c.header) == 1:
		if t := v.hclBlockType([]string{c.header[0], c.word}); t != nil {
			return typeDoc(t), rng
		}
	case c.expr != nil && v.a != nil:
		if r := v.a.referenceAt(v.d.path, off); r != nil {
			return v.a.referenceHover(r), v.a.rangeOf(v.d.path, r.traversal[r.step].SourceRange())
		}
	case c.attr == "" && c.label < 0 && len(c.blocks) == 0:
		if b, ok := hclBlocks[c.word]; ok {
			return "**" + c.word + "**\n\n" + b.doc, rng
		}
	case c.attr == "" && c.label < 0:
		t := v.hclBlockType(c.blocks[0])
		if t == nil {
			return "", rng
		}
		var path []string
		for _, h := range c.blocks[1:] {
			path = append(path, h[0])
		}
		if p, _ := lookupProperty(t.pkg, t.inputs, t.required, append(path, c.word), v.a.spell()); p != nil {
			return propertyDoc(t.pkg, *p), rng
		}
	}
	return "", rng
}
