package hcl

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// isOverride reports whether a file is an override file: override.tf,
// *_override.tf and their .tf.json, .tofu, .tofu.json (and .hcl) twins.
func isOverride(path string) bool {
	name := filepath.Base(path)
	for _, ext := range []string{".tf.json", ".tf", ".tofu.json", ".tofu", ".hcl"} {
		if base, ok := strings.CutSuffix(name, ext); ok {
			return base == "override" || strings.HasSuffix(base, "_override")
		}
	}
	return false
}

// overridable are the blocks an override file may hold.
var overridable = map[string]bool{"resource": true, "data": true, "variable": true, "output": true, "module": true,
	"provider": true, "locals": true, "terraform": true}

// override merges the blocks of an override file into those of the
// primary files, as Terraform merges them: each block replaces the
// arguments of the block of the same kind and name (a provider is known by
// its name and alias) and the nested blocks of the types it has (a
// lifecycle block is merged argument by argument); each local value
// replaces the one of the same name; a terraform block adds its
// settings. A block that overrides nothing is an error.
func (m *module) override(blocks []*hcl.Block, over []*hcl.Block) []*hcl.Block {
	for _, o := range over {
		if !overridable[o.Type] {
			m.errorf(o.DefRange, "Unsupported block in override file",
				"An override file may override resource, data, variable, output, module, provider, locals and terraform blocks, not %s blocks; move it to a file whose name does not end in override.", o.Type)
			continue
		}
		switch o.Type {
		case "terraform":
			blocks = append(blocks, o)
			continue
		case "locals":
			m.overrideLocals(blocks, o)
			continue
		}
		key := m.blockKey(o)
		found := false
		for i, b := range blocks {
			if b.Type == o.Type && m.blockKey(b) == key {
				merged := *b
				merged.Body = mergedBody{base: b.Body, over: o.Body}
				blocks[i], found = &merged, true
				break
			}
		}
		if !found {
			what := o.Type + " " + strings.Join(quotedLabels(o.Labels), " ")
			m.errorf(o.DefRange, fmt.Sprintf("Missing base %s block for override", o.Type),
				"There is no %s in a primary configuration file; an override file can only change blocks declared in the others.", what)
		}
	}
	return blocks
}

// overrideLocals makes each local value of an override locals block
// replace the one of the same name.
func (m *module) overrideLocals(blocks []*hcl.Block, o *hcl.Block) {
	attrs, diags := o.Body.JustAttributes()
	m.report(diags)
	for _, a := range sortedAttributes(attrs) {
		found := false
		for i, b := range blocks {
			if b.Type != "locals" {
				continue
			}
			if base, _ := b.Body.JustAttributes(); base[a.Name] != nil {
				merged := *b
				merged.Body = mergedBody{base: b.Body, over: attrsBody{attrs: hcl.Attributes{a.Name: a}, rng: o.DefRange}}
				blocks[i], found = &merged, true
				break
			}
		}
		if !found {
			m.errorf(a.NameRange, "Missing base local value for override",
				"There is no local value %q in a primary configuration file; an override file can only change local values declared in the others.", a.Name)
		}
	}
}

// blockKey is what identifies a block among those of its type: its
// labels, and a provider's alias.
func (m *module) blockKey(b *hcl.Block) string {
	key := strings.Join(b.Labels, "\x00")
	if b.Type == "provider" {
		content, _, _ := b.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "alias"}}})
		if a := content.Attributes["alias"]; a != nil {
			if v, diags := a.Expr.Value(nil); !diags.HasErrors() && v.Type() == cty.String && !v.IsNull() {
				key += "\x00" + v.AsString()
			}
		}
	}
	return key
}

func quotedLabels(labels []string) []string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = fmt.Sprintf("%q", l)
	}
	return out
}

// mergedBody is a block's body with an override's merged in: the
// override's arguments replace the base's, and its nested blocks of a type
// replace all of the base's of that type (static or dynamic), but a
// lifecycle block, which is merged argument by argument.
type mergedBody struct{ base, over hcl.Body }

// Content implements hcl.Body: either body may give a required argument.
func (b mergedBody) Content(s *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	relaxed := optional(s)
	base, diags := b.base.Content(relaxed)
	over, ds := b.over.Content(relaxed)
	diags = append(diags, ds...)
	content := merge(base, over)
	diags = append(diags, b.missing(s, content)...)
	return content, diags
}

