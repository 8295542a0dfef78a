package random

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// tok returns the type token of a resource type of the package.
func tok(name string) string {
	return "random:index/" + strings.ToLower(name[:1]) + name[1:] + ":" + name
}

func seedOf(b byte) []byte {
	s := make([]byte, 32)
	for i := range s {
		s[i] = b
	}
	return s
}

func check(t *testing.T, typ string, olds resource.Map, news map[string]any, seed byte) provider.CheckResponse {
	t.Helper()
	resp, err := New().Check(context.Background(), provider.CheckRequest{
		URN: resource.NewURN("dev", "proj", "", tok(typ), "r"), Name: "r", Type: tok(typ),
		Olds: olds, News: resource.MapFromGo(news), Seed: func() ([]byte, error) { return seedOf(seed), nil }})
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	return resp
}

var charsetDefaults = map[string]any{"upper": true, "lower": true, "numeric": true, "number": true, "special": true,
	"minUpper": 0, "minLower": 0, "minNumeric": 0, "minSpecial": 0}

func with(base map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func TestCheckDefaults(t *testing.T) {
	tests := []struct {
		typ  string
		news map[string]any
		want map[string]any // without the seed
	}{
		{"RandomString", map[string]any{"length": 8}, with(charsetDefaults, "length", 8)},
		{"RandomPassword", map[string]any{"length": 8, "special": false}, with(charsetDefaults, "length", 8, "special", false)},
		{"RandomString", map[string]any{"length": 8, "number": false}, with(charsetDefaults, "length", 8, "number", false, "numeric", false)},
		{"RandomString", map[string]any{"length": 8, "numeric": false}, with(charsetDefaults, "length", 8, "number", false, "numeric", false)},
		{"RandomString", map[string]any{"length": 8, "overrideSpecial": "", "keepers": map[string]any{"a": nil}}, with(charsetDefaults, "length", 8)},
		{"RandomString", map[string]any{"length": 8, "keepers": map[string]any{"a": "1"}}, with(charsetDefaults, "length", 8, "keepers", map[string]any{"a": "1"})},
		{"RandomPet", map[string]any{}, map[string]any{"length": 2, "separator": "-"}},
		{"RandomPet", map[string]any{"length": 3, "prefix": "x", "separator": "_"}, map[string]any{"length": 3, "prefix": "x", "separator": "_"}},
		{"RandomId", map[string]any{"byteLength": 4}, map[string]any{"byteLength": 4}},
		{"RandomInteger", map[string]any{"min": -3, "max": 3, "seed": "s"}, map[string]any{"min": -3, "max": 3, "seed": "s"}},
		{"RandomShuffle", map[string]any{"inputs": []any{"a", "b"}}, map[string]any{"inputs": []any{"a", "b"}}},
		{"RandomUuid", map[string]any{}, map[string]any{}},
		{"RandomBytes", map[string]any{"length": 1}, map[string]any{"length": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			resp := check(t, tt.typ, nil, tt.news, 1)
			if len(resp.Failures) > 0 {
				t.Fatalf("failures: %v", resp.Failures)
			}
			got := resp.Inputs.Copy()
			seed := got[seedKey]
			delete(got, seedKey)
			if want := resource.MapFromGo(tt.want); !got.Equal(want) {
				t.Errorf("inputs\ngot:  %v\nwant: %v", resource.Object(got), resource.Object(want))
			}
			// The seed is secret where it determines secret values.
			wantSecret := tt.typ == "RandomPassword" || tt.typ == "RandomBytes"
			if seed.IsSecret() != wantSecret {
				t.Errorf("the seed is %v; secret: %v, want %v", seed, seed.IsSecret(), wantSecret)
			}
			if seed.IsSecret() {
				seed = seed.SecretElement()
			}
			if !seed.IsString() || len(seed.StringValue()) != 64 {
				t.Errorf("the seed is %v, want 64 hex digits", seed)
			}
		})
	}
}

func TestCheckFailures(t *testing.T) {
	tests := []struct {
		typ  string
		news map[string]any
		want []provider.CheckFailure
	}{
		{"RandomString", map[string]any{}, []provider.CheckFailure{{Property: "length", Reason: `missing required property "length"`}}},
		{"RandomString", map[string]any{"length": 0}, []provider.CheckFailure{{Property: "length", Reason: "must be at least 1, not 0"}}},
		{"RandomString", map[string]any{"length": 1 << 20}, []provider.CheckFailure{{Property: "length", Reason: "must be at most 65536, not 1048576"}}},
		{"RandomString", map[string]any{"length": "8"}, []provider.CheckFailure{{Property: "length", Reason: "must be an integer, not a string"}}},
		{"RandomString", map[string]any{"length": 2.5}, []provider.CheckFailure{{Property: "length", Reason: "must be an integer, not 2.5"}}},
		{"RandomString", map[string]any{"length": 3, "minUpper": 2, "minSpecial": 2}, []provider.CheckFailure{
			{Property: "length", Reason: "must be at least minUpper + minLower + minNumeric + minSpecial, which is 4, not 3"}}},
		{"RandomString", map[string]any{"length": 3, "minLower": -1}, []provider.CheckFailure{{Property: "minLower", Reason: "must be at least 0, not -1"}}},
		{"RandomPassword", map[string]any{"length": 3, "upper": false, "lower": false, "numeric": false, "special": false}, []provider.CheckFailure{
			{Property: "special", Reason: "at least one of upper, lower, numeric and special must be true, or there is nothing to draw from"}}},
		{"RandomString", map[string]any{"length": 3, "number": true, "numeric": false}, []provider.CheckFailure{
			{Property: "number", Reason: "number is the former name of numeric and differs from it; set only numeric"}}},
		{"RandomString", map[string]any{"length": 3, "keepers": map[string]any{"a": 1}}, []provider.CheckFailure{
			{Property: "keepers.a", Reason: "must be a string, not a number"}}},
		{"RandomString", map[string]any{"length": 3, "lenght": 3}, []provider.CheckFailure{
			{Property: "lenght", Reason: `unknown property "lenght" (did you mean "length"?); the properties here are keepers, length, lower, minLower, minNumeric, minSpecial, minUpper, number, numeric, overrideSpecial, special, upper`}}},
		{"RandomInteger", map[string]any{"min": 5, "max": 1}, []provider.CheckFailure{{Property: "max", Reason: "must be at least min (5), not 1"}}},
		{"RandomInteger", map[string]any{"min": 0, "max": 1e17}, []provider.CheckFailure{
			{Property: "max", Reason: "must be between -9007199254740992 and 9007199254740992, the integers the state holds exactly"}}},
		{"RandomInteger", map[string]any{"max": 1}, []provider.CheckFailure{{Property: "min", Reason: `missing required property "min"`}}},
		{"RandomId", map[string]any{"byteLength": 0}, []provider.CheckFailure{{Property: "byteLength", Reason: "must be at least 1, not 0"}}},
		{"RandomBytes", map[string]any{"length": -1}, []provider.CheckFailure{{Property: "length", Reason: "must be at least 1, not -1"}}},
		{"RandomPet", map[string]any{"length": 0}, []provider.CheckFailure{{Property: "length", Reason: "must be at least 1, not 0"}}},
		{"RandomShuffle", map[string]any{}, []provider.CheckFailure{{Property: "inputs", Reason: `missing required property "inputs"`}}},
		{"RandomShuffle", map[string]any{"inputs": []any{"a", true}}, []provider.CheckFailure{{Property: "inputs[1]", Reason: "must be a string, not a bool"}}},
		{"RandomShuffle", map[string]any{"inputs": []any{}, "resultCount": -2}, []provider.CheckFailure{{Property: "resultCount", Reason: "must be at least 0, not -2"}}},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			resp := check(t, tt.typ, nil, tt.news, 1)
			if !reflect.DeepEqual(resp.Failures, tt.want) {
				t.Errorf("failures\ngot:  %#v\nwant: %#v", resp.Failures, tt.want)
			}
			if len(resp.Failures) > 0 && resp.Inputs != nil {
				t.Errorf("a failed check returned inputs %v", resource.Object(resp.Inputs))
			}
		})
	}
}

