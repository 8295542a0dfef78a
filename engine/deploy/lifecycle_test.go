package deploy

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
)

func equal(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s\ngot:  %#v\nwant: %#v", what, got, want)
	}
}

func TestEmptyProgramLifecycle(t *testing.T) {
	h := newHarness(t)
	empty := func(ctx context.Context, info RunInfo) error { _, err := stack(ctx, info); return err }
	res := h.mustUp(empty)
	equal(t, "changes", res.Changes, map[Op]int{OpCreate: 1})
	equal(t, "resources", len(h.snap.Resources), 1)
	if h.snap.Root() == nil {
		t.Fatal("no root stack resource")
	}
	res = h.mustUp(empty)
	equal(t, "no-op changes", res.Changes, map[Op]int{OpSame: 1})
	if _, err := h.refresh(); err != nil {
		t.Fatal(err)
	}
	res, err := h.destroy()
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "destroy", res.Changes, map[Op]int{OpDelete: 1})
	equal(t, "after destroy", len(h.snap.Resources), 0)
}

func TestCreateNoopUpdateDelete(t *testing.T) {
	h := newHarness(t)
	v1 := program(res("a", map[string]any{"x": 1}), res("b", map[string]any{"y": "s"}))
	res1 := h.mustUp(v1)
	equal(t, "create", res1.Changes, map[Op]int{OpCreate: 4}) // stack, provider, a, b
	equal(t, "calls", h.log.filter("Create"), []string{"Create a", "Create b"})
	a := h.find("a")
	if a.ID != "a-1" && a.ID != "a-2" {
		t.Errorf("a's ID = %q", a.ID)
	}
	if !strings.HasSuffix(a.Provider, "::"+string(h.find("default").ID)) {
		t.Errorf("a's provider = %q", a.Provider)
	}

	h.log.take()
	res2 := h.mustUp(v1)
	equal(t, "no-op", res2.Changes, map[Op]int{OpSame: 4})
	equal(t, "no creates", h.log.filter("Create"), []string(nil))
	equal(t, "no updates", h.log.filter("Update"), []string(nil))

	h.log.take()
	v2 := program(res("a", map[string]any{"x": 2}), res("b", map[string]any{"y": "s"}))
	res3 := h.mustUp(v2)
	equal(t, "update", res3.Changes, map[Op]int{OpSame: 3, OpUpdate: 1})
	equal(t, "update calls", h.log.filter("Update"), []string{"Update a"})
	if got := h.find("a").Outputs["x"]; !got.Equal(resource.Number(2)) {
		t.Errorf("a.x = %v", got)
	}

	h.log.take()
	v3 := program(res("a", map[string]any{"x": 2}))
	res4 := h.mustUp(v3)
	equal(t, "delete", res4.Changes, map[Op]int{OpSame: 3, OpDelete: 1})
	equal(t, "delete calls", h.log.filter("Delete"), []string{"Delete b"})
	if h.find("b") != nil {
		t.Errorf("b is still in the state")
	}
}
