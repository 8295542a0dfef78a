package yaml

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	yaml "go.yaml.in/yaml/v4"

	"github.com/cairn-iac/cairn/eval"
)

// parser builds the program model from the documents of a project.
type parser struct {
	diags hcl.Diagnostics
	nodes []eval.Node
}

func (p *parser) errorf(rng hcl.Range, summary, format string, args ...any) {
	p.diags = append(p.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: rng.Ptr()})
}

func (p *parser) warnf(rng hcl.Range, summary, format string, args ...any) {
	p.diags = append(p.diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: rng.Ptr()})
}

// The top-level keys of a program file, and the project keys that may share
// Pulumi.yaml (or Main.yaml) with them.
var (
	programKeys = []string{"config", "configuration", "variables", "resources", "outputs"}
	projectKeys = []string{"name", "runtime", "description", "main", "stackConfigDir", "backend", "options",
		"plugins", "template", "packages", "pulumi", "author", "license", "website", "components", "namespace", "version", "cairn"}
	projectFileKeys = append(append([]string(nil), programKeys...), projectKeys...)
)

// project is what Pulumi.yaml says of the project.
type project struct {
	name, description, main string
	mainRange               hcl.Range
}

// document reads the sections of one program document whose top-level keys
// may be those of known: projectFileKeys in Pulumi.yaml and Main.yaml,
// programKeys in *.cairn.yaml.
func (p *parser) document(root *node, known []string) {
	if root == nil {
		return
	}
	if root.kind != yaml.MappingNode {
		p.errorf(root.rng, "Invalid program", "A program file must be a mapping of sections: config, variables, resources and outputs.")
		return
	}
	sections, keys := p.topLevel(root, known)
	declared := map[string]bool{}
	if c := sections["config"]; c != nil {
		p.configs(c, false, declared)
	}
	if c := sections["configuration"]; c != nil {
		p.warnf(keys["configuration"].rng, "Deprecated section", "configuration is the former name of config; rename it.")
		p.configs(c, true, declared)
	}
	p.entries(sections["variables"], "variables", func(k, v *node) {
		p.nodes = append(p.nodes, &eval.Local{Decl: decl(k, v, "variable"), Value: p.expr(v)})
	})
	p.entries(sections["resources"], "resources", p.resource)
	p.entries(sections["outputs"], "outputs", func(k, v *node) {
		p.nodes = append(p.nodes, &eval.Output{Decl: decl(k, v, "output"), Value: p.expr(v)})
	})
}

// topLevel returns the values and keys of a document's top-level mapping by
// the known key each spells. Keys are matched without regard to case (with a
// warning); any other key is an error, since a misspelled section would
// otherwise be read as an empty one, and its resources planned for deletion.
// Project keys Cairn does not act on are warned of.
func (p *parser) topLevel(root *node, known []string) (sections, keys map[string]*node) {
	sections, keys = map[string]*node{}, map[string]*node{}
	if root == nil || root.kind != yaml.MappingNode {
		return sections, keys
	}
	for _, kv := range root.pairs {
		key := canonicalKey(kv.key.value, known)
		switch {
		case key == "":
			p.errorf(kv.key.rng, "Unknown top-level key", "%s %s%s", kv.key.value, keysDescription(known), eval.DidYouMean(kv.key.value, known))
			continue
		case key != kv.key.value:
			p.warnf(kv.key.rng, "Miscapitalized key", "%s looks like a miscapitalization of %s.", kv.key.value, key)
		}
		sections[key], keys[key] = kv.value, kv.key
	}
	p.unsupported(sections, keys)
	return sections, keys
}

// keysDescription says what the known top-level keys are, of a key that
// is not one of them.
func keysDescription(known []string) string {
	sections := strings.Join(programKeys, ", ")
	if len(known) == len(programKeys) {
		return "is not a section of a program; the sections are " + sections + "."
	}
	return "is neither a section of the program (" + sections + ") nor a key of a Pulumi project such as name, runtime or description."
}

// canonicalKey returns the known key that key spells, or "".
func canonicalKey(key string, known []string) string {
	for _, k := range known {
		if strings.EqualFold(k, key) {
			return k
		}
	}
	return ""
}

func decl(k, v *node, noun string) eval.Decl {
	return eval.Decl{Name: k.value, Noun: noun, NameRange: k.rng, DeclRange: hcl.RangeBetween(k.rng, v.rng)}
}

// entries calls f for each entry of a section that must be a mapping.
func (p *parser) entries(section *node, name string, f func(k, v *node)) {
	if section == nil || section.kind == yaml.ScalarNode && section.tag == "!!null" {
		return
	}
	if section.kind != yaml.MappingNode {
		p.errorf(section.rng, "Invalid section", "%s must be a mapping of names to declarations.", name)
		return
	}
	for _, kv := range section.pairs {
		if kv.key.value == "pulumi" {
			p.errorf(kv.key.rng, "Reserved name", "pulumi names the builtin variable ${pulumi.stack}, ${pulumi.project}, …; choose another name.")
			continue
		}
		f(kv.key, kv.value)
	}
}