// missing reports the required arguments of s that neither body gives.
func (b mergedBody) missing(s *hcl.BodySchema, content *hcl.BodyContent) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, a := range s.Attributes {
		if a.Required && content.Attributes[a.Name] == nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing required argument",
				Detail: fmt.Sprintf("The argument %q is required, but no definition was found.", a.Name), Subject: b.MissingItemRange().Ptr()})
		}
	}
	return diags
}

// PartialContent implements hcl.Body.
func (b mergedBody) PartialContent(s *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	relaxed := optional(s)
	base, baseRest, diags := b.base.PartialContent(relaxed)
	over, overRest, ds := b.over.PartialContent(relaxed)
	diags = append(diags, ds...)
	content := merge(base, over)
	diags = append(diags, b.missing(s, content)...)
	return content, mergedBody{base: baseRest, over: overRest}, diags
}

// JustAttributes implements hcl.Body.
func (b mergedBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) {
	attrs, diags := b.base.JustAttributes()
	over, ds := b.over.JustAttributes()
	diags = append(diags, ds...)
	out := hcl.Attributes{}
	for k, a := range attrs {
		out[k] = a
	}
	for k, a := range over {
		out[k] = a
	}
	return out, diags
}

// MissingItemRange implements hcl.Body.
func (b mergedBody) MissingItemRange() hcl.Range { return b.base.MissingItemRange() }

// optional is a schema with no required argument.
func optional(s *hcl.BodySchema) *hcl.BodySchema {
	out := &hcl.BodySchema{Blocks: s.Blocks}
	for _, a := range s.Attributes {
		a.Required = false
		out.Attributes = append(out.Attributes, a)
	}
	return out
}

// merge merges the content of an override into the base's.
func merge(base, over *hcl.BodyContent) *hcl.BodyContent {
	out := &hcl.BodyContent{Attributes: hcl.Attributes{}, MissingItemRange: base.MissingItemRange}
	for k, a := range base.Attributes {
		out.Attributes[k] = a
	}
	for k, a := range over.Attributes {
		out.Attributes[k] = a
	}
	replaced := map[string]bool{}
	for _, o := range over.Blocks {
		replaced[nestedType(o)] = true
	}
	var baseLifecycle *hcl.Block
	for _, b := range base.Blocks {
		if b.Type == "lifecycle" {
			baseLifecycle = b
		}
		if !replaced[nestedType(b)] {
			out.Blocks = append(out.Blocks, b)
		}
	}
	for _, o := range over.Blocks {
		if o.Type == "lifecycle" && baseLifecycle != nil {
			merged := *baseLifecycle
			merged.Body = mergedBody{base: baseLifecycle.Body, over: o.Body}
			o = &merged
		}
		out.Blocks = append(out.Blocks, o)
	}
	return out
}

// nestedType is the type of the blocks a nested block makes: a dynamic
// block's label, or its own type.
func nestedType(b *hcl.Block) string {
	if b.Type == "dynamic" && len(b.Labels) == 1 {
		return b.Labels[0]
	}
	return b.Type
}

// attrsBody is a body of the given arguments only.
type attrsBody struct {
	attrs hcl.Attributes
	rng   hcl.Range
}

// Content implements hcl.Body.
func (b attrsBody) Content(s *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	c, _, diags := b.PartialContent(s)
	return c, diags
}

// PartialContent implements hcl.Body.
func (b attrsBody) PartialContent(s *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	c := &hcl.BodyContent{Attributes: hcl.Attributes{}, MissingItemRange: b.rng}
	rest := hcl.Attributes{}
	for k, a := range b.attrs {
		rest[k] = a
	}
	for _, as := range s.Attributes {
		if a := rest[as.Name]; a != nil {
			c.Attributes[as.Name] = a
			delete(rest, as.Name)
		}
	}
	return c, attrsBody{attrs: rest, rng: b.rng}, nil
}

// JustAttributes implements hcl.Body.
func (b attrsBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) { return b.attrs, nil }

// MissingItemRange implements hcl.Body.
func (b attrsBody) MissingItemRange() hcl.Range { return b.rng }
