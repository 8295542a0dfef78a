package deploy

import (
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// TestTaintsParent taints the parent of a resource whose create fails
// when the resource says so (Terraform's provisioners): the parent stays,
// tainted, and the next update replaces it.
func TestTaintsParent(t *testing.T) {
	h := newHarness(t)
	failing := true
	h.provider("pkgA", func(p *fakeProvider) {
		p.CreateF = func(req provider.CreateRequest) (provider.CreateResponse, error) {
			if req.URN.Name() == "prov" && failing && !req.Preview {
				return provider.CreateResponse{}, errFake
			}
			return provider.CreateResponse{ID: resource.ID("id-of-" + req.URN.Name()), Outputs: req.Inputs}, nil
		}
	})
	child := res("prov", nil)
	child.Parent, child.TaintsParent = urnOf("a"), true
	prog := program(res("a", map[string]any{"x": 1}), child)
	if _, err := h.up(prog); err == nil {
		t.Fatal("the update should fail")
	}
	if a := h.find("a"); a == nil || !a.Taint {
		t.Fatalf("a is not tainted: %s", dump(h.snap))
	}
	h.log.take()
	failing = false
	if _, err := h.up(prog); err != nil {
		t.Fatal(err)
	}
	equal(t, "the tainted parent replaced", h.log.filter("Delete"), []string{"Delete a"})
	if a := h.find("a"); a == nil || a.Taint || h.find("prov") == nil {
		t.Errorf("after the replacement: %s", dump(h.snap))
	}
}
