package deploy

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

func TestProtectBlocksDeleteAndReplace(t *testing.T) {
	h := newHarness(t)
	h.provider("pkgA", func(p *fakeProvider) { p.DiffF = replaceOn("x") })
	protected := func(x int) RegisterRequest {
		r := res("a", map[string]any{"x": x})
		r.Protect = boolp(true)
		return r
	}
	h.mustUp(program(protected(1), res("b", nil)))

	// Replacing a protected resource fails, and names the reason.
	_, err := h.up(program(protected(2), res("b", nil)))
	if err == nil || !strings.Contains(err.Error(), "protected") {
		t.Fatalf("replace of protected: %v", err)
	}
	// Deleting it fails, before anything is deleted.
	h.log.take()
	_, err = h.up(program(), allowEmpty)
	if err == nil || !strings.Contains(err.Error(), "protected") {
		t.Fatalf("delete of protected: %v", err)
	}
	equal(t, "nothing deleted", h.log.filter("Delete"), []string(nil))
	if h.find("a") == nil || h.find("b") == nil {
		t.Fatal("resources were removed")
	}
	// Destroy refuses too.
	if _, err := h.destroy(); err == nil {
		t.Fatal("destroy of a protected resource succeeded")
	}
	// Unprotecting and replacing in the same run is allowed.
	h.mustUp(program(res("a", map[string]any{"x": 2}), res("b", nil)))
	if h.find("a").Protect {
		t.Errorf("a is still protected")
	}
}

func TestProtectIsInherited(t *testing.T) {
	h := newHarness(t)
	h.mustUp(func(ctx context.Context, info RunInfo) error {
		root, err := stack(ctx, info)
		if err != nil {
			return err
		}
		comp, err := info.Monitor.RegisterResource(ctx, RegisterRequest{Type: "my:comp:Comp", Name: "c", Parent: root, Protect: boolp(true), RetainOnDelete: boolp(true)})
		if err != nil {
			return err
		}
		child := res("child", nil)
		child.Parent = comp.URN
		_, err = info.Monitor.RegisterResource(ctx, child)
		return err
	})
	child := h.find("child")
	if !child.Protect || !child.RetainOnDelete {
		t.Errorf("child did not inherit protect/retainOnDelete: %+v", child)
	}
	if child.URN != resource.URN("urn:pulumi:dev::proj::my:comp:Comp$pkgA:index:Thing::child") {
		t.Errorf("child URN = %s", child.URN)
	}
}

func TestIgnoreChanges(t *testing.T) {
	h := newHarness(t)
	r := func(name string, tags map[string]any, ignore ...string) RegisterRequest {
		q := res("a", map[string]any{"name": name, "tags": tags})
		q.IgnoreChanges = ignore
		return q
	}
	h.mustUp(program(r("one", map[string]any{"env": "dev", "team": "x"})))
	// Ignored nested property: no change.
	res := h.mustUp(program(r("one", map[string]any{"env": "prod", "team": "x"}, "tags.env")))
	equal(t, "ignored", res.Changes, map[Op]int{OpSame: 3})
	if got := h.find("a").Inputs["tags"].ObjectValue()["env"]; !got.Equal(resource.String("dev")) {
		t.Errorf("ignored property changed in state: %v", got)
	}
	// Other properties still update.
	res = h.mustUp(program(r("two", map[string]any{"env": "prod", "team": "x"}, "tags.env")))
	equal(t, "not ignored", res.Changes, map[Op]int{OpSame: 2, OpUpdate: 1})
	// A path that cannot apply is an error naming the option.
	bad := r("two", map[string]any{"env": "prod", "team": "x"}, "name.sub")
	bad.Properties["name"] = resource.String("x")
	if _, err := h.up(program(bad)); err == nil || !strings.Contains(err.Error(), "ignoreChanges") {
		t.Errorf("invalid path: %v", err)
	}
	if _, err := h.up(program(r("two", nil, "tags[bad"))); err == nil || !strings.Contains(err.Error(), "ignoreChanges") {
		t.Errorf("unparsable path: %v", err)
	}
}

func TestRetainOnDelete(t *testing.T) {
	h := newHarness(t)
	r := res("a", nil)
	r.RetainOnDelete = boolp(true)
	h.mustUp(program(r))
	h.log.take()
	res := h.mustUp(program(), allowEmpty)
	// a and the default provider, which nothing uses any more.
	equal(t, "changes", res.Changes, map[Op]int{OpSame: 1, OpDelete: 2})
	equal(t, "provider deletes", h.log.filter("Delete"), []string(nil))
	if h.find("a") != nil {
		t.Errorf("a is still in the state")
	}
}

func TestDeletedWith(t *testing.T) {
	h := newHarness(t)
	b := res("b", nil)
	b.DeletedWith = urnOf("a")
	h.mustUp(program(res("a", nil), b))
	h.log.take()
	if _, err := h.destroy(); err != nil {
		t.Fatal(err)
	}
	// b goes with a: only a's provider delete runs.
	equal(t, "deletes", h.log.filter("Delete"), []string{"Delete a"})
	equal(t, "state", len(h.snap.Resources), 0)
}

