package props

import (
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

var testPkg = MustLoad([]byte(`{
  "name": "test",
  "resources": {
    "test:index:Thing": {
      "inputProperties": {
        "name": {"type": "string", "replaceOnChanges": true},
        "size": {"type": "integer", "default": 3},
        "ratio": {"type": "number"},
        "on": {"type": "boolean", "default": true},
        "tags": {"type": "object", "additionalProperties": {"type": "string"}},
        "list": {"type": "array", "items": {"type": "integer"}},
        "mode": {"$ref": "#/types/test:index:Mode"},
        "spec": {"$ref": "#/types/test:index:Spec"},
        "code": {"$ref": "pulumi.json#/Asset"},
        "bundle": {"$ref": "pulumi.json#/Archive"},
        "any": {"$ref": "pulumi.json#/Any"},
        "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
        "broken": {"$ref": "#/types/test:index:Missing"}
      },
      "requiredInputs": ["name"]
    }
  },
  "functions": {"test:index:get": {}},
  "types": {
    "test:index:Mode": {"type": "string", "enum": [{"value": "fast"}, {"value": "slow"}]},
    "test:index:Spec": {"type": "object", "properties": {"port": {"type": "integer"}}, "required": ["port"]}
  }
}`), "1.2.3")

var thing = testPkg.Resources["test:index:Thing"]

func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		m    map[string]any
		want []provider.CheckFailure
	}{
		{"valid", map[string]any{"name": "a", "size": 2, "ratio": 0.5, "on": false, "tags": map[string]any{"k": "v"},
			"list": []any{1, 2}, "mode": "fast", "spec": map[string]any{"port": 80}, "code": resource.NewTextAsset("x"),
			"bundle": &resource.Archive{Assets: map[string]any{}}, "any": []any{nil, true}, "either": 3}, nil},
		{"internal keys", map[string]any{"name": "a", "__state": 1}, nil},
		{"unknowns and secrets", map[string]any{"name": resource.Unknown(), "size": resource.MakeSecret(resource.Number(4)),
			"tags": map[string]any{"k": resource.Unknown()}}, nil},
		{"null required", map[string]any{"name": nil}, []provider.CheckFailure{{Property: "name", Reason: `missing required property "name"`}}},
		{"types", map[string]any{"name": true, "size": 1.5, "ratio": "x", "on": 1, "tags": []any{}, "list": []any{1, "2"},
			"code": "x", "bundle": resource.NewTextAsset("x"), "either": 1.5}, []provider.CheckFailure{
			{Property: "bundle", Reason: "must be an archive, not an asset"},
			{Property: "code", Reason: "must be an asset, not a string"},
			{Property: "either", Reason: "number matches none of the types allowed here"},
			{Property: "list[1]", Reason: "must be an integer, not a string"},
			{Property: "name", Reason: "must be a string, not a bool"},
			{Property: "on", Reason: "must be a bool, not a number"},
			{Property: "ratio", Reason: "must be a number, not a string"},
			{Property: "size", Reason: "must be an integer, not 1.5"},
			{Property: "tags", Reason: "must be an object, not a list"},
		}},
		{"secret of the wrong type", map[string]any{"name": resource.MakeSecret(resource.Number(1))},
			[]provider.CheckFailure{{Property: "name", Reason: "must be a string, not a number"}}},
		{"enum", map[string]any{"name": "a", "mode": "medium"}, []provider.CheckFailure{{Property: "mode", Reason: `must be one of "fast", "slow"`}}},
		{"object type", map[string]any{"name": "a", "spec": map[string]any{"prot": 1}}, []provider.CheckFailure{
			{Property: "spec.port", Reason: `missing required property "port"`},
			{Property: "spec.prot", Reason: `unknown property "prot" (did you mean "port"?); the properties here are port`},
		}},
		{"undefined type", map[string]any{"name": "a", "broken": 1}, []provider.CheckFailure{{Property: "broken",
			Reason: `the schema refers to type "#/types/test:index:Missing", which it does not define; this is a bug in the test provider`}}},
		{"odd key", map[string]any{"name": "a", "x y z": 1}, []provider.CheckFailure{{Property: `["x y z"]`,
			Reason: `unknown property "x y z"; the properties here are any, broken, bundle, code, either, list, mode, name, on, ratio, size, spec, tags`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Check(testPkg, thing.InputProperties, thing.RequiredInputs, resource.MapFromGo(tt.m))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("failures\ngot:  %#v\nwant: %#v", got, tt.want)
			}
		})
	}
}

func TestWithDefaults(t *testing.T) {
	tests := []struct{ in, want map[string]any }{
		{map[string]any{}, map[string]any{"size": 3, "on": true}},
		{map[string]any{"size": nil, "on": false}, map[string]any{"size": 3, "on": false}},
		{map[string]any{"size": resource.Unknown()}, map[string]any{"size": resource.Unknown(), "on": true}},
	}
	for _, tt := range tests {
		in := resource.MapFromGo(tt.in)
		if got := WithDefaults(thing.InputProperties, in); !got.Equal(resource.MapFromGo(tt.want)) {
			t.Errorf("WithDefaults(%v) = %v", resource.Object(in), resource.Object(got))
		}
		if !in.Equal(resource.MapFromGo(tt.in)) {
			t.Errorf("WithDefaults changed its argument")
		}
	}
}

