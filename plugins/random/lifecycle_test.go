package random

import (
	"context"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/providertest"
)

func res(typ, name string, props map[string]any) providertest.Resource {
	return providertest.Resource{Type: tok(typ), Name: name, Properties: resource.MapFromGo(props)}
}

// output returns a recorded output of a resource, read through a secret.
func output(t *testing.T, s *providertest.Stack, name, key string) resource.Value {
	t.Helper()
	r := s.Find(name)
	if r == nil {
		t.Fatalf("%s is not in the state", name)
	}
	return r.Outputs[key].Unsecret()
}

func TestLifecycle(t *testing.T) {
	s := providertest.New(t, provider.Factories{Factory()})
	v1 := []providertest.Resource{
		res("RandomString", "str", map[string]any{"length": 12}),
		res("RandomPassword", "pw", map[string]any{"length": 20, "keepers": map[string]any{"rotation": "1"}}),
		res("RandomPet", "pet", map[string]any{}),
		res("RandomInteger", "int", map[string]any{"min": 1, "max": 1000}),
	}

	preview, err := s.Preview(v1...)
	providertest.Expect(t, "preview", preview, err, "create default", "create int", "create pet", "create proj-dev", "create pw", "create str")
	run, err := s.Up(v1...)
	providertest.Expect(t, "create", run, err, "create default", "create int", "create pet", "create proj-dev", "create pw", "create str")
	for name, key := range map[string]string{"str": "result", "pw": "result", "int": "result"} {
		if got, want := output(t, s, name, key), preview.Responses[name].Outputs[key].Unsecret(); !got.Equal(want) {
			t.Errorf("%s.%s: preview showed %v, the update created %v", name, key, want, got)
		}
	}
	if !s.Find("pw").Outputs["result"].IsSecret() || !s.Find("pw").Outputs["bcryptHash"].IsSecret() {
		t.Errorf("the password's outputs are not secret in the state")
	}
	if _, ok := s.Find("str").Outputs[seedKey]; ok {
		t.Errorf("the seed is an output")
	}
	before := map[string]resource.ID{}
	for _, n := range []string{"str", "pw", "pet", "int"} {
		before[n] = s.Find(n).ID
	}
	oldPassword := output(t, s, "pw", "result")

	run, err = s.Up(v1...)
	providertest.Expect(t, "no-change update", run, err, "same default", "same int", "same pet", "same proj-dev", "same pw", "same str")
	for n, id := range before {
		if s.Find(n).ID != id {
			t.Errorf("%s changed from %q to %q without a change", n, id, s.Find(n).ID)
		}
	}

	v2 := []providertest.Resource{
		res("RandomString", "str", map[string]any{"length": 13}),
		res("RandomPassword", "pw", map[string]any{"length": 20, "keepers": map[string]any{"rotation": "2"}}),
		res("RandomPet", "pet", map[string]any{}),
		res("RandomInteger", "int", map[string]any{"min": 1, "max": 1000}),
	}
	run, err = s.Up(v2...)
	providertest.Expect(t, "replacing update", run, err, "replace pw", "replace str", "same default", "same int", "same pet", "same proj-dev")
	if got := output(t, s, "str", "result").StringValue(); len(got) != 13 {
		t.Errorf("the replacement string %q has not 13 characters", got)
	}
	if output(t, s, "pw", "result").Equal(oldPassword) {
		t.Errorf("changing keepers kept the password")
	}
	oldPassword = output(t, s, "pw", "result")

	v3 := append([]providertest.Resource(nil), v2...)
	v3[1] = res("RandomPassword", "pw", map[string]any{"length": 20, "keepers": map[string]any{"rotation": "3"}})
	run, err = s.Up(v3...)
	providertest.Expect(t, "second rotation", run, err, "replace pw", "same default", "same int", "same pet", "same proj-dev", "same str")
	if output(t, s, "pw", "result").Equal(oldPassword) {
		t.Errorf("a second replacement drew the same password again")
	}

	run, err = s.Destroy()
	providertest.Expect(t, "destroy", run, err, "delete default", "delete int", "delete pet", "delete proj-dev", "delete pw", "delete str")
	if n := len(s.Snapshot.Resources); n != 0 {
		t.Errorf("%d resources are left after destroy", n)
	}
}

// A resource imported by ID is recorded as read, and a program that
// declares matching inputs then sees no change.
func TestLifecycleImport(t *testing.T) {
	s := providertest.New(t, provider.Factories{Factory()})
	res0, err := deploy.Import(context.Background(), deploy.Options{Project: providertest.Project, Stack: providertest.StackName,
		Host: provider.Factories{Factory()}}, nil, []deploy.ImportSpec{
		{Type: tok("RandomInteger"), Name: "int", ID: "15390,1,50000"},
		{Type: tok("RandomString"), Name: "str", ID: "hello-world"},
	})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	s.Snapshot = res0.Snapshot
	if got := output(t, s, "str", "result"); !got.Equal(resource.String("hello-world")) {
		t.Errorf("imported result %v", got)
	}
	run, err := s.Up(
		res("RandomInteger", "int", map[string]any{"min": 1, "max": 50000}),
		res("RandomString", "str", map[string]any{"length": 11}),
	)
	providertest.Expect(t, "update after import", run, err, "same default", "same int", "same proj-dev", "same str")
	if got := output(t, s, "int", "result"); !got.Equal(resource.Number(15390)) {
		t.Errorf("imported result %v", got)
	}
}