func TestAliases(t *testing.T) {
	h := newHarness(t)
	h.mustUp(program(res("old", map[string]any{"x": 1})))
	oldID := h.find("old").ID
	renamed := res("new", map[string]any{"x": 1})
	renamed.Aliases = []Alias{{Name: "old"}}
	h.log.take()
	res1 := h.mustUp(program(renamed))
	equal(t, "rename", res1.Changes, map[Op]int{OpSame: 3})
	equal(t, "no creates or deletes", append(h.log.filter("Create"), h.log.filter("Delete")...), []string(nil))
	if n := h.find("new"); n == nil || n.ID != oldID || h.find("old") != nil {
		t.Fatalf("after rename: %s", dump(h.snap))
	}

	// Two resources claiming the same old state is an error.
	a1 := res("x1", nil)
	a1.Aliases = []Alias{{URN: urnOf("new")}}
	a2 := res("x2", nil)
	a2.Aliases = []Alias{{URN: urnOf("new")}}
	_, err := h.up(program(a1, a2))
	if err == nil || !strings.Contains(err.Error(), "alias") {
		t.Fatalf("duplicate alias: %v", err)
	}
}

func TestChildAliasesFollowParent(t *testing.T) {
	h := newHarness(t)
	prog := func(parentName string, aliases []Alias) func(context.Context, RunInfo) error {
		return func(ctx context.Context, info RunInfo) error {
			root, err := stack(ctx, info)
			if err != nil {
				return err
			}
			comp, err := info.Monitor.RegisterResource(ctx, RegisterRequest{Type: "my:comp:Comp", Name: parentName, Parent: root, Aliases: aliases})
			if err != nil {
				return err
			}
			child := res(parentName+"-child", nil)
			child.Parent = comp.URN
			_, err = info.Monitor.RegisterResource(ctx, child)
			return err
		}
	}
	h.mustUp(prog("p1", nil))
	h.log.take()
	res := h.mustUp(prog("p2", []Alias{{Name: "p1"}}))
	equal(t, "changes", res.Changes, map[Op]int{OpSame: 4})
	equal(t, "no creates", h.log.filter("Create"), []string(nil))
}

// TestAnyParentAlias moves a resource out of a component the program no
// longer registers, whose type it does not know: the alias finds the old
// resource by its name and type alone, and only when one has them.
func TestAnyParentAlias(t *testing.T) {
	h := newHarness(t)
	h.mustUp(func(ctx context.Context, info RunInfo) error {
		root, err := stack(ctx, info)
		if err != nil {
			return err
		}
		comp, err := info.Monitor.RegisterResource(ctx, RegisterRequest{Type: "my:comp:Gone", Name: "m", Parent: root})
		if err != nil {
			return err
		}
		child := res("m.x", map[string]any{"x": 1})
		child.Parent = comp.URN
		_, err = info.Monitor.RegisterResource(ctx, child)
		return err
	})
	oldID := h.find("m.x").ID
	h.log.take()
	moved := res("x", map[string]any{"x": 1})
	moved.Aliases = []Alias{{Name: "m.x", AnyParent: true}}
	h.mustUp(program(moved))
	equal(t, "no creates", h.log.filter("Create"), []string(nil))
	if n := h.find("x"); n == nil || n.ID != oldID || h.find("m.x") != nil {
		t.Fatalf("after the move: %s", dump(h.snap))
	}
}

func TestDuplicateURN(t *testing.T) {
	h := newHarness(t)
	_, err := h.up(program(res("a", nil), res("a", nil)))
	if err == nil || !strings.Contains(err.Error(), "duplicate resource URN") {
		t.Fatalf("duplicate URN: %v", err)
	}
}

func TestCustomTimeoutsAndSecretOutputs(t *testing.T) {
	h := newHarness(t)
	var gotTimeout float64
	h.provider("pkgA", func(p *fakeProvider) {
		p.CreateF = func(req provider.CreateRequest) (provider.CreateResponse, error) {
			gotTimeout = req.Timeout.Seconds()
			// The provider drops the secret mark of "password".
			return provider.CreateResponse{ID: "id", Outputs: req.Inputs.Unsecret().Copy()}, nil
		}
	})
	r := res("a", map[string]any{"password": resource.MakeSecret(resource.String("hunter2")), "token": "t"})
	r.CustomTimeouts = &resource.CustomTimeouts{Create: 300, Delete: 60}
	r.AdditionalSecretOutputs = []string{"token"}
	r.HideDiffs = []string{"token"}
	h.mustUp(program(r))
	if gotTimeout != 300 {
		t.Errorf("create timeout = %v, want 300", gotTimeout)
	}
	a := h.find("a")
	if !a.Outputs["password"].IsSecret() || !a.Outputs["token"].IsSecret() {
		t.Errorf("secret outputs not re-marked: %v", resource.Object(a.Outputs))
	}
	if a.CustomTimeouts.Create != 300 || a.CustomTimeouts.Delete != 60 {
		t.Errorf("timeouts not recorded: %+v", a.CustomTimeouts)
	}
	equal(t, "hideDiff", a.HideDiff, []string{"token"})
}

func TestDependsOnOrdersCreation(t *testing.T) {
	h := newHarness(t)
	h.mustUp(func(ctx context.Context, info RunInfo) error {
		root, err := stack(ctx, info)
		if err != nil {
			return err
		}
		a := res("a", nil)
		a.Parent = root
		ra, err := info.Monitor.RegisterResource(ctx, a)
		if err != nil {
			return err
		}
		b := res("b", nil)
		b.Parent, b.Dependencies = root, []resource.URN{ra.URN}
		_, err = info.Monitor.RegisterResource(ctx, b)
		return err
	})
	equal(t, "dependencies", h.find("b").Dependencies, []resource.URN{urnOf("a")})
	h.log.take()
	if _, err := h.destroy(); err != nil {
		t.Fatal(err)
	}
	calls := h.log.take()
	if indexOf(calls, "Delete b") > indexOf(calls, "Delete a") {
		t.Errorf("b must be deleted before a: %v", calls)
	}
}
