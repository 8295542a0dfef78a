package tfplugin

import (
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// Type tokens. A Terraform provider's resource types, data sources and
// functions get the tokens Pulumi's own bridge of Terraform providers
// gives them, so that state and programs written for one fit the other:
//
//	null_resource      resource     null:index/resource:Resource
//	null_data_source   data source  null:index/getDataSource:getDataSource
//	noop               function     null:functions:noop
//
// (the type name less its package prefix, in camelCase for the module
// and PascalCase for the name). Ephemeral resources, which Pulumi's
// bridge does not have, are functions of the module ephemeral:
//
//	random_password    ephemeral    random:ephemeral/password:Password
// Property names are the provider's
// attribute names as they are: the schema records each name Terraform
// gives (see schema.Terraform), so HCL writes exactly what Terraform does.

// resourceToken is the type token of a resource type of package pkg.
func resourceToken(pkg, typ string) string {
	name := pascal(strings.TrimPrefix(typ, pkg+"_"))
	return pkg + ":index/" + lowerFirst(name) + ":" + name
}

// dataToken is the function token of a data source of package pkg.
func dataToken(pkg, typ string) string {
	name := "get" + pascal(strings.TrimPrefix(typ, pkg+"_"))
	return pkg + ":index/" + name + ":" + name
}

// ephemeralToken is the function token of an ephemeral resource type of
// package pkg.
func ephemeralToken(pkg, typ string) string {
	name := pascal(strings.TrimPrefix(typ, pkg+"_"))
	return pkg + ":ephemeral/" + lowerFirst(name) + ":" + name
}

// functionToken is the function token of a provider function.
func functionToken(pkg, name string) string { return pkg + ":functions:" + name }

func pascal(s string) string {
	parts := strings.Split(s, "_")
	for i, p := range parts {
		if p != "" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, "")
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// packageSchema is the Pulumi package schema of a provider's schema.
type packageSchema struct {
	*schema.Package
	Parameterization *parameterization `json:"parameterization,omitempty"`
}

// parameterization says the package is Cairn's terraform-provider
// parameterized with Parameter.
type parameterization struct {
	BaseProvider struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"baseProvider"`
	Parameter []byte `json:"parameter"`
}

// schemaGen builds a package schema.
type schemaGen struct {
	pkg   *schema.Package
	types map[string]*schema.ObjectTyp
}

// buildSchema converts a provider's schema into a package schema.
func buildSchema(pkg, version, source string, s *tfplugin6.GetProviderSchema_Response) *schema.Package {
	g := &schemaGen{pkg: &schema.Package{
		Name: pkg, Version: version, DisplayName: source,
		Description: "The Terraform provider " + source + ", version " + version + ".",
		Resources:   map[string]*schema.Resource{}, Functions: map[string]*schema.Function{},
		Language: (&schema.Terraform{Source: source}).Language(),
	}, types: map[string]*schema.ObjectTyp{}}
	g.pkg.Types = g.types
	if b := s.GetProvider().GetBlock(); b != nil {
		in, req := g.inputs(b, "Provider")
		g.pkg.Provider = &schema.Resource{Description: b.GetDescription(), InputProperties: in, RequiredInputs: req}
		g.pkg.Config = &schema.Config{Variables: in, Required: req}
	}
	for typ, rs := range s.GetResourceSchemas() {
		tok := resourceToken(pkg, typ)
		name := tok[strings.LastIndexByte(tok, ':')+1:]
		b := rs.GetBlock()
		in, req := g.inputs(b, name)
		g.pkg.Resources[tok] = &schema.Resource{Description: b.GetDescription(), InputProperties: in, RequiredInputs: req,
			Properties: g.outputs(b, name), Language: (&schema.Terraform{Resource: typ}).Language()}
	}
	for typ, ds := range s.GetDataSourceSchemas() {
		tok := dataToken(pkg, typ)
		name := pascal(tok[strings.LastIndexByte(tok, ':')+1:])
		b := ds.GetBlock()
		in, req := g.inputs(b, name)
		g.pkg.Functions[tok] = &schema.Function{Description: b.GetDescription(),
			Inputs:   &schema.ObjectTyp{Type: "object", Properties: in, Required: req},
			Outputs:  &schema.ObjectTyp{Type: "object", Properties: g.outputs(b, name)},
			Language: (&schema.Terraform{DataSource: typ}).Language()}
	}
	for typ, es := range s.GetEphemeralResourceSchemas() {
		tok := ephemeralToken(pkg, typ)
		name := "Ephemeral" + tok[strings.LastIndexByte(tok, ':')+1:]
		b := es.GetBlock()
		in, req := g.inputs(b, name)
		g.pkg.Functions[tok] = &schema.Function{Description: b.GetDescription(),
			Inputs:   &schema.ObjectTyp{Type: "object", Properties: in, Required: req},
			Outputs:  &schema.ObjectTyp{Type: "object", Properties: g.outputs(b, name)},
			Language: (&schema.Terraform{Ephemeral: typ}).Language()}
	}
	for name, fn := range s.GetFunctions() {
		desc := fn.GetDescription()
		if desc == "" {
			desc = fn.GetSummary()
		}
		ret := schema.TypeSpec{Ref: "pulumi.json#/Any"}
		if t, err := typeOf(fn.GetReturn().GetType()); err == nil {
			ret = g.typeSpec(t, "Function"+pascal(name)+"Result")
		}
		g.pkg.Functions[functionToken(pkg, name)] = &schema.Function{Description: desc,
			Inputs: &schema.ObjectTyp{Type: "object", Properties: map[string]*schema.Property{
				"arguments": {TypeSpec: schema.TypeSpec{Type: "array", Items: &schema.TypeSpec{Ref: "pulumi.json#/Any"}},
					Description: "The function's arguments, in order."}}},
			Outputs:  &schema.ObjectTyp{Type: "object", Properties: map[string]*schema.Property{"result": {TypeSpec: ret}}},
			Language: (&schema.Terraform{Function: name}).Language()}
	}
	return g.pkg
}

func typeOf(data []byte) (cty.Type, error) { return attrType(&attr{Type: data}) }

// inputs are the properties of a block a configuration may set (its
// required and optional attributes and its nested blocks), and the
// required ones.
func (g *schemaGen) inputs(b *block, name string) (map[string]*schema.Property, []string) {
	props := map[string]*schema.Property{}
	var req []string
	for _, a := range b.GetAttributes() {
		if !a.GetRequired() && !a.GetOptional() {
			continue
		}
		props[a.GetName()] = g.attribute(a, name)
		if a.GetRequired() {
			req = append(req, a.GetName())
		}
	}
	for _, nb := range b.GetBlockTypes() {
		props[nb.GetTypeName()] = g.nested(nb, name)
		if nb.GetMinItems() > 0 {
			req = append(req, nb.GetTypeName())
		}
	}
	sort.Strings(req)
	return props, req
}

// outputs are the properties of a block's values: its attributes but the
// write-only ones, and its nested blocks.
func (g *schemaGen) outputs(b *block, name string) map[string]*schema.Property {
	props := map[string]*schema.Property{}
	for _, a := range b.GetAttributes() {
		if !a.GetWriteOnly() {
			props[a.GetName()] = g.attribute(a, name)
		}
	}
	for _, nb := range b.GetBlockTypes() {
		props[nb.GetTypeName()] = g.nested(nb, name)
	}
	return props
}

// attribute is the property of an attribute.
func (g *schemaGen) attribute(a *attr, owner string) *schema.Property {
	p := &schema.Property{Description: a.GetDescription(), Secret: a.GetSensitive(), DeprecationMessage: deprecation(a)}
	if a.GetWriteOnly() {
		p.Language = (&schema.Terraform{WriteOnly: true}).Language()
	}
	t, err := attrType(a)
	if err != nil {
		p.TypeSpec = schema.TypeSpec{Ref: "pulumi.json#/Any"}
		return p
	}
	p.TypeSpec = g.typeSpec(t, owner+pascal(a.GetName()))
	return p
}

func deprecation(a *attr) string {
	switch {
	case a.GetDeprecationMessage() != "":
		return a.GetDeprecationMessage()
	case a.GetDeprecated():
		return a.GetName() + " is deprecated."
	}
	return ""
}

// nested is the property of a nested block type: an object type of the
// package, alone or in a collection as its nesting says.
func (g *schemaGen) nested(nb *nested, owner string) *schema.Property {
	name := owner + pascal(nb.GetTypeName())
	in, req := g.inputs(nb.GetBlock(), name)
	outs := g.outputs(nb.GetBlock(), name)
	for k, v := range in {
		outs[k] = v
	}
	tok := g.pkg.Name + ":index/" + name + ":" + name
	g.types[tok] = &schema.ObjectTyp{Type: "object", Description: nb.GetBlock().GetDescription(), Properties: outs, Required: req}
	ref := schema.TypeSpec{Ref: "#/types/" + tok}
	ts := ref
	nesting := strings.ToLower(nb.GetNesting().String())
	switch nb.GetNesting() {
	case tfplugin6.Schema_NestedBlock_LIST, tfplugin6.Schema_NestedBlock_SET:
		ts = schema.TypeSpec{Type: "array", Items: &ref}
	case tfplugin6.Schema_NestedBlock_MAP:
		ts = schema.TypeSpec{Type: "object", AdditionalProperties: &ref}
	}
	t := &schema.Terraform{Nesting: nesting, MinItems: int(nb.GetMinItems()), MaxItems: int(nb.GetMaxItems())}
	return &schema.Property{TypeSpec: ts, Description: nb.GetBlock().GetDescription(), Language: t.Language()}
}

// typeSpec is the type spec of a cty type; object types become object
// types of the package named name.
func (g *schemaGen) typeSpec(t cty.Type, name string) schema.TypeSpec {
	switch {
	case t == cty.String:
		return schema.TypeSpec{Type: "string"}
	case t == cty.Number:
		return schema.TypeSpec{Type: "number"}
	case t == cty.Bool:
		return schema.TypeSpec{Type: "boolean"}
	case t.IsListType() || t.IsSetType():
		items := g.typeSpec(t.ElementType(), name)
		return schema.TypeSpec{Type: "array", Items: &items}
	case t.IsMapType():
		elem := g.typeSpec(t.ElementType(), name)
		return schema.TypeSpec{Type: "object", AdditionalProperties: &elem}
	case t.IsObjectType():
		props := map[string]*schema.Property{}
		for k, at := range t.AttributeTypes() {
			props[k] = &schema.Property{TypeSpec: g.typeSpec(at, name+pascal(k))}
		}
		tok := g.pkg.Name + ":index/" + name + ":" + name
		g.types[tok] = &schema.ObjectTyp{Type: "object", Properties: props}
		return schema.TypeSpec{Ref: "#/types/" + tok}
	}
	return schema.TypeSpec{Ref: "pulumi.json#/Any"}
}