// The fields of a config declaration.
var configFields = []string{"type", "default", "value", "secret", "items", "name", "description"}

// configs reads a config (or legacy configuration) section; a name in both
// is taken from config.
func (p *parser) configs(section *node, legacy bool, declared map[string]bool) {
	p.entries(section, "config", func(k, v *node) {
		if declared[k.value] {
			return
		}
		declared[k.value] = true
		p.config(k, v, legacy)
	})
}

// config reads one config declaration: {type, default, secret, items, name}
// or a value that is its default.
func (p *parser) config(k, v *node, legacy bool) {
	c := &eval.Config{Decl: decl(k, v, "config"), Key: k.value, Type: cty.NilType}
	var def, items *node
	if isConfigDecl(v) {
		fields := p.fields(v, "config "+k.value, configFields, legacy)
		if f := fields["type"]; f != nil {
			items = fieldValue(fields["items"])
			c.Type = p.configType(f.value, items)
		}
		def = fieldValue(fields["default"])
		if f := fields["value"]; f != nil && def == nil {
			def = f.value
		}
		if f := fields["secret"]; f != nil {
			b, ok := p.scalarValue(f.value)
			if !ok || b.Type() != cty.Bool {
				p.errorf(f.value.rng, "Invalid secret", "secret must be true or false.")
			} else {
				c.Secret = b.True()
			}
		}
		if f := fields["name"]; f != nil {
			if name, ok := stringLiteral(f.value); ok {
				c.Key = name
			}
		}
	} else {
		def = v
	}
	if def != nil {
		val := p.staticValue(def)
		c.Default = &hclsyntax.LiteralValueExpr{Val: val, SrcRange: def.rng}
		if c.Type == cty.NilType {
			c.Type = inferType(val)
		}
	}
	if c.Type == cty.NilType {
		p.errorf(k.rng, "Unknown config type", "Give config %s a type or a default, from which its type is inferred.", k.value)
		c.Type = cty.DynamicPseudoType
	}
	if c.Type == cty.DynamicPseudoType && c.Default == nil {
		// Its declaration is in error: asking for a value would say it twice.
		c.Default = &hclsyntax.LiteralValueExpr{Val: cty.DynamicVal, SrcRange: k.rng}
	}
	p.nodes = append(p.nodes, c)
}

func fieldValue(kv *pair) *node {
	if kv == nil {
		return nil
	}
	return kv.value
}

// isConfigDecl reports whether a config value is a declaration (a mapping
// of declaration fields) rather than a default.
func isConfigDecl(v *node) bool {
	if v.kind != yaml.MappingNode || len(v.pairs) == 0 {
		return false
	}
	for _, kv := range v.pairs {
		if canonicalKey(kv.key.value, configFields) == "" {
			return false
		}
	}
	return true
}

// configType reads a config type: string, boolean, integer, number,
// object, list<T>, or array with items {type: T}.
func (p *parser) configType(n *node, items *node) cty.Type {
	s, ok := stringLiteral(n)
	if ok {
		if ty, ok := parseConfigType(s); ok {
			if ty == cty.List(cty.DynamicPseudoType) && items != nil {
				if items.kind == yaml.MappingNode && len(items.pairs) == 1 && items.pairs[0].key.value == "type" {
					return cty.List(p.configType(items.pairs[0].value, nil))
				}
				p.errorf(items.rng, "Invalid items", "items must be a mapping {type: <element type>}.")
			}
			return ty
		}
	}
	p.errorf(n.rng, "Unknown config type", "%s is not a config type; the types are string, boolean, integer, number, object, list<T> and array (with items).", n.value)
	return cty.DynamicPseudoType
}

func parseConfigType(s string) (cty.Type, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "string":
		return cty.String, true
	case "bool", "boolean":
		return cty.Bool, true
	case "int", "integer", "number":
		return cty.Number, true
	case "object":
		return cty.Map(cty.DynamicPseudoType), true
	case "array", "list":
		return cty.List(cty.DynamicPseudoType), true
	}
	if inner, ok := strings.CutPrefix(s, "list<"); ok && strings.HasSuffix(inner, ">") {
		el, ok := parseConfigType(strings.TrimSuffix(inner, ">"))
		return cty.List(el), ok
	}
	return cty.NilType, false
}

// inferType is the type of a config from its default.
func inferType(v cty.Value) cty.Type {
	ty := v.Type()
	switch {
	case ty == cty.String || ty == cty.Number || ty == cty.Bool:
		return ty
	case ty.IsObjectType():
		return cty.Map(cty.DynamicPseudoType)
	case ty.IsTupleType():
		el := cty.NilType
		for _, t := range ty.TupleElementTypes() {
			if el != cty.NilType && t != el || !t.IsPrimitiveType() {
				return cty.List(cty.DynamicPseudoType)
			}
			el = t
		}
		if el == cty.NilType {
			el = cty.DynamicPseudoType
		}
		return cty.List(el)
	}
	return cty.DynamicPseudoType
}
