package lsp

import (
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/lang/yaml"
)

// yamlCompletion completes a YAML program at byte offset off.
func (v *view) yamlCompletion(off int) *CompletionList {
	c := yamlCursorAt(v.d.text.src, off)
	out := &completions{edit: Range{Start: v.d.text.position(c.start), End: v.d.text.position(off)}}
	if c.expr != nil {
		if v.a != nil {
			out.edit.Start = v.d.text.position(c.expr.start)
			out.Items = v.a.exprCompletion(v.d.path, c.expr, out.edit)
		}
		return &out.CompletionList
	}
	// A key typed on a line of its own gets its colon.
	if c.inKey && !strings.Contains(string(v.d.text.src[off:v.d.text.lineEnd(v.d.text.position(off).Line)]), ":") {
		out.suffix = ": "
	}
	p := c.path
	switch i := slices.Index(p, "fn::invoke"); {
	case i >= 0:
		v.invokeCompletion(out, c, off, p[i+1:])
	case len(p) >= 2 && p[0] == "resources":
		v.resourceCompletion(out, c, p[1], p[2:])
	case c.inKey && len(p) == 1 && p[0] == "config":
		for _, name := range v.configKeys() {
			out.add(name, kindConstant, "provider configuration", "", name+out.suffix)
		}
	case c.inKey:
		for _, k := range projectSchema.at(p).keys() {
			if len(p) > 0 || v.topLevelKey(k.name) {
				out.add(k.name, kindProperty, "", k.schema.describe(), k.name+out.suffix)
			}
		}
	default:
		for _, val := range projectSchema.at(append(p, c.key)).enum() {
			out.add(val, kindValue, "", "", val)
		}
	}
	if c.inKey && len(p) >= 2 && (p[0] == "variables" || p[0] == "outputs" || p[0] == "resources" && len(p) >= 3 && p[2] == "properties") {
		for _, name := range yaml.BuiltinNames() {
			out.add(name, kindFunction, "builtin", "", name+out.suffix)
		}
	}
	return &out.CompletionList
}

// completions collects the items of a completion list; each replaces the
// range edit (what is typed of it), and the keys of YAML mappings get the
// suffix ": " when they end their line.
type completions struct {
	CompletionList
	edit   Range
	suffix string
}

// add adds an item that inserts text.
func (c *completions) add(label string, kind int, detail, doc, text string) {
	it := CompletionItem{Label: label, Kind: kind, Detail: detail, TextEdit: &TextEdit{Range: c.edit, NewText: text}}
	if doc != "" {
		it.Documentation = markdown(doc)
	}
	c.Items = append(c.Items, it)
}

// topLevelKey reports whether a top-level key may be written in the
// document: *.cairn.yaml files hold program sections only.
func (v *view) topLevelKey(name string) bool {
	if !strings.HasSuffix(v.d.path, ".cairn.yaml") {
		return true
	}
	switch name {
	case "config", "variables", "resources", "outputs":
		return true
	}
	return false
}

// resourceCompletion completes inside the declaration of the resource
// name, at rest below it.
func (v *view) resourceCompletion(out *completions, c yamlCursor, name string, rest []string) {
	path := append([]string{"resources", name}, rest...)
	switch {
	case len(rest) == 0 && !c.inKey && c.key == "type":
		out.IsIncomplete = v.typeCompletion(c.typed, out)
	case len(rest) >= 1 && rest[0] == "properties":
		tok := v.resourceTypeOf(name)
		t := v.sch.resourceType(tok)
		if t == nil {
			out.IsIncomplete = v.sch.pending(resource.TypePackage(tok))
			return
		}
		props := rest[1:]
		if !c.inKey {
			if p, _ := lookupProperty(t.pkg, t.inputs, t.required, append(props, c.key), nil); p != nil {
				for _, val := range values(t.pkg, p.schema.TypeSpec) {
					out.add(val, kindValue, p.name, "", val)
				}
			}
			return
		}
		fields := properties(t.inputs, t.required, nil)
		if len(props) > 0 {
			p, _ := lookupProperty(t.pkg, t.inputs, t.required, props, nil)
			if p == nil {
				return
			}
			fields = fieldsOf(t.pkg, p.schema.TypeSpec, nil)
		}
		for _, f := range fields {
			out.add(f.name, kindProperty, typeLabel(t.pkg, f.schema.TypeSpec), propertyDoc(t.pkg, f), f.name+out.suffix)
		}
	case c.inKey:
		for _, k := range projectSchema.at(path).keys() {
			out.add(k.name, kindProperty, "", k.schema.describe(), k.name+out.suffix)
		}
	case len(rest) >= 1 && rest[0] == "options" && referenceOption(c.key, rest):
		if v.a == nil || v.a.prog == nil {
			return
		}
		for _, n := range v.a.prog.Root.Nodes {
			if r, ok := n.(*eval.Resource); ok && r.Name != name {
				out.add("${"+r.Name+"}", kindClass, r.Type, "", "${"+r.Name+"}")
			}
		}
	default:
		for _, val := range projectSchema.at(append(path, c.key)).enum() {
			out.add(val, kindValue, "", "", val)
		}
	}
}

