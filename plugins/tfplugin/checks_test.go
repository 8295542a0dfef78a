package tfplugin

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// TestIncompatible accepts any value where the plan was unknown and
// reports, by path, known values that changed.
func TestIncompatible(t *testing.T) {
	planned := cty.ObjectVal(map[string]cty.Value{
		"id":   cty.UnknownVal(cty.String),
		"name": cty.StringVal("a"),
		"tags": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
	})
	ok := cty.ObjectVal(map[string]cty.Value{
		"id":   cty.StringVal("i-1"),
		"name": cty.StringVal("a"),
		"tags": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
	})
	if bad := incompatible(planned, ok, nil); len(bad) > 0 {
		t.Errorf("a compatible result: %v", bad)
	}
	changed := cty.ObjectVal(map[string]cty.Value{
		"id":   cty.StringVal("i-1"),
		"name": cty.StringVal("b"),
		"tags": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("w")}),
	})
	got := strings.Join(incompatible(planned, changed, nil), "; ")
	if got != `name: has another value than planned; tags["k"]: has another value than planned` {
		t.Errorf("incompatible = %s", got)
	}
}
