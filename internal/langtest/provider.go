package langtest

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/plugins/builtin"
	"github.com/cairn-iac/cairn/plugins/command"
	"github.com/cairn-iac/cairn/plugins/random"
	"github.com/cairn-iac/cairn/plugins/tfbuiltin"
)

// testProvider is an in-process provider of the package "test": resources
// echo their inputs and add a computed "result", unknown during a preview.
type testProvider struct {
	provider.Unimplemented
	pkg string
}

func (p *testProvider) Pkg() string { return p.pkg }

func (p *testProvider) GetPluginInfo(context.Context) (provider.PluginInfo, error) {
	return provider.PluginInfo{Version: "1.0.0"}, nil
}

func (p *testProvider) GetSchema(context.Context, provider.GetSchemaRequest) ([]byte, error) {
	s := testSchemas[p.pkg]
	if s == nil {
		return nil, provider.ErrNotImplemented
	}
	return s.Marshal()
}

func (p *testProvider) Check(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	return provider.CheckResponse{Inputs: req.News}, nil
}

// Diff replaces a resource whose name changes, and otherwise lets the
// engine compare the inputs.
func (p *testProvider) Diff(_ context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	if !req.OldInputs["name"].Equal(req.News["name"]) {
		return provider.DiffResponse{Changes: provider.DiffSome, ReplaceKeys: []string{"name"}, ChangedKeys: []string{"name"}}, nil
	}
	return provider.DiffResponse{Changes: provider.DiffUnknown}, nil
}

func (p *testProvider) Create(_ context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	if resource.TypeName(req.Type) == "Failing" {
		return provider.CreateResponse{}, errors.New("this resource always fails to create")
	}
	out := req.Inputs.Copy()
	if out == nil {
		out = resource.Map{}
	}
	out["result"] = resource.String(computed(req.Name))
	if resource.TypeName(req.Type) == "Widget" {
		out["publicUrl"] = resource.String("https://" + req.Name + ".example")
	}
	if req.Preview {
		out["result"] = resource.Unknown()
	}
	return provider.CreateResponse{ID: resource.ID(req.Name + "-id"), Outputs: out}, nil
}

func (p *testProvider) Update(_ context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	out := req.News.Copy()
	out["result"] = resource.String(computed(req.Name))
	return provider.UpdateResponse{Outputs: out}, nil
}

func (p *testProvider) Delete(context.Context, provider.DeleteRequest) error { return nil }

func (p *testProvider) Read(_ context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	inputs := req.Inputs
	if inputs == nil && strings.HasPrefix(string(req.ID), "existing-id") {
		inputs = resource.Map{"name": resource.String("adopted")} // what an import finds
	}
	out := inputs.Copy()
	if out == nil {
		out = resource.Map{}
	}
	out["result"] = resource.String("read " + string(req.ID))
	return provider.ReadResponse{ID: req.ID, Inputs: inputs, Outputs: out}, nil
}

func (p *testProvider) Invoke(_ context.Context, req provider.InvokeRequest) (provider.InvokeResponse, error) {
	switch resource.TypeName(req.Token) {
	case "getThing":
		name := req.Args["name"]
		if !name.IsString() {
			return provider.InvokeResponse{Failures: []provider.CheckFailure{{Property: "name", Reason: "a string is required"}}}, nil
		}
		return provider.InvokeResponse{Return: resource.Map{
			"name":  name,
			"upper": resource.String(strings.ToUpper(name.StringValue())),
			"tags":  resource.Array(resource.String("a"), resource.String("b")),
		}}, nil
	case "fail":
		return provider.InvokeResponse{}, errors.New("the function failed on purpose")
	case "lookupZone":
		zone := req.Args["zoneName"].StringValue()
		return provider.InvokeResponse{Return: resource.Map{
			"zoneId":      resource.String("Z-" + zone),
			"nameServers": resource.Array(resource.String("ns1."+zone), resource.String("ns2."+zone)),
		}}, nil
	}
	return provider.InvokeResponse{}, fmt.Errorf("unknown function %s", req.Token)
}

// computed is the deterministic "result" of a resource.
func computed(name string) string { return name + "-result" }

func prop(typ string) *schema.Property { return &schema.Property{TypeSpec: schema.TypeSpec{Type: typ}} }

func props(kv ...any) map[string]*schema.Property {
	out := map[string]*schema.Property{}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1].(*schema.Property)
	}
	return out
}

