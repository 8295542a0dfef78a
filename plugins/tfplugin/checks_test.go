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

// TestInvalidPlan reports a plan that does not keep a configured value,
// and accepts one that keeps an equivalent prior value.
func TestInvalidPlan(t *testing.T) {
	null := cty.NullVal(cty.String)
	group := cty.ObjectVal(map[string]cty.Value{"on": cty.NullVal(cty.Bool)})
	obj := func(name, mode string, rules ...cty.Value) cty.Value {
		r := cty.ListValEmpty(cty.Object(map[string]cty.Type{"port": cty.Number, "uid": cty.String}))
		if len(rules) > 0 {
			r = cty.ListVal(rules)
		}
		m := null
		if mode != "" {
			m = cty.StringVal(mode)
		}
		return cty.ObjectVal(map[string]cty.Value{"id": null, "name": cty.StringVal(name), "mode": m, "rule": r,
			"tag": cty.SetValEmpty(cty.Object(map[string]cty.Type{"key": cty.String, "uid": cty.String})), "group": group})
	}
	config := obj("a", "", rule(80, null))
	if bad := invalidPlan(testBlock, cty.NullVal(config.Type()), config, obj("a", "auto", rule(80, cty.StringVal("u"))), nil); len(bad) > 0 {
		t.Errorf("a valid plan: %v", bad)
	}
	got := strings.Join(invalidPlan(testBlock, cty.NullVal(config.Type()), config, obj("b", "", rule(81, null)), nil), "; ")
	if got != "name: planned otherwise than configured; rule[0].port: planned otherwise than configured" {
		t.Errorf("invalidPlan = %s", got)
	}
	if bad := invalidPlan(testBlock, obj("A", ""), config, obj("A", "", rule(80, null)), nil); len(bad) > 0 {
		t.Errorf("a plan keeping the equivalent prior value: %v", bad)
	}
	if got := invalidPlan(testBlock, cty.NullVal(config.Type()), config, cty.NullVal(config.Type()), nil); len(got) != 1 || got[0] != "the object: planned absent though configured" {
		t.Errorf("a plan of nothing for a configured object = %v", got)
	}
}

// TestStillUnknown names each unknown left in a new state, nested ones
// too, and nothing in a wholly known one.
func TestStillUnknown(t *testing.T) {
	known := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("i-1"), "n": cty.NullVal(cty.Number)})
	if bad := stillUnknown(known); len(bad) > 0 {
		t.Errorf("a known state: %v", bad)
	}
	v := cty.ObjectVal(map[string]cty.Value{
		"id":   cty.UnknownVal(cty.String),
		"rule": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"port": cty.UnknownVal(cty.Number)})}),
		"tags": cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
	})
	got := strings.Join(stillUnknown(v), "; ")
	if got != "id: it is still unknown; rule[0].port: it is still unknown" {
		t.Errorf("stillUnknown = %s", got)
	}
}