func TestDiff(t *testing.T) {
	old := map[string]any{"name": "a", "size": 1, "__seed": "x"}
	tests := []struct {
		name        string
		news        map[string]any
		wantChanges provider.DiffChanges
		wantReplace []string
		wantChanged []string
		wantDetail  resource.DetailedDiff
	}{
		{"same", map[string]any{"name": "a", "size": 1, "__seed": "y"}, provider.DiffNone, nil, nil, nil},
		{"secret", map[string]any{"name": resource.MakeSecret(resource.String("a")), "size": 1}, provider.DiffNone, nil, nil, nil},
		{"update", map[string]any{"name": "a", "size": 2, "tags": map[string]any{"k": "v"}}, provider.DiffSome, nil, []string{"size", "tags"},
			resource.DetailedDiff{"size": {Kind: resource.DiffUpdate, InputDiff: true}, "tags": {Kind: resource.DiffAdd, InputDiff: true}}},
		{"replace", map[string]any{"name": "b", "size": 1}, provider.DiffSome, []string{"name"}, []string{"name"},
			resource.DetailedDiff{"name": {Kind: resource.DiffUpdateReplace, InputDiff: true}}},
		{"removed replace", map[string]any{"size": 1}, provider.DiffSome, []string{"name"}, []string{"name"},
			resource.DetailedDiff{"name": {Kind: resource.DiffDeleteReplace, InputDiff: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Diff(thing, resource.MapFromGo(old), resource.MapFromGo(tt.news))
			want := provider.DiffResponse{Changes: tt.wantChanges, ReplaceKeys: tt.wantReplace, ChangedKeys: tt.wantChanged, DetailedDiff: tt.wantDetail}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
	outputs := resource.MapFromGo(map[string]any{"name": "a", "id": "x"})
	if got := PriorInputs(thing, provider.DiffRequest{OldOutputs: outputs}); !got.Equal(resource.MapFromGo(map[string]any{"name": "a"})) {
		t.Errorf("PriorInputs from outputs = %v", resource.Object(got))
	}
}

func TestGetters(t *testing.T) {
	m := resource.MapFromGo(map[string]any{
		"s": "x", "n": 4, "b": true, "l": []any{"a", resource.MakeSecret(resource.String("b")), 3},
		"o": map[string]any{"k": "v", "n": 1}, "secret": resource.MakeSecret(resource.String("y")), "u": resource.Unknown(),
	})
	if s, ok := String(m, "s"); s != "x" || !ok {
		t.Errorf("String = %q, %v", s, ok)
	}
	if s, ok := String(m, "secret"); s != "y" || !ok {
		t.Errorf("String of a secret = %q, %v", s, ok)
	}
	if _, ok := String(m, "u"); ok {
		t.Errorf("an unknown reads as set")
	}
	if _, ok := String(m, "n"); ok {
		t.Errorf("a number reads as a string")
	}
	if n, ok := Int(m, "n"); n != 4 || !ok {
		t.Errorf("Int = %d, %v", n, ok)
	}
	if b, ok := Bool(m, "b"); !b || !ok {
		t.Errorf("Bool = %v, %v", b, ok)
	}
	if l, ok := Strings(m, "l"); !reflect.DeepEqual(l, []string{"a", "b"}) || !ok {
		t.Errorf("Strings = %q, %v", l, ok)
	}
	if o, ok := StringMap(m, "o"); !reflect.DeepEqual(o, map[string]string{"k": "v"}) || !ok {
		t.Errorf("StringMap = %v, %v", o, ok)
	}
	if _, ok := Strings(m, "missing"); ok {
		t.Errorf("a missing list reads as set")
	}
}

func TestLookups(t *testing.T) {
	if testPkg.Version != "1.2.3" {
		t.Errorf("version %q", testPkg.Version)
	}
	if _, err := Resource(testPkg, "test:index:Thing"); err != nil {
		t.Error(err)
	}
	if _, err := Resource(testPkg, "test:index:thing"); err == nil || !strings.Contains(err.Error(),
		`the test provider has no resource type "test:index:thing" (did you mean "test:index:Thing"?); its types are test:index:Thing`) {
		t.Errorf("err = %v", err)
	}
	if _, err := Function(testPkg, "test:index:list"); err == nil || !strings.Contains(err.Error(), "its functions are test:index:get") ||
		strings.Contains(err.Error(), "did you mean") {
		t.Errorf("err = %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("MustLoad accepted a schema without a name")
		}
	}()
	MustLoad([]byte(`{}`), "1.0.0")
}

func TestBase(t *testing.T) {
	b := Base{Schema: testPkg}
	if b.Pkg() != "test" {
		t.Errorf("Pkg = %q", b.Pkg())
	}
	fs, err := b.CheckArgs(provider.InvokeRequest{Token: "test:index:get", Args: resource.MapFromGo(map[string]any{"x": 1})})
	if err != nil || len(fs) != 1 || fs[0].Property != "x" {
		t.Errorf("a function without inputs took an argument: %v %v", fs, err)
	}
	resp, err := b.CheckInputs(provider.CheckRequest{Type: "test:index:Thing", News: resource.MapFromGo(map[string]any{"name": "a"})})
	if err != nil || len(resp.Failures) > 0 || !resp.Inputs.Equal(resource.MapFromGo(map[string]any{"name": "a"})) {
		t.Errorf("CheckInputs: %+v %v", resp, err)
	}
	if _, err := b.DiffInputs(provider.DiffRequest{Type: "test:index:Nope"}); err == nil {
		t.Errorf("DiffInputs accepted an unknown type")
	}
}
