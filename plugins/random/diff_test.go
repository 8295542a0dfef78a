package random

import (
	"context"
	"reflect"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

func TestDiff(t *testing.T) {
	str := with(charsetDefaults, "length", 8)
	tests := []struct {
		name        string
		typ         string
		olds, news  map[string]any
		wantReplace []string
		wantDetail  resource.DetailedDiff
	}{
		{name: "unchanged", typ: "RandomString", olds: str, news: str},
		{name: "defaults left out by pulumi-random", typ: "RandomString", olds: map[string]any{"length": 8}, news: str},
		{name: "number written as numeric", typ: "RandomString", olds: with(str, "number", false, "numeric", false),
			news: map[string]any{"length": 8, "numeric": false}},
		{name: "empty overrideSpecial", typ: "RandomString", olds: with(str, "overrideSpecial", ""), news: str},
		{name: "keepers without values", typ: "RandomString", olds: str, news: with(str, "keepers", map[string]any{"a": nil})},
		{name: "secretness", typ: "RandomString", olds: str, news: with(str, "length", resource.MakeSecret(resource.Number(8)))},
		{name: "the seed", typ: "RandomString", olds: with(str, seedKey, "aa"), news: with(str, seedKey, "bb")},
		{name: "length", typ: "RandomString", olds: str, news: with(str, "length", 9), wantReplace: []string{"length"},
			wantDetail: resource.DetailedDiff{"length": {Kind: resource.DiffUpdateReplace, InputDiff: true}}},
		{name: "unknown length", typ: "RandomPassword", olds: str, news: with(str, "length", resource.Unknown()), wantReplace: []string{"length"},
			wantDetail: resource.DetailedDiff{"length": {Kind: resource.DiffUpdateReplace, InputDiff: true}}},
		{name: "a keeper", typ: "RandomPassword", olds: with(str, "keepers", map[string]any{"a": "1"}),
			news: with(str, "keepers", map[string]any{"a": "2", "b": "1"}), wantReplace: []string{"keepers"},
			wantDetail: resource.DetailedDiff{
				"keepers.a": {Kind: resource.DiffUpdateReplace, InputDiff: true},
				"keepers.b": {Kind: resource.DiffAddReplace, InputDiff: true}}},
		{name: "special off", typ: "RandomString", olds: str, news: with(str, "special", false), wantReplace: []string{"special"},
			wantDetail: resource.DetailedDiff{"special": {Kind: resource.DiffUpdateReplace, InputDiff: true}}},
		{name: "pet separator", typ: "RandomPet", olds: map[string]any{"length": 2, "separator": "-"}, news: map[string]any{"separator": "_"},
			wantReplace: []string{"separator"}, wantDetail: resource.DetailedDiff{"separator": {Kind: resource.DiffUpdateReplace, InputDiff: true}}},
		{name: "prefix removed", typ: "RandomId", olds: map[string]any{"byteLength": 4, "prefix": "p-"}, news: map[string]any{"byteLength": 4},
			wantReplace: []string{"prefix"}, wantDetail: resource.DetailedDiff{"prefix": {Kind: resource.DiffDeleteReplace, InputDiff: true}}},
		{name: "shuffle element", typ: "RandomShuffle", olds: map[string]any{"inputs": []any{"a", "b"}}, news: map[string]any{"inputs": []any{"a", "c"}},
			wantReplace: []string{"inputs"}, wantDetail: resource.DetailedDiff{"inputs[1]": {Kind: resource.DiffUpdateReplace, InputDiff: true}}},
		{name: "integer seed", typ: "RandomInteger", olds: map[string]any{"min": 1, "max": 2}, news: map[string]any{"min": 1, "max": 2, "seed": "x"},
			wantReplace: []string{"seed"}, wantDetail: resource.DetailedDiff{"seed": {Kind: resource.DiffAddReplace, InputDiff: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := New().Diff(context.Background(), provider.DiffRequest{Type: tok(tt.typ),
				OldInputs: resource.MapFromGo(tt.olds), OldOutputs: resource.Map{}, News: resource.MapFromGo(tt.news)})
			if err != nil {
				t.Fatal(err)
			}
			wantChanges := provider.DiffNone
			if tt.wantReplace != nil {
				wantChanges = provider.DiffSome
			}
			if resp.Changes != wantChanges || !reflect.DeepEqual(resp.ReplaceKeys, tt.wantReplace) {
				t.Errorf("changes %v replace %v, want %v replace %v", resp.Changes, resp.ReplaceKeys, wantChanges, tt.wantReplace)
			}
			if len(tt.wantDetail) > 0 && !reflect.DeepEqual(resp.DetailedDiff, tt.wantDetail) {
				t.Errorf("detailed diff\ngot:  %v\nwant: %v", resp.DetailedDiff, tt.wantDetail)
			}
		})
	}
}

// A state without inputs (from an old engine) is diffed by its outputs.
func TestDiffWithoutOldInputs(t *testing.T) {
	outputs := resource.MapFromGo(with(charsetDefaults, "length", 8, "result", "abcdefgh"))
	resp, err := New().Diff(context.Background(), provider.DiffRequest{Type: tok("RandomString"),
		OldOutputs: outputs, News: resource.MapFromGo(map[string]any{"length": 8})})
	if err != nil || resp.Changes != provider.DiffNone {
		t.Errorf("got %v, %v; want no changes", resp.Changes, err)
	}
}
