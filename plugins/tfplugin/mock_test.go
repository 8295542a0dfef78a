package tfplugin

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

func mockSchema(t *testing.T) *providerSchema {
	t.Helper()
	attrs := []*tfplugin6.Schema_Attribute{
		{Name: "name", Type: []byte(`"string"`), Required: true},
		{Name: "id", Type: []byte(`"string"`), Computed: true},
		{Name: "size", Type: []byte(`"number"`), Computed: true},
		{Name: "ok", Type: []byte(`"bool"`), Computed: true},
		{Name: "tags", Type: []byte(`["list","string"]`), Computed: true},
		{Name: "label", Type: []byte(`"string"`), Optional: true, Computed: true},
	}
	schema := &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{Attributes: attrs}}
	s, err := newProviderSchema("x", &parameter{Source: "example/x", Version: "1.0.0"}, &tfplugin6.GetProviderSchema_Response{
		Provider:          &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{}},
		ResourceSchemas:   map[string]*tfplugin6.Schema{"x_thing": schema},
		DataSourceSchemas: map[string]*tfplugin6.Schema{"x_thing": schema},
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mockValue(t *testing.T, ty cty.Type, attrs map[string]cty.Value) *tfplugin6.DynamicValue {
	t.Helper()
	full := map[string]cty.Value{}
	for name, at := range ty.AttributeTypes() {
		full[name] = cty.NullVal(at)
		if v, ok := attrs[name]; ok {
			full[name] = v
		}
	}
	dv, err := encode(cty.ObjectVal(full), ty)
	if err != nil {
		t.Fatal(err)
	}
	return dv
}

// TestMockPlan checks a mock's plan as OpenTofu's: the computed
// attributes the configuration leaves null get the defaults, else
// generated values (8 letters or digits, 0, false, empty); those it
// sets keep their values; the apply returns the plan.
func TestMockPlan(t *testing.T) {
	s := mockSchema(t)
	ty := s.resources[resourceToken("x", "x_thing")].ty
	m := mockProcess(s, map[string]map[string]json.RawMessage{"x_thing": {"size": json.RawMessage("42")}}, nil).rpc
	ctx := context.Background()
	config := mockValue(t, ty, map[string]cty.Value{"name": cty.StringVal("a"), "label": cty.StringVal("given")})
	resp, err := m.PlanResourceChange(ctx, &tfplugin6.PlanResourceChange_Request{TypeName: "x_thing", Config: config, ProposedNewState: config})
	if err != nil || len(resp.GetDiagnostics()) > 0 {
		t.Fatal(err, resp.GetDiagnostics())
	}
	planned, err := decode(resp.GetPlannedState(), ty)
	if err != nil {
		t.Fatal(err)
	}
	if id := planned.GetAttr("id"); !id.IsKnown() || len(id.AsString()) != 8 {
		t.Errorf("id is %#v, want 8 characters", id)
	}
	for name, want := range map[string]cty.Value{"size": cty.NumberIntVal(42), "ok": cty.False, "tags": cty.ListValEmpty(cty.String), "label": cty.StringVal("given"), "name": cty.StringVal("a")} {
		if got := planned.GetAttr(name); !got.RawEquals(want) {
			t.Errorf("%s is %#v, want %#v", name, got, want)
		}
	}
	applied, err := m.ApplyResourceChange(ctx, &tfplugin6.ApplyResourceChange_Request{TypeName: "x_thing", PlannedState: resp.GetPlannedState()})
	if err != nil || string(applied.GetNewState().GetMsgpack()) != string(resp.GetPlannedState().GetMsgpack()) {
		t.Errorf("the apply returned %v (%v), not the plan", applied.GetNewState(), err)
	}
	// An update keeps the generated values of the prior state.
	again, _ := m.PlanResourceChange(ctx, &tfplugin6.PlanResourceChange_Request{TypeName: "x_thing", Config: config, PriorState: resp.GetPlannedState(), ProposedNewState: resp.GetPlannedState()})
	if string(again.GetPlannedState().GetMsgpack()) != string(resp.GetPlannedState().GetMsgpack()) {
		t.Error("an update plan changed the generated values")
	}
}

// TestMockRefusesConfiguredAttributes checks that a value for an
// attribute that is not computed is an error, as in OpenTofu.
func TestMockRefusesConfiguredAttributes(t *testing.T) {
	s := mockSchema(t)
	ty := s.data[dataToken("x", "x_thing")].ty
	m := mockProcess(s, nil, map[string]map[string]json.RawMessage{"x_thing": {"name": json.RawMessage(`"b"`)}}).rpc
	resp, err := m.ReadDataSource(context.Background(), &tfplugin6.ReadDataSource_Request{TypeName: "x_thing", Config: mockValue(t, ty, map[string]cty.Value{"name": cty.StringVal("a")})})
	if err != nil || len(resp.GetDiagnostics()) != 1 {
		t.Fatalf("got %v, %v; want one diagnostic", resp.GetDiagnostics(), err)
	}
}

// TestMockData checks that a mocked data source returns its
// configuration with the computed attributes filled.
func TestMockData(t *testing.T) {
	s := mockSchema(t)
	ty := s.data[dataToken("x", "x_thing")].ty
	m := mockProcess(s, nil, map[string]map[string]json.RawMessage{"x_thing": {"id": json.RawMessage(`"fixed"`)}}).rpc
	resp, err := m.ReadDataSource(context.Background(), &tfplugin6.ReadDataSource_Request{TypeName: "x_thing", Config: mockValue(t, ty, map[string]cty.Value{"name": cty.StringVal("a")})})
	if err != nil || len(resp.GetDiagnostics()) > 0 {
		t.Fatal(err, resp.GetDiagnostics())
	}
	v, err := decode(resp.GetState(), ty)
	if err != nil || v.GetAttr("id").AsString() != "fixed" || v.GetAttr("name").AsString() != "a" || !v.GetAttr("size").RawEquals(cty.Zero) {
		t.Errorf("state %#v (%v)", v, err)
	}
}

// TestMocksOverride checks which resources an override_resource names:
// those of its type and name, in the module it names, every instance.
func TestMocksOverride(t *testing.T) {
	m := Mocks{Resources: map[string]map[string]json.RawMessage{"x_thing.a": {}, "module.m.x_thing.a": {}, "module.m.module.n.x_thing.b": {}}}
	for urn, want := range map[resource.URN]bool{
		"urn:pulumi:s::p::x:index/thing:Thing::a":                                  true,
		"urn:pulumi:s::p::x:index/thing:Thing::a[0]":                               true,
		`urn:pulumi:s::p::x:index/thing:Thing::a["k.m.a"]`:                         true,
		"urn:pulumi:s::p::x:index/thing:Thing::b":                                  false,
		"urn:pulumi:s::p::x:index/thing:Thing::ab":                                 false,
		"urn:pulumi:s::p::hcl:module:m$x:index/thing:Thing::a":                     false,
		"urn:pulumi:s::p::hcl:module:m$x:index/thing:Thing::m.a":                   true,
		`urn:pulumi:s::p::hcl:module:m$x:index/thing:Thing::m["a.b"].a`:            true,
		"urn:pulumi:s::p::hcl:module:m$x:index/thing:Thing::o.a":                   false,
		"urn:pulumi:s::p::hcl:module:m$hcl:module:n$x:index/thing:Thing::m[1].n.b": true,
		"urn:pulumi:s::p::hcl:module:m$hcl:module:n$x:index/thing:Thing::m.n.a":    false,
	} {
		if got := m.override("x_thing", urn) != nil; got != want {
			t.Errorf("%s overridden: %v, want %v", urn, got, want)
		}
	}
}

// TestMocksProvider checks which provider configurations a mock answers
// for: every one of a mocked type, and the root module's of an aliased
// mock's alias only, which beats its type's.
func TestMocksProvider(t *testing.T) {
	all, west, east := &MockProvider{}, &MockProvider{}, &MockProvider{}
	m := Mocks{Providers: map[string]*MockProvider{"x": all}, Configurations: map[string]*MockProvider{"y.west": west, "x.east": east}}
	for _, tc := range []struct {
		typ  string
		urn  resource.URN
		want *MockProvider
	}{
		{"x", "urn:pulumi:s::p::pulumi:providers:x::x", all},
		{"x", "urn:pulumi:s::p::pulumi:providers:x::west", all},
		{"x", "urn:pulumi:s::p::pulumi:providers:x::east", east},
		{"y", "urn:pulumi:s::p::pulumi:providers:y::west", west},
		{"y", "urn:pulumi:s::p::pulumi:providers:y::y", nil},
		{"y", "urn:pulumi:s::p::pulumi:providers:y::default_1_0_0", nil},
		{"y", "urn:pulumi:s::p::hcl:module:m$pulumi:providers:y::west", nil},
		{"z", "urn:pulumi:s::p::pulumi:providers:z::west", nil},
	} {
		if got := m.provider(tc.typ, tc.urn); got != tc.want {
			t.Errorf("%s: got %p, want %p", tc.urn, got, tc.want)
		}
	}
}

// TestMockMemoKey checks that a mock's answers are kept apart from the
// provider's and from a mock's of other values, but shared by mocks of
// the same values (the preview of an up and its update).
func TestMockMemoKey(t *testing.T) {
	s := mockSchema(t)
	p := &Provider{exe: "/bin/x"}
	a := mockProcess(s, map[string]map[string]json.RawMessage{"x_thing": {"size": json.RawMessage("1")}}, nil)
	a2 := mockProcess(s, map[string]map[string]json.RawMessage{"x_thing": {"size": json.RawMessage("1")}}, nil)
	b := mockProcess(s, map[string]map[string]json.RawMessage{"x_thing": {"size": json.RawMessage("2")}}, nil)
	real := &process{}
	if p.memoKey(a) != p.memoKey(a2) || p.memoKey(a) == p.memoKey(b) || p.memoKey(real) != "/bin/x" || p.memoKey(a) == p.memoKey(real) {
		t.Errorf("keys %q %q %q %q", p.memoKey(a), p.memoKey(a2), p.memoKey(b), p.memoKey(real))
	}
}