// testSchemas are the schemas of the test packages.
var testSchemas = map[string]*schema.Package{
	"test": func() *schema.Package {
		inputs := props(
			"value", &schema.Property{TypeSpec: schema.TypeSpec{Ref: "pulumi.json#/Any"}},
			"name", prop("string"),
			"length", prop("integer"),
			"flag", prop("boolean"),
			"tags", &schema.Property{TypeSpec: schema.TypeSpec{Type: "object", AdditionalProperties: &schema.TypeSpec{Type: "string"}}},
			"items", &schema.Property{TypeSpec: schema.TypeSpec{Type: "array", Items: &schema.TypeSpec{Type: "string"}}},
			"password", &schema.Property{TypeSpec: schema.TypeSpec{Type: "string"}, Secret: true},
			"settings", &schema.Property{TypeSpec: schema.TypeSpec{Ref: "#/types/test:index:Settings"}},
			"mode", &schema.Property{TypeSpec: schema.TypeSpec{Ref: "#/types/test:index:Mode"}},
			"asset", &schema.Property{TypeSpec: schema.TypeSpec{Ref: "pulumi.json#/Asset"}},
			"archive", &schema.Property{TypeSpec: schema.TypeSpec{Ref: "pulumi.json#/Archive"}},
		)
		outputs := props("result", prop("string"))
		for k, v := range inputs {
			outputs[k] = v
		}
		thing := &schema.Resource{InputProperties: inputs, Properties: outputs}
		return &schema.Package{
			Name: "test", Version: "1.0.0",
			Provider: &schema.Resource{InputProperties: props("region", prop("string"))},
			Resources: map[string]*schema.Resource{
				"test:index:Thing":   thing,
				"test:index:Failing": thing,
				"test:index:Needy":   {InputProperties: props("name", prop("string")), RequiredInputs: []string{"name"}, Properties: outputs},
				"test:index:Widget":  widget(),
			},
			Functions: map[string]*schema.Function{
				"test:index:getThing": {
					Inputs:  &schema.ObjectTyp{Properties: props("name", prop("string")), Required: []string{"name"}},
					Outputs: &schema.ObjectTyp{Properties: props("name", prop("string"), "upper", prop("string"))},
				},
				"test:index:fail": {Inputs: &schema.ObjectTyp{}},
				"test:index:lookupZone": {
					Inputs:  &schema.ObjectTyp{Properties: props("zoneName", prop("string")), Required: []string{"zoneName"}},
					Outputs: &schema.ObjectTyp{Properties: props("zoneId", prop("string"), "nameServers", &schema.Property{TypeSpec: schema.TypeSpec{Type: "array", Items: &schema.TypeSpec{Type: "string"}}})},
				},
			},
			Types: map[string]*schema.ObjectTyp{
				"test:index:Settings": {Type: "object", Properties: props("size", prop("integer"), "label", prop("string"))},
				"test:index:Mode":     {Type: "string", Enum: []schema.EnumValue{{Value: "fast"}, {Value: "slow"}}},
				"test:index:Rule": {Type: "object", Properties: props("fromPort", prop("integer"), "toPort", prop("integer"),
					"cidrBlocks", &schema.Property{TypeSpec: schema.TypeSpec{Type: "array", Items: &schema.TypeSpec{Type: "string"}}}),
					Required: []string{"fromPort"}},
				"test:index:WidgetSettings": {Type: "object", Properties: props("maxSize", prop("integer"), "logLevel", prop("string"))},
			},
		}
	}(),
}

// widget is a resource whose properties are camelCase and nested, for
// languages that spell them otherwise (HCL's snake_case).
func widget() *schema.Resource {
	inputs := props(
		"displayName", prop("string"),
		"maxSize", prop("integer"),
		"settings", &schema.Property{TypeSpec: schema.TypeSpec{Ref: "#/types/test:index:WidgetSettings"}},
		"ingressRules", &schema.Property{TypeSpec: schema.TypeSpec{Type: "array", Items: &schema.TypeSpec{Ref: "#/types/test:index:Rule"}}},
		"extraTags", &schema.Property{TypeSpec: schema.TypeSpec{Type: "object", AdditionalProperties: &schema.TypeSpec{Type: "string"}}},
	)
	outputs := props("result", prop("string"), "publicUrl", prop("string"))
	for k, v := range inputs {
		outputs[k] = v
	}
	return &schema.Resource{InputProperties: inputs, Properties: outputs, RequiredInputs: []string{"displayName"}}
}

// Host serves the test provider and the built-in providers; other
// stacks' outputs are made up (plain and secret are the values Pulumi's
// l1-stack-reference expects).
var Host = provider.Factories{
	{Pkg: "test", Version: "1.0.0", New: func(context.Context) (provider.Provider, error) { return &testProvider{pkg: "test"}, nil }},
	random.Factory(),
	command.Factory(),
	tfbuiltin.Factory("", nil),
	builtin.Factory(builtin.Options{Stacks: builtin.StackReaderFunc(func(_ context.Context, name string) (resource.Map, error) {
		return resource.Map{
			"bucket":   resource.String("bucket-of-" + name),
			"password": resource.MakeSecret(resource.String("hunter2")),
			"plain":    resource.String("plain"),
			"secret":   resource.MakeSecret(resource.String("secret")),
		}, nil
	})}),
}