// invokeFields are the fields of fn::invoke.
var invokeFields = map[string]string{
	"function":  "The token of the function to call: <package>:<module>:<function>.",
	"arguments": "The function's arguments, as its schema names them.",
	"options":   "provider, parent, dependsOn, version and pluginDownloadURL of the call.",
	"return":    "The name of the one result to return, rather than all of them.",
}

// invokeCompletion completes inside fn::invoke, at rest below it: its
// fields, the tokens of functions and their arguments.
func (v *view) invokeCompletion(out *completions, c yamlCursor, off int, rest []string) {
	switch {
	case len(rest) == 0 && c.inKey:
		for name, doc := range invokeFields {
			out.add(name, kindProperty, "", doc, name+out.suffix)
		}
	case len(rest) == 0 && c.key == "function":
		for _, pkg := range v.sch.loaded() {
			for _, tok := range pkg.FunctionTokens() {
				if matchesToken(tok, c.typed) {
					out.add(tok, kindFunction, pkg.Name, pkg.Functions[tok].Description, tok)
				}
			}
		}
	case len(rest) == 1 && rest[0] == "arguments" && c.inKey && v.a != nil:
		t := v.sch.function(v.a.invokeAt(v.d.path, off))
		if t == nil {
			return
		}
		for _, f := range properties(t.inputs, t.required, nil) {
			out.add(f.name, kindProperty, typeLabel(t.pkg, f.schema.TypeSpec), propertyDoc(t.pkg, f), f.name+out.suffix)
		}
	}
}

// invokeAt returns the token of the function the fn::invoke around byte
// offset off of the file at path calls, or "".
func (a *analysis) invokeAt(path string, off int) string {
	token := ""
	for _, s := range a.scopes() {
		for _, n := range s.Nodes {
			for _, e := range n.Expressions() {
				se, ok := e.(hclsyntax.Expression)
				if !ok {
					continue
				}
				_ = hclsyntax.VisitAll(se, func(n hclsyntax.Node) hcl.Diagnostics {
					call, ok := n.(*hclsyntax.FunctionCallExpr)
					if !ok || call.Name != eval.InvokeFunction || len(call.Args) == 0 || a.path(call.Range().Filename) != path || !contains(call.Range(), off) {
						return nil
					}
					if v, diags := call.Args[0].Value(nil); !diags.HasErrors() && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
						token = v.AsString()
					}
					return nil
				})
			}
		}
	}
	return token
}

// referenceOption reports whether an option takes resources.
func referenceOption(key string, rest []string) bool {
	switch key {
	case "provider", "parent", "deletedWith":
		return len(rest) == 1
	case "":
		return len(rest) == 3 && rest[1] == "dependsOn" && rest[2] == "[]"
	}
	return false
}

// typeCompletion completes a type token from the loaded schemas; it
// reports whether the schema of the package typed is still loading.
func (v *view) typeCompletion(typed string, out *completions) bool {
	pkgs := v.sch.loaded()
	loading := false
	if name, _, ok := strings.Cut(typed, ":"); ok && pkgs[name] == nil {
		if pkg := v.sch.peek(name); pkg != nil {
			pkgs[name] = pkg
		}
		loading = v.sch.pending(name)
	}
	for _, pkg := range pkgs {
		for _, tok := range pkg.ResourceTokens() {
			if !matchesToken(tok, typed) {
				continue
			}
			t := v.sch.resourceType(tok)
			doc := ""
			if t != nil {
				doc = t.description
			}
			out.add(tok, kindClass, pkg.Name, doc, tok)
		}
	}
	return loading
}