// Unknown and secret inputs pass Check: their ranges are judged when known.
func TestCheckUnknownAndSecret(t *testing.T) {
	news := map[string]any{"length": resource.Unknown(), "minUpper": resource.MakeSecret(resource.Number(2))}
	resp := check(t, "RandomString", nil, news, 1)
	if len(resp.Failures) > 0 {
		t.Fatalf("failures: %v", resp.Failures)
	}
	if !resp.Inputs["length"].IsUnknown() || !resp.Inputs["minUpper"].IsSecret() {
		t.Errorf("inputs = %v", resource.Object(resp.Inputs))
	}
}

func TestCheckSeed(t *testing.T) {
	first := check(t, "RandomString", nil, map[string]any{"length": 8}, 1).Inputs[seedKey]
	again := check(t, "RandomString", nil, map[string]any{"length": 8}, 1).Inputs[seedKey]
	other := check(t, "RandomString", nil, map[string]any{"length": 8}, 2).Inputs[seedKey]
	if !first.Equal(again) {
		t.Errorf("the same seed recorded %v then %v", first, again)
	}
	if first.Equal(other) {
		t.Errorf("different seeds recorded the same value")
	}
	// An existing resource keeps its seed, whatever the engine passes now.
	olds := resource.Map{"length": resource.Number(8), seedKey: first}
	kept := check(t, "RandomString", olds, map[string]any{"length": 8}, 3).Inputs[seedKey]
	if !kept.Equal(first) {
		t.Errorf("an update's check recorded %v, want the old seed", kept)
	}
	// Inputs recorded without a seed (by pulumi-random, or an import) stay so.
	if v, ok := check(t, "RandomString", resource.Map{"length": resource.Number(8)}, map[string]any{"length": 8}, 3).Inputs[seedKey]; ok {
		t.Errorf("a check of seedless olds recorded the seed %v", v)
	}
}

func TestCheckUnknownType(t *testing.T) {
	_, err := New().Check(context.Background(), provider.CheckRequest{Type: "random:index/randomStrin:RandomStrin", News: resource.Map{}})
	if err == nil || !strings.Contains(err.Error(), `did you mean "random:index/randomString:RandomString"?`) {
		t.Errorf("err = %v", err)
	}
}
