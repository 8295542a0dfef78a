package lsp

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

// typeInfo is a resource type or function as its package's schema
// describes it: its token, inputs and outputs.
type typeInfo struct {
	token       string
	description string
	pkg         *schema.Package
	inputs      map[string]*schema.Property
	required    []string
	outputs     map[string]*schema.Property
}

// resourceType looks a resource type token (or a short form) up in the
// loaded schemas; nil when its package's schema is not loaded or has no
// such type.
func (sc *schemas) resourceType(token string) *typeInfo {
	if resource.IsProviderType(token) {
		pkg := sc.peek(resource.ProviderTypePackage(token))
		if pkg == nil || pkg.Provider == nil {
			return nil
		}
		return &typeInfo{token: token, description: pkg.Description, pkg: pkg, inputs: pkg.Provider.InputProperties,
			required: pkg.Provider.RequiredInputs, outputs: pkg.Provider.Properties}
	}
	pkg := sc.peek(resource.TypePackage(token))
	if pkg == nil {
		return nil
	}
	tok, res, ok := pkg.ResolveType(token)
	if !ok {
		return nil
	}
	return &typeInfo{token: tok, description: res.Description, pkg: pkg, inputs: res.InputProperties, required: res.RequiredInputs, outputs: res.Properties}
}

// function looks a function token up in the loaded schemas.
func (sc *schemas) function(token string) *typeInfo {
	pkg := sc.peek(resource.TypePackage(token))
	if pkg == nil {
		return nil
	}
	tok, fn, ok := pkg.ResolveFunction(token)
	if !ok {
		return nil
	}
	t := &typeInfo{token: tok, description: fn.Description, pkg: pkg}
	if fn.Inputs != nil {
		t.inputs, t.required = fn.Inputs.Properties, fn.Inputs.Required
	}
	if fn.Outputs != nil {
		t.outputs = fn.Outputs.Properties
	}
	return t
}

// hclType looks up the type a label of an HCL resource or data block names:
// a token, or a Terraform-style name such as random_string.
func (sc *schemas) hclType(label string, data bool) *typeInfo {
	lookup := sc.resourceType
	if data {
		lookup = sc.function
	}
	if strings.Contains(label, ":") {
		return lookup(label)
	}
	pkgName, _, _ := strings.Cut(label, "_")
	pkg := sc.peek(pkgName)
	if pkg == nil {
		return nil
	}
	toks := pkg.ResourceTokens()
	if data {
		toks = pkg.FunctionTokens()
	}
	for _, tok := range toks {
		if langhcl.TypeName(tok) == label {
			return lookup(tok)
		}
	}
	return nil
}

// property is one property of an object, named as the language spells it.
type property struct {
	name     string
	schema   *schema.Property
	required bool
}

