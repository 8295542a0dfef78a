package command

import (
	"context"
	"reflect"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/providertest"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		news map[string]any
		want []provider.CheckFailure
	}{
		{"empty", map[string]any{}, nil},
		{"everything", map[string]any{"create": "a", "update": "b", "delete": "c", "dir": "/", "stdin": "x",
			"environment": map[string]any{"A": "1"}, "interpreter": []any{"/bin/bash", "-c"}, "logging": "none",
			"triggers": []any{1, "two", map[string]any{"three": true}}, "addPreviousOutputInEnv": false,
			"assetPaths": []any{"*.txt"}, "archivePaths": []any{"!x"}}, nil},
		{"unknowns", map[string]any{"create": resource.Unknown(), "environment": map[string]any{"A": resource.Unknown()}}, nil},
		{"secrets", map[string]any{"create": resource.MakeSecret(resource.String("echo")), "environment": resource.MakeSecret(resource.Object(resource.Map{"A": resource.String("1")}))}, nil},
		{"misspelled", map[string]any{"craete": "x"}, []provider.CheckFailure{{Property: "craete",
			Reason: `unknown property "craete" (did you mean "create"?); the properties here are addPreviousOutputInEnv, archivePaths, assetPaths, create, delete, dir, environment, interpreter, logging, stdin, triggers, update`}}},
		{"types", map[string]any{"create": 1, "interpreter": []any{"/bin/sh", 2}, "environment": map[string]any{"A": true},
			"addPreviousOutputInEnv": "yes", "triggers": "x"}, []provider.CheckFailure{
			{Property: "addPreviousOutputInEnv", Reason: "must be a bool, not a string"},
			{Property: "create", Reason: "must be a string, not a number"},
			{Property: "environment.A", Reason: "must be a string, not a bool"},
			{Property: "interpreter[1]", Reason: "must be a string, not a number"},
			{Property: "triggers", Reason: "must be a list, not a string"},
		}},
		{"logging", map[string]any{"logging": "all"}, []provider.CheckFailure{
			{Property: "logging", Reason: `must be one of "stdout", "stderr", "stdoutAndStderr", "none"`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			news := resource.MapFromGo(tt.news)
			resp, err := New().Check(context.Background(), provider.CheckRequest{Type: CommandType, News: news})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(resp.Failures, tt.want) {
				t.Errorf("failures\ngot:  %#v\nwant: %#v", resp.Failures, tt.want)
			}
			if tt.want == nil && !resp.Inputs.Equal(news) {
				t.Errorf("Check changed the inputs to %v", resource.Object(resp.Inputs))
			}
		})
	}
}

func TestDiff(t *testing.T) {
	base := map[string]any{"create": "touch a", "delete": "rm a", "triggers": []any{1}, "environment": map[string]any{"X": "1"}}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for key, val := range base {
			m[key] = val
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name        string
		news        map[string]any
		wantChanges provider.DiffChanges
		wantReplace []string
		wantDetail  resource.DetailedDiff
	}{
		{"unchanged", base, provider.DiffNone, nil, nil},
		{"secretness", with("create", resource.MakeSecret(resource.String("touch a"))), provider.DiffNone, nil, nil},
		{"create", with("create", "touch b"), provider.DiffSome, nil,
			resource.DetailedDiff{"create": {Kind: resource.DiffUpdate, InputDiff: true}}},
		{"delete removed", with("delete", nil), provider.DiffSome, nil,
			resource.DetailedDiff{"delete": {Kind: resource.DiffDelete, InputDiff: true}}},
		{"environment", with("environment", map[string]any{"X": "2"}), provider.DiffSome, nil,
			resource.DetailedDiff{"environment.X": {Kind: resource.DiffUpdate, InputDiff: true}}},
		{"triggers", with("triggers", []any{2}), provider.DiffSome, []string{"triggers"},
			resource.DetailedDiff{"triggers[0]": {Kind: resource.DiffUpdateReplace, InputDiff: true}}},
		{"unknown trigger", with("triggers", []any{resource.Unknown()}), provider.DiffSome, []string{"triggers"},
			resource.DetailedDiff{"triggers[0]": {Kind: resource.DiffUpdateReplace, InputDiff: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := New().Diff(context.Background(), provider.DiffRequest{Type: CommandType,
				OldInputs: resource.MapFromGo(base), News: resource.MapFromGo(tt.news)})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Changes != tt.wantChanges || !reflect.DeepEqual(resp.ReplaceKeys, tt.wantReplace) ||
				!reflect.DeepEqual(resp.DetailedDiff, tt.wantDetail) && tt.wantDetail != nil {
				t.Errorf("got %v replace %v %v\nwant %v replace %v %v", resp.Changes, resp.ReplaceKeys, resp.DetailedDiff,
					tt.wantChanges, tt.wantReplace, tt.wantDetail)
			}
		})
	}
}

func TestSchema(t *testing.T) {
	providertest.CheckSchema(t, New(), schemaJSON, Version)
}
