package yaml

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	yaml "go.yaml.in/yaml/v4"

	"github.com/cairn-iac/cairn/eval"
)

// The fields of a resource declaration. condition and metadata are
// leftovers of the CloudFormation-style syntax that are accepted and
// ignored.
var resourceFields = []string{"type", "name", "defaultProvider", "properties", "options", "get", "condition", "metadata"}

// resource reads one resource declaration.
func (p *parser) resource(k, v *node) {
	if v.kind != yaml.MappingNode {
		p.errorf(v.rng, "Invalid resource", "resources.%s must be a mapping with type, properties and options.", k.value)
		return
	}
	r := &eval.Resource{Decl: decl(k, v, "resource")}
	var props, get *node
	for _, kv := range v.pairs {
		field := canonicalKey(kv.key.value, resourceFields)
		switch {
		case field == "":
			p.unknownResourceField(k, kv.key)
			continue
		case field != kv.key.value:
			p.warnf(kv.key.rng, "Miscapitalized key", "%s looks like a miscapitalization of %s.", kv.key.value, field)
		}
		val := kv.value
		switch field {
		case "type":
			tok, ok := stringLiteral(val)
			if !ok || tok == "" {
				p.errorf(val.rng, "Invalid resource type", "The type of resource %s must be a type token such as random:RandomString.", k.value)
				continue
			}
			r.Type, r.TypeRange = tok, val.rng
		case "name":
			r.LogicalName = p.expr(val)
		case "defaultProvider":
			b, ok := p.scalarValue(val)
			if !ok || b.Type() != cty.Bool {
				p.errorf(val.rng, "Invalid defaultProvider", "defaultProvider must be true or false.")
				continue
			}
			r.DefaultProvider = b.True()
		case "properties":
			props = val
			r.Properties = p.expr(val)
		case "options":
			p.options(r, val)
		case "get":
			get = val
			r.Get = p.get(val)
		}
	}
	if r.Type == "" && r.TypeRange == (hcl.Range{}) {
		p.errorf(k.rng, "Missing resource type", "Resource %s needs a type, such as random:RandomString.", k.value)
	}
	if props != nil && get != nil {
		p.errorf(get.rng, "Conflicting fields", "Resource %s has both properties and get; get reads an existing resource, whose inputs are given under get.state.", k.value)
	}
	p.nodes = append(p.nodes, r)
}

// unknownResourceField reports a field a resource does not have, with a
// hint when it is an option written at the wrong level.
func (p *parser) unknownResourceField(res, key *node) {
	if opt := canonicalKey(key.value, optionNames); opt != "" {
		p.errorf(key.rng, "Misplaced resource option", "%s is a resource option; move it under options of resource %s.", opt, res.value)
		return
	}
	p.errorf(key.rng, "Unknown field", "Resource %s has no field %s; its fields are %s.%s",
		res.value, key.value, strings.Join(resourceFields[:6], ", "), eval.DidYouMean(key.value, resourceFields))
}

// get reads {id, state}.
func (p *parser) get(n *node) *eval.Get {
	fields := p.fields(n, "get", []string{"id", "state"}, false)
	if fields == nil {
		return nil
	}
	g := &eval.Get{Range: n.rng}
	if id := fields["id"]; id != nil {
		g.ID = p.expr(id.value)
	} else {
		p.errorf(n.rng, "Missing id", "get needs the id of the resource to read.")
	}
	if st := fields["state"]; st != nil {
		g.State = p.expr(st.value)
	}
	return g
}

// optionNames are the names of the resource options, with Cairn's count
// and forEach.
var optionNames = func() []string {
	var names []string
	for name := range optionFields(&eval.ResourceOptions{}, &eval.Expansion{}) {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}()

// optionFields maps each option name to the expression it sets.
func optionFields(o *eval.ResourceOptions, e *eval.Expansion) map[string]*hcl.Expression {
	return map[string]*hcl.Expression{
		"additionalSecretOutputs": &o.AdditionalSecretOutputs,
		"aliases":                 &o.Aliases,
		"customTimeouts":          &o.CustomTimeouts,
		"deleteBeforeReplace":     &o.DeleteBeforeReplace,
		"deletedWith":             &o.DeletedWith,
		"dependsOn":               &o.DependsOn,
		"envVarMappings":          &o.EnvVarMappings,
		"hideDiffs":               &o.HideDiffs,
		"ignoreChanges":           &o.IgnoreChanges,
		"import":                  &o.Import,
		"parent":                  &o.Parent,
		"pluginDownloadURL":       &o.PluginDownloadURL,
		"protect":                 &o.Protect,
		"provider":                &o.Provider,
		"providers":               &o.Providers,
		"replaceOnChanges":        &o.ReplaceOnChanges,
		"replaceWith":             &o.ReplaceWith,
		"replacementTrigger":      &o.ReplacementTrigger,
		"retainOnDelete":          &o.RetainOnDelete,
		"version":                 &o.Version,
		"count":                   &e.Count,
		"forEach":                 &e.ForEach,
	}
}

// options reads a resource's options. Keys that are not options are kept
// for the checker, which knows whether they are properties.
func (p *parser) options(r *eval.Resource, n *node) {
	if n.kind != yaml.MappingNode {
		p.errorf(n.rng, "Invalid options", "The options of resource %s must be a mapping of option names to values.", r.Name)
		return
	}
	fields := optionFields(&r.Options, &r.Expansion)
	for _, kv := range n.pairs {
		f := fields[kv.key.value]
		if f == nil {
			r.StrayOptions = append(r.StrayOptions, eval.Key{Name: kv.key.value, Range: kv.key.rng})
			continue
		}
		*f = p.expr(kv.value)
	}
	if r.Expansion.Count != nil && r.Expansion.ForEach != nil {
		p.errorf(r.Expansion.ForEach.Range(), "Conflicting options", "Resource %s has both count and forEach; use one of them.", r.Name)
	}
}