// properties returns the properties of an object as the language spells
// them (spell nil keeps the schema's names), in name order.
func properties(props map[string]*schema.Property, required []string, spell func(string) string) []property {
	out := make([]property, 0, len(props))
	for name, p := range props {
		req := false
		for _, r := range required {
			req = req || r == name
		}
		if spell != nil {
			name = spell(name)
		}
		out = append(out, property{name: name, schema: p, required: req})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// lookupProperty follows a path of names (as the language spells them;
// "[]" for an element of an array) from the properties of an object to
// the property it ends at; the properties of the object holding it are
// returned too.
func lookupProperty(pkg *schema.Package, props map[string]*schema.Property, required []string, path []string, spell func(string) string) (*property, []property) {
	var p *property
	var ts schema.TypeSpec
	for i, step := range path {
		if i > 0 {
			switch {
			case step == "[]" && ts.Items != nil:
				ts = *ts.Items
				continue
			case ts.AdditionalProperties != nil:
				ts = *ts.AdditionalProperties
				continue
			}
			obj := objectType(pkg, ts)
			if obj == nil {
				return nil, nil
			}
			props, required = obj.Properties, obj.Required
		}
		p = nil
		for _, q := range properties(props, required, spell) {
			if q.name == step {
				p = &q
				break
			}
		}
		if p == nil {
			return nil, nil
		}
		ts = p.schema.TypeSpec
	}
	return p, properties(props, required, spell)
}

// fieldsOf returns the properties of the objects a property holds: of its
// object type, or of the elements of its array.
func fieldsOf(pkg *schema.Package, ts schema.TypeSpec, spell func(string) string) []property {
	if ts.Items != nil {
		ts = *ts.Items
	}
	if obj := objectType(pkg, ts); obj != nil {
		return properties(obj.Properties, obj.Required, spell)
	}
	return nil
}

// objectType returns the object type (not an enum) a type refers to.
func objectType(pkg *schema.Package, ts schema.TypeSpec) *schema.ObjectTyp {
	if pkg == nil || !strings.HasPrefix(ts.Ref, "#/types/") {
		return nil
	}
	if obj := pkg.Types[strings.TrimPrefix(ts.Ref, "#/types/")]; obj != nil && len(obj.Enum) == 0 {
		return obj
	}
	return nil
}

// values returns the values a property may take when there are few: the
// values of an enum, or true and false.
func values(pkg *schema.Package, ts schema.TypeSpec) []string {
	if ts.Type == "boolean" {
		return []string{"true", "false"}
	}
	if pkg != nil && strings.HasPrefix(ts.Ref, "#/types/") {
		if obj := pkg.Types[strings.TrimPrefix(ts.Ref, "#/types/")]; obj != nil {
			out := make([]string, 0, len(obj.Enum))
			for _, e := range obj.Enum {
				out = append(out, fmt.Sprint(e.Value))
			}
			return out
		}
	}
	return nil
}

// typeLabel renders a type for people: string, list(string),
// map(integer), the name of an object type, or an enum's values.
func typeLabel(pkg *schema.Package, ts schema.TypeSpec) string {
	switch {
	case ts.Items != nil:
		return "list(" + typeLabel(pkg, *ts.Items) + ")"
	case ts.AdditionalProperties != nil:
		return "map(" + typeLabel(pkg, *ts.AdditionalProperties) + ")"
	case len(ts.OneOf) > 0:
		alts := make([]string, len(ts.OneOf))
		for i, a := range ts.OneOf {
			alts[i] = typeLabel(pkg, a)
		}
		return strings.Join(alts, " | ")
	case strings.HasPrefix(ts.Ref, "#/types/"):
		name := strings.TrimPrefix(ts.Ref, "#/types/")
		if obj := pkg.Types[name]; obj != nil && len(obj.Enum) > 0 {
			return strings.Join(quoteAll(values(pkg, ts)), " | ")
		}
		return resource.TypeName(name)
	case strings.HasPrefix(ts.Ref, "pulumi.json#/"):
		return strings.ToLower(strings.TrimPrefix(ts.Ref, "pulumi.json#/"))
	case ts.Type != "":
		return ts.Type
	}
	return "any"
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// propertyDoc renders a property's documentation in Markdown.
func propertyDoc(pkg *schema.Package, p property) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** `%s`", p.name, typeLabel(pkg, p.schema.TypeSpec))
	var notes []string
	if p.required {
		notes = append(notes, "required")
	}
	if p.schema.Secret {
		notes = append(notes, "secret")
	}
	if p.schema.ReplaceOnChanges || p.schema.WillReplaceOnChanges {
		notes = append(notes, "a change replaces the resource")
	}
	if p.schema.Default != nil {
		notes = append(notes, fmt.Sprintf("default %v", p.schema.Default))
	}
	if len(notes) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(notes, ", "))
	}
	if p.schema.Description != "" {
		b.WriteString("\n\n" + p.schema.Description)
	}
	if p.schema.DeprecationMessage != "" {
		b.WriteString("\n\nDeprecated: " + p.schema.DeprecationMessage)
	}
	return b.String()
}

// typeDoc renders a resource type's or function's documentation.
func typeDoc(t *typeInfo) string {
	doc := "`" + t.token + "`"
	if t.description != "" {
		doc += "\n\n" + t.description
	}
	return doc
}
