package yaml_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/langtest"
)

// TestRoundTrip drives the engine from YAML with the test provider and
// the built-in random provider: create, then change the program so that
// one resource is updated, two replaced, one deleted and one created,
// then destroy.
func TestRoundTrip(t *testing.T) {
	s := langtest.NewStack(t, load)
	s.Write("Pulumi.yaml", `name: roundtrip
runtime: yaml
resources:
  keep: { type: test:index:Thing, properties: { name: keep } }
  change: { type: test:index:Thing, properties: { name: change, length: 1 } }
  swap: { type: test:index:Thing, properties: { name: before, value: "${keep.result}" } }
  gone: { type: test:index:Thing, properties: { name: gone } }
  password: { type: random:RandomString, properties: { length: 8 } }
outputs:
  swap: ${swap.name}
  password: ${password.result}
`)
	langtest.Equal(t, "first up", s.Up(), []string{"create change", "create default", "create default", "create gone", "create keep",
		"create password", "create roundtrip-test", "create swap"})
	first := s.Find("roundtrip-test").Outputs["password"]
	langtest.Equal(t, "password length", len(first.StringValue()), 8)
	langtest.Equal(t, "outputs", s.Find("roundtrip-test").Outputs["swap"], resource.String("before"))

	s.Write("Pulumi.yaml", `name: roundtrip
runtime: yaml
resources:
  keep: { type: test:index:Thing, properties: { name: keep } }
  change: { type: test:index:Thing, properties: { name: change, length: 2 } }
  swap: { type: test:index:Thing, properties: { name: after, value: "${keep.result}" } }
  added: { type: test:index:Thing, properties: { name: added } }
  password: { type: random:RandomString, properties: { length: 12 } }
outputs:
  swap: ${swap.name}
  password: ${password.result}
`)
	langtest.Equal(t, "second up", s.Up(), []string{"create added", "delete gone", "replace password", "replace swap", "update change"})
	langtest.Equal(t, "new password length", len(s.Find("roundtrip-test").Outputs["password"].StringValue()), 12)
	langtest.Equal(t, "updated", s.Find("change").Inputs["length"], resource.Number(2))
	langtest.Equal(t, "replaced", s.Find("swap").Inputs["name"], resource.String("after"))
	if s.Find("gone") != nil {
		t.Error("gone is still in the state")
	}
	langtest.Equal(t, "outputs", s.Find("roundtrip-test").Outputs["swap"], resource.String("after"))

	langtest.Equal(t, "unchanged up", s.Up(), []string(nil))

	langtest.Equal(t, "destroy", s.Destroy(), []string{"delete added", "delete change", "delete default", "delete default", "delete keep",
		"delete password", "delete roundtrip-test", "delete swap"})
	langtest.Equal(t, "state after destroy", len(s.Snap.Resources), 0)
}

// TestParentInheritance checks that children inherit protect,
// retainOnDelete, deletedWith and the provider from their parent.
func TestParentInheritance(t *testing.T) {
	s := langtest.NewStack(t, load)
	s.Write("Pulumi.yaml", `name: roundtrip
runtime: yaml
resources:
  east: { type: pulumi:providers:test, properties: { region: east } }
  base: { type: test:index:Thing }
  parent:
    type: test:index:Thing
    options: { protect: true, retainOnDelete: true, deletedWith: "${base}", provider: "${east}" }
  child:
    type: test:index:Thing
    options: { parent: "${parent}" }
`)
	s.Up()
	child, east := s.Find("child"), s.Find("east")
	if !child.Protect || !child.RetainOnDelete || child.DeletedWith != s.Find("base").URN {
		t.Errorf("child did not inherit: protect %v, retainOnDelete %v, deletedWith %q", child.Protect, child.RetainOnDelete, child.DeletedWith)
	}
	if ref, _ := resource.ParseProviderRef(child.Provider); ref.URN != east.URN {
		t.Errorf("child's provider is %s, want %s", child.Provider, east.URN)
	}
	langtest.Equal(t, "child URN", child.URN, resource.URN("urn:pulumi:test::roundtrip::test:index:Thing$test:index:Thing::child"))
}

// TestRoundTripCommand drives the built-in command provider from YAML and
// checks what its commands did: create, update, replace (by triggers) and
// delete, each appending to a log.
func TestRoundTripCommand(t *testing.T) {
	s := langtest.NewStack(t, load)
	logFile := filepath.Join(s.Dir, "log.txt")
	program := func(create, trigger string) string {
		return fmt.Sprintf(`name: roundtrip
runtime: yaml
resources:
  step:
    type: command:local:Command
    properties:
      dir: %q
      create: echo %s >> log.txt
      update: echo updated >> log.txt
      delete: echo deleted >> log.txt
      triggers: [%s]
outputs:
  created: ${step.create}
`, s.Dir, create, trigger)
	}
	log := func() string {
		data, _ := os.ReadFile(logFile)
		return string(data)
	}

	s.Write("Pulumi.yaml", program("created", "one"))
	langtest.Equal(t, "create", s.Up(), []string{"create default", "create roundtrip-test", "create step"})
	langtest.Equal(t, "log after create", log(), "created\n")

	s.Write("Pulumi.yaml", program("created-again", "one"))
	langtest.Equal(t, "update", s.Up(), []string{"update step"})
	langtest.Equal(t, "log after update", log(), "created\nupdated\n")

	s.Write("Pulumi.yaml", program("created-again", "two"))
	langtest.Equal(t, "replace", s.Up(), []string{"replace step"})
	// Create before delete, the default.
	langtest.Equal(t, "log after replace", log(), "created\nupdated\ncreated-again\ndeleted\n")

	langtest.Equal(t, "destroy", s.Destroy(), []string{"delete default", "delete roundtrip-test", "delete step"})
	langtest.Equal(t, "log after destroy", log(), "created\nupdated\ncreated-again\ndeleted\ndeleted\n")
}