// matchesToken reports whether what is typed starts a token, or one of
// its short forms (random:RandomStr for random:index/randomString:RandomString),
// without regard to case.
func matchesToken(tok, typed string) bool {
	typed = strings.ToLower(typed)
	if strings.HasPrefix(strings.ToLower(tok), typed) {
		return true
	}
	pkg, mod, name := resource.TypePackage(tok), resource.TypeModule(tok), resource.TypeName(tok)
	if i := strings.IndexByte(mod, '/'); i >= 0 {
		mod = mod[:i]
	}
	short := pkg + ":" + mod + ":" + name
	if mod == "index" {
		short = pkg + ":" + name
	}
	return strings.HasPrefix(strings.ToLower(short), typed)
}

// resourceTypeOf returns the type token of the resource name as the
// program declares it, or as the text says when the program cannot be
// read.
func (v *view) resourceTypeOf(name string) string {
	if v.a != nil && v.a.prog != nil {
		for _, n := range v.a.prog.Root.Nodes {
			if r, ok := n.(*eval.Resource); ok && r.Name == name && r.Type != "" {
				return r.Type
			}
		}
	}
	return yamlValueAt(v.d.text.src, []string{"resources", name, "type"})
}

// configKeys returns the configuration keys of the packages whose schemas
// are loaded: aws:region, ...
func (v *view) configKeys() []string {
	var out []string
	for name, pkg := range v.sch.loaded() {
		if pkg.Config == nil {
			continue
		}
		for key := range pkg.Config.Variables {
			out = append(out, name+":"+key)
		}
	}
	sort.Strings(out)
	return out
}

// yamlHover describes what is under byte offset off of a YAML program.
func (v *view) yamlHover(off int) (string, Range) {
	c := yamlCursorAt(v.d.text.src, off)
	rng := Range{Start: v.d.text.position(c.start), End: v.d.text.position(c.end)}
	if c.expr != nil {
		if v.a == nil {
			return "", rng
		}
		if r := v.a.referenceAt(v.d.path, off); r != nil {
			return v.a.referenceHover(r), v.a.rangeOf(v.d.path, r.traversal[r.step].SourceRange())
		}
		return "", rng
	}
	p := c.path
	switch {
	case len(p) >= 3 && p[0] == "resources" && p[2] == "properties" && c.inKey:
		t := v.sch.resourceType(v.resourceTypeOf(p[1]))
		if t == nil {
			return "", rng
		}
		if prop, _ := lookupProperty(t.pkg, t.inputs, t.required, append(p[3:], c.word), nil); prop != nil {
			return propertyDoc(t.pkg, *prop), rng
		}
	case len(p) == 2 && p[0] == "resources" && !c.inKey && c.key == "type":
		if t := v.sch.resourceType(c.word); t != nil {
			return typeDoc(t), rng
		}
	case len(p) == 1 && p[0] == "resources" && c.inKey:
		if t := v.sch.resourceType(v.resourceTypeOf(c.word)); t != nil {
			return "resource \"" + c.word + "\": " + typeDoc(t), rng
		}
	case !c.inKey && c.key == "function" && len(p) > 0 && p[len(p)-1] == "fn::invoke":
		if t := v.sch.function(c.word); t != nil {
			return typeDoc(t), rng
		}
	case c.inKey:
		if doc := projectSchema.at(append(p, c.word)).describe(); doc != "" {
			return "**" + c.word + "**\n\n" + doc, rng
		}
	}
	return "", rng
}

// yamlValueAt returns the scalar at a path of keys in a block-style YAML
// document, read by indentation; "" when there is none.
func yamlValueAt(src []byte, path []string) string {
	type level struct {
		indent int
		key    string
	}
	var stack []level
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimRight(line, "\r")
		indent := len(line) - len(strings.TrimLeft(line, " "))
		rest := line[indent:]
		if rest == "" || rest[0] == '#' || rest[0] == '-' {
			continue
		}
		sep := keySeparator(line, indent)
		if sep < 0 {
			continue
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, level{indent, unquote(strings.TrimSpace(line[indent:sep]))})
		if len(stack) != len(path) {
			continue
		}
		match := true
		for i, l := range stack {
			match = match && l.key == path[i]
		}
		if match {
			return unquote(strings.TrimSpace(line[sep+1 : scalarEnd(line, sep+1)]))
		}
	}
	return ""
}
