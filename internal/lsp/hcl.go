package lsp

import (
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/eval"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

// hclBlocks are the blocks of an HCL file, and hclNested those nested in
// them, as the language decodes them.
var (
	hclBlocks = langhcl.Keywords()
	hclNested = langhcl.NestedKeywords()
)

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
			out.add(name, kindKeyword, "block", b.Doc, name)
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
		for _, a := range b.Args {
			out.add(a, kindKeyword, "meta-argument", "", a+" = ")
		}
		for _, n := range b.Blocks {
			out.add(n, kindKeyword, "block", "", n+" ")
		}
	}
	inner := c.blocks[1:]
	if len(inner) > 0 {
		name := inner[len(inner)-1][0]
		nested, ok := hclNested[name]
		switch {
		case name == "pulumi" && outer[0] != "pulumi" && v.a != nil && v.a.prog != nil:
			for _, o := range v.a.prog.Dialect.OptionNames {
				out.add(o, kindKeyword, "option", "", o+" = ")
			}
			return
		case ok:
			for _, a := range nested.Args {
				out.add(a, kindKeyword, name, "", a+" = ")
			}
			for _, n := range nested.Blocks {
				out.add(n, kindKeyword, "block", "", n+" ")
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
			return "**" + c.word + "**\n\n" + b.Doc, rng
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
