package builtin

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/providertest"
)

// A program reads another stack's outputs the way the SDKs do, with
// ReadResource; its secret outputs stay secret in the program and the state.
func TestLifecycleReadStackReference(t *testing.T) {
	s := providertest.New(t, provider.Factories{Factory(Options{Stacks: other})})
	var got resource.Map
	read := func(ctx context.Context, m deploy.Monitor, root resource.URN) error {
		resp, err := m.ReadResource(ctx, deploy.ReadResourceRequest{Type: StackReferenceType, Name: "net", ID: "org/net/prod",
			Parent: root, Properties: resource.Map{"name": resource.String("org/net/prod")}})
		if err == nil {
			got = resp.Outputs
		}
		return err
	}
	run, err := s.Program(providertest.Mode{}, read)
	providertest.Expect(t, "read", run, err, "create default", "create proj-dev", "read net")
	outs := got["outputs"].ObjectValue()
	if !outs["vpcId"].Equal(resource.String("vpc-1")) || !outs["password"].IsSecret() {
		t.Errorf("the program got %v", got["outputs"])
	}
	recorded := s.Find("net")
	if !recorded.External || !recorded.Outputs["outputs"].ObjectValue()["password"].IsSecret() ||
		!recorded.Outputs["outputs"].ObjectValue()["nested"].ContainsSecrets() {
		t.Errorf("the state holds %v", resource.Object(recorded.Outputs))
	}

	run, err = s.Program(providertest.Mode{}, read)
	providertest.Expect(t, "read again", run, err, "read net", "same default", "same proj-dev")

	_, err = s.Program(providertest.Mode{}, func(ctx context.Context, m deploy.Monitor, root resource.URN) error {
		_, err := m.ReadResource(ctx, deploy.ReadResourceRequest{Type: StackReferenceType, Name: "gone", ID: "org/net/gone",
			Parent: root, Properties: resource.Map{"name": resource.String("org/net/gone")}})
		return err
	})
	if err == nil || !strings.Contains(err.Error(), `stack "org/net/gone" does not exist in this backend`) {
		t.Errorf("reading a missing stack: err = %v", err)
	}
}

// A stack reference registered as a resource (deprecated, as in Pulumi)
// is created, kept, updated when the other stack's outputs change, and
// replaced when it names another stack.
func TestLifecycleRegisteredStackReference(t *testing.T) {
	stacks := stacks{"prod": {"url": resource.String("https://a")}, "dev": {"url": resource.String("https://b")}}
	s := providertest.New(t, provider.Factories{Factory(Options{Stacks: stacks})})
	ref := func(name string) providertest.Resource {
		return providertest.Resource{Type: StackReferenceType, Name: "ref", Properties: resource.Map{"name": resource.String(name)}}
	}
	url := func() resource.Value { return s.Find("ref").Outputs["outputs"].ObjectValue()["url"] }

	run, err := s.Up(ref("prod"))
	providertest.Expect(t, "create", run, err, "create default", "create proj-dev", "create ref")
	run, err = s.Up(ref("prod"))
	providertest.Expect(t, "no change", run, err, "same default", "same proj-dev", "same ref")
	stacks["prod"] = resource.Map{"url": resource.String("https://c")}
	run, err = s.Up(ref("prod"))
	providertest.Expect(t, "other stack changed", run, err, "same default", "same proj-dev", "update ref")
	if !url().Equal(resource.String("https://c")) {
		t.Errorf("url = %v after the other stack changed", url())
	}
	run, err = s.Up(ref("dev"))
	providertest.Expect(t, "renamed", run, err, "replace ref", "same default", "same proj-dev")
	if !url().Equal(resource.String("https://b")) {
		t.Errorf("url = %v after the rename", url())
	}
	run, err = s.Destroy()
	providertest.Expect(t, "destroy", run, err, "delete default", "delete proj-dev", "delete ref")
}

// A stash keeps its first value across changes of its input until it is
// replaced.
func TestLifecycleStash(t *testing.T) {
	s := providertest.New(t, provider.Factories{Factory(Options{})})
	stash := func(v string) providertest.Resource {
		return providertest.Resource{Type: StashType, Name: "st", Properties: resource.Map{"input": resource.String(v)}}
	}
	value := func(k string) resource.Value { return s.Find("st").Outputs[k] }

	run, err := s.Up(stash("first"))
	providertest.Expect(t, "create", run, err, "create default", "create proj-dev", "create st")
	run, err = s.Up(stash("first"))
	providertest.Expect(t, "no change", run, err, "same default", "same proj-dev", "same st")
	run, err = s.Up(stash("second"))
	providertest.Expect(t, "new input", run, err, "same default", "same proj-dev", "update st")
	if !value("output").Equal(resource.String("first")) || !value("input").Equal(resource.String("second")) {
		t.Errorf("after an input change: input %v, output %v", value("input"), value("output"))
	}
	run, err = s.Update(providertest.Mode{Replaces: []string{string(providertest.URN(StashType, "st"))}}, stash("third"))
	providertest.Expect(t, "replace", run, err, "replace st", "same default", "same proj-dev")
	if !value("output").Equal(resource.String("third")) {
		t.Errorf("after a replacement: output %v", value("output"))
	}
	run, err = s.Destroy()
	providertest.Expect(t, "destroy", run, err, "delete default", "delete proj-dev", "delete st")
}
