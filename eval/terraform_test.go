package eval_test

import (
	"context"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/eval"
)

// tfKeys serves a package as a Terraform provider's: its data source
// getKey returns a key (sensitive, as its argument was) and a subject
// object whose other attributes the provider left out, being null.
type tfKeys struct{ *monitor }

func (tfKeys) Schema(_ context.Context, pkg, _ string) (*schema.Package, error) {
	str := schema.TypeSpec{Type: "string"}
	subject := schema.TypeSpec{Ref: "#/types/tk:index/Subject:Subject"}
	return &schema.Package{Name: pkg, Language: (&schema.Terraform{Source: "acme/tk"}).Language(),
		Functions: map[string]*schema.Function{"tk:index/getKey:getKey": {
			Inputs: &schema.ObjectTyp{Properties: map[string]*schema.Property{"private": {TypeSpec: str}}},
			Outputs: &schema.ObjectTyp{Properties: map[string]*schema.Property{
				"private": {TypeSpec: str}, "public": {TypeSpec: str}, "comment": {TypeSpec: str},
				"subject": {TypeSpec: schema.TypeSpec{Type: "array", Items: &subject}}}}}},
		Types: map[string]*schema.ObjectTyp{"tk:index/Subject:Subject": {Type: "object", Properties: map[string]*schema.Property{
			"name": {TypeSpec: str}, "country": {TypeSpec: str}}}},
	}, nil
}

func (tfKeys) Invoke(_ context.Context, req deploy.InvokeRequest) (*deploy.InvokeResponse, error) {
	return &deploy.InvokeResponse{Return: resource.Map{"private": req.Args["private"], "public": resource.String("pub"),
		"subject": resource.Array(resource.Object(resource.Map{"name": resource.String("n")}))}}, nil
}

// TestTerraformFunctionResult checks the result of a Terraform provider's
// data source: its objects have every attribute of their type (null where
// the provider left it out), and a secret argument makes the result
// secret only where the provider says so, as in Terraform.
func TestTerraformFunctionResult(t *testing.T) {
	key := &eval.Invoke{Decl: decl("key", "data source"), Token: "tk:index/getKey:getKey", Args: expr(t, `{ private = sensitive("k") }`)}
	out := func(name, src string) *eval.Output {
		return &eval.Output{Decl: decl(name, "output"), Value: expr(t, src)}
	}
	m := tfKeys{newMonitor()}
	prog := &eval.Program{Root: scope(key, out("public", `key.public`), out("comment", `key.comment == null`),
		out("country", `key.subject[0].country == null`), out("private", `key.private`)), Schemas: m}
	if err := prog.Run(context.Background(), deploy.RunInfo{Monitor: m, Project: "proj", Stack: "dev"}); err != nil {
		t.Fatal(err)
	}
	got := m.stackOutputs()
	for name, want := range map[string]resource.Value{"public": resource.String("pub"), "comment": resource.Bool(true),
		"country": resource.Bool(true), "private": resource.MakeSecret(resource.String("k"))} {
		if !got[name].Equal(want) {
			t.Errorf("output %s = %v, want %v", name, got[name], want)
		}
	}
}
