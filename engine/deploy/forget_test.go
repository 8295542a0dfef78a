package deploy

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
)

// forgetting returns a program that registers reqs, then forgets urns.
func forgetting(urns []resource.URN, reqs ...RegisterRequest) func(context.Context, RunInfo) error {
	return func(ctx context.Context, info RunInfo) error {
		if _, err := register(ctx, info, reqs...); err != nil {
			return err
		}
		for _, u := range urns {
			if err := info.Monitor.Forget(ctx, u); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestForgetDiscardsWithoutDeleting(t *testing.T) {
	h := newHarness(t)
	prot := res("kept", map[string]any{"x": 1})
	prot.Protect = boolp(true)
	h.mustUp(program(res("a", nil), prot, res("b", nil)))
	h.log.take()

	// A preview shows the discards and changes nothing.
	forget := forgetting([]resource.URN{urnOf("a"), urnOf("kept"), urnOf("never")}, res("b", nil))
	pre, err := h.preview(forget)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "preview changes", pre.Changes, map[Op]int{OpSame: 3, OpDiscard: 2})
	if h.find("a") == nil {
		t.Fatal("the preview changed the state")
	}

	// The update drops them from the state (protected or not) without a
	// provider call.
	res1 := h.mustUp(forget)
	equal(t, "changes", res1.Changes, map[Op]int{OpSame: 3, OpDiscard: 2})
	equal(t, "steps", h.steps(), []string{"discard a", "discard kept", "same b", "same default", "same proj-dev"})
	equal(t, "deletes", h.log.filter("Delete"), []string(nil))
	if h.find("a") != nil || h.find("kept") != nil || h.find("b") == nil {
		t.Errorf("state after forgetting:\n%s", dump(h.snap))
	}
}

func TestForgetConflictsWithDeclaration(t *testing.T) {
	h := newHarness(t)
	h.mustUp(program(res("a", nil)))

	_, err := h.up(forgetting([]resource.URN{urnOf("a")}, res("a", nil)))
	if err == nil || !strings.Contains(err.Error(), "the program declares it") {
		t.Errorf("forget after declaring: %v", err)
	}
	declareAfter := func(ctx context.Context, info RunInfo) error {
		if err := info.Monitor.Forget(ctx, urnOf("a")); err != nil {
			return err
		}
		_, err := register(ctx, info, res("a", nil))
		return err
	}
	_, err = h.up(declareAfter)
	if err == nil || !strings.Contains(err.Error(), "both declared and forgotten") {
		t.Errorf("declare after forgetting: %v", err)
	}
	if h.find("a") == nil {
		t.Error("a conflicting forget removed the resource")
	}
}

// TestForgetComponent forgets components by parent and name, whatever
// their type, with their instances and everything under them.
func TestForgetComponent(t *testing.T) {
	h := newHarness(t)
	comp := func(name string) RegisterRequest { return RegisterRequest{Type: "my:module:site", Name: name} }
	child := func(name string, parent resource.URN) RegisterRequest {
		r := res(name, nil)
		r.Parent = parent
		return r
	}
	site := resource.NewURN("dev", "proj", "", "my:module:site", "site")
	many := resource.NewURN("dev", "proj", "", "my:module:site", "many[0]")
	h.mustUp(program(comp("site"), child("site.a", site), comp("many[0]"), child("many[0].b", many), comp("sites"), res("other", nil)))
	h.log.take()

	forget := func(ctx context.Context, info RunInfo) error {
		if _, err := register(ctx, info, comp("sites"), res("other", nil)); err != nil {
			return err
		}
		root := resource.NewURN("dev", "proj", "", resource.RootStackType, "proj-dev")
		for _, name := range []string{"site", "many"} {
			if err := info.Monitor.ForgetComponent(ctx, root, name); err != nil {
				return err
			}
		}
		return nil
	}
	res1 := h.mustUp(forget)
	equal(t, "changes", res1.Changes, map[Op]int{OpSame: 4, OpDiscard: 4})
	equal(t, "deletes", h.log.filter("Delete"), []string(nil))
	if h.find("site.a") != nil || h.find("many[0].b") != nil || h.find("other") == nil {
		t.Errorf("state after forgetting:\n%s", dump(h.snap))
	}
}

// Forgetting a name without an instance key forgets its instances (a
// removed block of a resource with count or for_each), and not a resource
// whose name only begins the same.
func TestForgetInstances(t *testing.T) {
	h := newHarness(t)
	h.mustUp(program(res("web[0]", nil), res(`web["a"]`, nil), res("webs", nil), res("b", nil)))
	h.log.take()
	h.mustUp(forgetting([]resource.URN{urnOf("web")}, res("b", nil), res("webs", nil)))
	equal(t, "steps", h.steps(), []string{`discard web["a"]`, "discard web[0]", "same b", "same default", "same proj-dev", "same webs"})
	equal(t, "deletes", h.log.filter("Delete"), []string(nil))
}
