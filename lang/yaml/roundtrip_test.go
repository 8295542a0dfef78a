package yaml_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/lang/yaml"
)

// stack runs YAML programs against one stack, keeping its snapshot between
// operations.
type stack struct {
	t    *testing.T
	dir  string
	snap *deploy.Snapshot
}

func newStack(t *testing.T) *stack { return &stack{t: t, dir: t.TempDir()} }

// write replaces the project's program.
func (s *stack) write(program string) {
	s.t.Helper()
	if err := os.WriteFile(filepath.Join(s.dir, "Pulumi.yaml"), []byte(program), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// steps runs op and returns its logical steps as "op name", sorted.
func (s *stack) steps(op func(deploy.Options, *deploy.Snapshot) (*deploy.Result, error), withProgram bool) []string {
	s.t.Helper()
	var mu sync.Mutex
	var steps []string
	opts := deploy.Options{Project: "roundtrip", Stack: "test", Host: testHost,
		Events: func(e deploy.Event) {
			if st, ok := e.(deploy.StepEvent); ok && st.Phase == deploy.StepDone && st.Logical && st.Op != deploy.OpSame {
				mu.Lock()
				steps = append(steps, fmt.Sprintf("%s %s", st.Op, st.URN.Name()))
				mu.Unlock()
			}
		}}
	if withProgram {
		prog, diags := yaml.Load(s.dir, yaml.Options{Schemas: eval.ProviderSchemas(testHost)})
		if diags.HasErrors() {
			s.t.Fatal(diags)
		}
		opts.Program = prog
	}
	res, err := op(opts, s.snap)
	if err != nil {
		s.t.Fatal(err)
	}
	s.snap = res.Snapshot
	sort.Strings(steps)
	return steps
}

func (s *stack) up() []string {
	return s.steps(func(o deploy.Options, b *deploy.Snapshot) (*deploy.Result, error) {
		return deploy.Update(context.Background(), o, b)
	}, true)
}

func (s *stack) destroy() []string {
	return s.steps(func(o deploy.Options, b *deploy.Snapshot) (*deploy.Result, error) {
		return deploy.Destroy(context.Background(), o, b)
	}, false)
}

// find returns the state of the resource named name.
func (s *stack) find(name string) *resource.State {
	for _, r := range s.snap.Resources {
		if r.URN.Name() == name && !r.Delete {
			return r
		}
	}
	return nil
}

func equal(t *testing.T, what string, got, want any) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: wrong result\ngot:  %v\nwant: %v", what, got, want)
	}
}

// TestRoundTrip drives the engine from YAML with the test provider and
// the built-in random provider: create, then change the program so that
// one resource is updated, two replaced, one deleted and one created,
// then destroy.
func TestRoundTrip(t *testing.T) {
	s := newStack(t)
	s.write(`name: roundtrip
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
	equal(t, "first up", s.up(), []string{"create change", "create default", "create default", "create gone", "create keep",
		"create password", "create roundtrip-test", "create swap"})
	first := s.find("roundtrip-test").Outputs["password"]
	equal(t, "password length", len(first.StringValue()), 8)
	equal(t, "outputs", s.find("roundtrip-test").Outputs["swap"], resource.String("before"))

	s.write(`name: roundtrip
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
	equal(t, "second up", s.up(), []string{"create added", "delete gone", "replace password", "replace swap", "update change"})
	equal(t, "new password length", len(s.find("roundtrip-test").Outputs["password"].StringValue()), 12)
	equal(t, "updated", s.find("change").Inputs["length"], resource.Number(2))
	equal(t, "replaced", s.find("swap").Inputs["name"], resource.String("after"))
	if s.find("gone") != nil {
		t.Error("gone is still in the state")
	}
	equal(t, "outputs", s.find("roundtrip-test").Outputs["swap"], resource.String("after"))

	equal(t, "unchanged up", s.up(), []string(nil))

	equal(t, "destroy", s.destroy(), []string{"delete added", "delete change", "delete default", "delete default", "delete keep",
		"delete password", "delete roundtrip-test", "delete swap"})
	equal(t, "state after destroy", len(s.snap.Resources), 0)
}

// TestParentInheritance checks that children inherit protect,
// retainOnDelete, deletedWith and the provider from their parent.
func TestParentInheritance(t *testing.T) {
	s := newStack(t)
	s.write(`name: roundtrip
runtime: yaml
resources:
  east: { type: pulumi:providers:test, properties: { region: east } }
  anchor: { type: test:index:Thing }
  parent:
    type: test:index:Thing
    options: { protect: true, retainOnDelete: true, deletedWith: "${anchor}", provider: "${east}" }
  child:
    type: test:index:Thing
    options: { parent: "${parent}" }
`)
	s.up()
	child, east := s.find("child"), s.find("east")
	if !child.Protect || !child.RetainOnDelete || child.DeletedWith != s.find("anchor").URN {
		t.Errorf("child did not inherit: protect %v, retainOnDelete %v, deletedWith %q", child.Protect, child.RetainOnDelete, child.DeletedWith)
	}
	if ref, _ := resource.ParseProviderRef(child.Provider); ref.URN != east.URN {
		t.Errorf("child's provider is %s, want %s", child.Provider, east.URN)
	}
	equal(t, "child URN", child.URN, resource.URN("urn:pulumi:test::roundtrip::test:index:Thing$test:index:Thing::child"))
}

// TestRoundTripCommand drives the built-in command provider from YAML and
// checks what its commands did: create, update, replace (by triggers) and
// delete, each appending to a log.
func TestRoundTripCommand(t *testing.T) {
	s := newStack(t)
	logFile := filepath.Join(s.dir, "log.txt")
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
`, s.dir, create, trigger)
	}
	log := func() string {
		data, _ := os.ReadFile(logFile)
		return string(data)
	}

	s.write(program("created", "one"))
	equal(t, "create", s.up(), []string{"create default", "create roundtrip-test", "create step"})
	equal(t, "log after create", log(), "created\n")

	s.write(program("created-again", "one"))
	equal(t, "update", s.up(), []string{"update step"})
	equal(t, "log after update", log(), "created\nupdated\n")

	s.write(program("created-again", "two"))
	equal(t, "replace", s.up(), []string{"replace step"})
	// Create before delete, the default.
	equal(t, "log after replace", log(), "created\nupdated\ncreated-again\ndeleted\n")

	equal(t, "destroy", s.destroy(), []string{"delete default", "delete roundtrip-test", "delete step"})
	equal(t, "log after destroy", log(), "created\nupdated\ncreated-again\ndeleted\ndeleted\n")
}
