package tfbuiltin

import (
	"context"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/providertest"
)

func TestSchema(t *testing.T) {
	p, err := Factory("", nil).New(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	providertest.CheckSchema(t, p, schemaJSON, Version)
}

// TestLifecycle runs terraform_data as Terraform runs it: a random ID,
// output following input once applied (unknown in a preview of a
// change), a replacement with a new ID when triggers_replace changes (its
// type too), and a secret input kept secret in output.
func TestLifecycle(t *testing.T) {
	s := providertest.New(t, provider.Factories{Factory("", nil)})
	data := func(input, trigger resource.Value) providertest.Resource {
		return providertest.Resource{Type: DataType, Name: "d", Properties: resource.Map{"input": input, "triggers_replace": trigger}}
	}
	out := func(k string) resource.Value { return s.Find("d").Outputs[k] }

	run, err := s.Preview(data(resource.String("a"), resource.Number(1)))
	providertest.Expect(t, "preview", run, err, "create d", "create default", "create proj-dev")
	run, err = s.Up(data(resource.String("a"), resource.Number(1)))
	providertest.Expect(t, "create", run, err, "create d", "create default", "create proj-dev")
	id := out("id")
	if !out("output").Equal(resource.String("a")) || len(id.StringValue()) != 36 || string(s.Find("d").ID) != id.StringValue() {
		t.Fatalf("created %v", resource.Object(s.Find("d").Outputs))
	}
	if out("__meta").StringValue() != `{"schema_version":"0"}` {
		t.Errorf("__meta = %v", out("__meta"))
	}

	run, err = s.Up(data(resource.String("a"), resource.Number(1)))
	providertest.Expect(t, "no change", run, err, "same d", "same default", "same proj-dev")

	run, err = s.Preview(data(resource.String("b"), resource.Number(1)))
	providertest.Expect(t, "preview an input change", run, err, "same default", "same proj-dev", "update d")
	if planned := run.Responses["d"].Outputs["output"]; !planned.ContainsUnknowns() {
		t.Errorf("a preview of an input change plans output %v, not unknown", planned)
	}
	run, err = s.Up(data(resource.MakeSecret(resource.String("b")), resource.Number(1)))
	providertest.Expect(t, "input change", run, err, "same default", "same proj-dev", "update d")
	if !out("output").IsSecret() || !out("id").Equal(id) {
		t.Errorf("after an input change: output %v, id %v (was %v)", out("output"), out("id"), id)
	}

	run, err = s.Up(data(resource.String("b"), resource.String("1")))
	providertest.Expect(t, "trigger change", run, err, "replace d", "same default", "same proj-dev")
	if out("id").Equal(id) {
		t.Errorf("a replacement kept the ID %v", id)
	}

	run, err = s.Destroy()
	providertest.Expect(t, "destroy", run, err, "delete d", "delete default", "delete proj-dev")
}

// TestMove takes over a null_resource's state as Terraform's provider
// does: triggers become triggers_replace, id and private data stay; other
// types are refused.
func TestMove(t *testing.T) {
	p := &Provider{}
	src := resource.Map{"id": resource.String("123"), "triggers": resource.Object(resource.Map{"k": resource.String("v")}),
		"__meta": resource.String(`{"schema_version":"0","private":"cA=="}`)}
	resp, err := p.Move(context.Background(), provider.MoveRequest{Type: DataType, SourceType: "null:index/resource:Resource", SourceOutputs: src})
	if err != nil {
		t.Fatal(err)
	}
	trigger := resource.Object(resource.Map{"k": resource.String("v")})
	if !resource.Object(resp.Inputs).Equal(resource.Object(resource.Map{"triggers_replace": trigger})) {
		t.Errorf("inputs %v", resource.Object(resp.Inputs))
	}
	want := resource.Map{"id": resource.String("123"), "triggers_replace": trigger, "__meta": resource.String(`{"schema_version":"0","private":"cA=="}`)}
	if !resource.Object(resp.Outputs).Equal(resource.Object(want)) {
		t.Errorf("outputs %v", resource.Object(resp.Outputs))
	}
	if _, err := p.Move(context.Background(), provider.MoveRequest{Type: DataType, SourceType: "random:index/id:Id", SourceOutputs: src}); err == nil {
		t.Error("a random_id moved to a terraform_data")
	}
}
