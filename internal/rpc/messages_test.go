package rpc

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

func TestRemarkSecrets(t *testing.T) {
	pw := resource.String("pw")
	tests := []struct {
		name            string
		outputs, inputs resource.Map
		want            resource.Map
	}{
		{"secret input marks its output",
			resource.Map{"a": pw, "b": resource.Number(1)},
			resource.Map{"a": resource.MakeSecret(pw), "b": resource.Number(1)},
			resource.Map{"a": resource.MakeSecret(pw), "b": resource.Number(1)}},
		{"nested secret marks only the nested output",
			resource.Map{"o": resource.Object(resource.Map{"k": pw, "p": pw})},
			resource.Map{"o": resource.Object(resource.Map{"k": resource.MakeSecret(pw), "p": pw})},
			resource.Map{"o": resource.Object(resource.Map{"k": resource.MakeSecret(pw), "p": pw})}},
		{"secret in an array marks the whole array",
			resource.Map{"l": resource.Array(pw)},
			resource.Map{"l": resource.Array(resource.MakeSecret(pw))},
			resource.Map{"l": resource.MakeSecret(resource.Array(pw))}},
		{"outputs without an input stay",
			resource.Map{"x": pw},
			resource.Map{"a": resource.MakeSecret(pw)},
			resource.Map{"x": pw}},
		{"nil inputs", resource.Map{"x": pw}, nil, resource.Map{"x": pw}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RemarkSecrets(tt.outputs, tt.inputs); !got.Equal(tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDiffRoundTrip(t *testing.T) {
	tests := []provider.DiffResponse{
		{Changes: provider.DiffUnknown},
		{Changes: provider.DiffNone, StableKeys: []string{"id"}},
		{Changes: provider.DiffSome, ReplaceKeys: []string{"k"}, ChangedKeys: []string{"k", "v"}, DeleteBeforeReplace: true,
			DetailedDiff: resource.DetailedDiff{
				"k":    {Kind: resource.DiffUpdateReplace, InputDiff: true},
				"v[0]": {Kind: resource.DiffAdd},
				"w":    {Kind: resource.DiffDeleteReplace},
			}},
	}
	for i, d := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := DiffFromWire(DiffToWire(d)); !reflect.DeepEqual(got, d) {
				t.Errorf("got %+v, want %+v", got, d)
			}
		})
	}
}

func TestErrorsToStatusAndBack(t *testing.T) {
	ie := &provider.InitError{ID: "half", Outputs: resource.Map{"pw": resource.MakeSecret(resource.String("x"))},
		Reasons: []string{"health check failed"}}
	st := status.Convert(ErrorToStatus(fmt.Errorf("creating: %w", ie), Everything))
	got, err := InitErrorFromStatus(st, Everything)
	if err != nil || got == nil {
		t.Fatalf("InitErrorFromStatus = %v, %v", got, err)
	}
	if got.ID != ie.ID || !got.Outputs.Equal(ie.Outputs) || !reflect.DeepEqual(got.Reasons, ie.Reasons) {
		t.Errorf("got %+v, want %+v", got, ie)
	}

	codesFor := []struct {
		err  error
		want codes.Code
	}{
		{provider.ErrNotImplemented, codes.Unimplemented},
		{errors.New("boom"), codes.Unknown},
	}
	for _, c := range codesFor {
		if got := status.Code(ErrorToStatus(c.err, Everything)); got != c.want {
			t.Errorf("%v: code %v, want %v", c.err, got, c.want)
		}
	}
	if ie, _ := InitErrorFromStatus(status.New(codes.Unknown, "plain"), Everything); ie != nil {
		t.Errorf("a plain status has no partial failure, got %+v", ie)
	}
}

func TestDependencyMaps(t *testing.T) {
	deps := map[string][]resource.URN{"a": {depURN}}
	wire := DepsToWire(deps, func(us []string) *wrappedURNs { return &wrappedURNs{us} })
	if got := DepsFromWire(wire); !reflect.DeepEqual(got, deps) {
		t.Errorf("got %v, want %v", got, deps)
	}
	if DepsToWire[*wrappedURNs](nil, nil) != nil || DepsFromWire[*wrappedURNs](nil) != nil {
		t.Error("empty maps should stay nil")
	}
}

type wrappedURNs struct{ urns []string }

func (w *wrappedURNs) GetUrns() []string { return w.urns }
