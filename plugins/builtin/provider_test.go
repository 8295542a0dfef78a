package builtin

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/providertest"
)

// stacks is an in-memory StackReader.
type stacks map[string]resource.Map

func (s stacks) StackOutputs(_ context.Context, name string) (resource.Map, error) {
	out, ok := s[name]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrStackNotFound, name)
	}
	return out, nil
}

var other = stacks{"org/net/prod": {
	"vpcId":    resource.String("vpc-1"),
	"password": resource.MakeSecret(resource.String("hunter2")),
	"nested":   resource.Object(resource.Map{"key": resource.MakeSecret(resource.String("k"))}),
}}

func TestCheck(t *testing.T) {
	tests := []struct {
		typ  string
		news map[string]any
		want []provider.CheckFailure
	}{
		{StackReferenceType, map[string]any{"name": "org/net/prod"}, nil},
		{StackReferenceType, map[string]any{"name": resource.Unknown()}, nil},
		{StackReferenceType, map[string]any{}, []provider.CheckFailure{{Property: "name", Reason: `missing required property "name"`}}},
		{StackReferenceType, map[string]any{"name": 3}, []provider.CheckFailure{{Property: "name", Reason: "must be a string, not a number"}}},
		{StackReferenceType, map[string]any{"name": "x", "stack": "y"}, []provider.CheckFailure{{Property: "stack",
			Reason: `unknown property "stack"; the properties here are name`}}},
		{StashType, map[string]any{"input": map[string]any{"any": []any{1, "thing"}}}, nil},
		{StashType, map[string]any{}, []provider.CheckFailure{{Property: "input", Reason: `missing required property "input"`}}},
	}
	for _, tt := range tests {
		resp, err := New(Options{}).Check(context.Background(), provider.CheckRequest{Type: tt.typ, News: resource.MapFromGo(tt.news)})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(resp.Failures, tt.want) {
			t.Errorf("%s %v: failures\ngot:  %#v\nwant: %#v", tt.typ, tt.news, resp.Failures, tt.want)
		}
	}
	if _, err := New(Options{}).Check(context.Background(), provider.CheckRequest{Type: "pulumi:pulumi:StackRef"}); err == nil {
		t.Errorf("an unknown type passed Check")
	}
}

func TestStackReferenceOutputs(t *testing.T) {
	p := New(Options{Stacks: other})
	resp, err := p.Create(context.Background(), provider.CreateRequest{Type: StackReferenceType,
		Inputs: resource.MapFromGo(map[string]any{"name": "org/net/prod"})})
	if err != nil {
		t.Fatal(err)
	}
	if resp.ID == "" {
		t.Errorf("no ID")
	}
	outs := resp.Outputs["outputs"].ObjectValue()
	if !outs["password"].IsSecret() || !outs["nested"].ContainsSecrets() || outs["vpcId"].IsSecret() {
		t.Errorf("secrets are not kept: %v", resp.Outputs["outputs"])
	}
	wantNames := resource.Array(resource.String("nested"), resource.String("password"))
	if !resp.Outputs["secretOutputNames"].Equal(wantNames) {
		t.Errorf("secretOutputNames = %v, want %v", resp.Outputs["secretOutputNames"], wantNames)
	}

	// In a preview with the name unknown, the outputs are unknown too.
	resp, err = p.Create(context.Background(), provider.CreateRequest{Type: StackReferenceType, Preview: true,
		Inputs: resource.Map{"name": resource.Unknown()}})
	if err != nil || !resp.Outputs["outputs"].IsUnknown() || resp.ID != "" {
		t.Errorf("preview with unknown name: %v %v %v", resp.ID, resource.Object(resp.Outputs), err)
	}
}

func TestStackReferenceErrors(t *testing.T) {
	tests := []struct {
		opts Options
		name string
		want string
	}{
		{Options{Stacks: other}, "org/net/dev", `stack "org/net/dev" does not exist in this backend: check its name`},
		{Options{}, "org/net/prod", "this deployment was started without access to the backend's stacks"},
		{Options{Stacks: StackReaderFunc(func(context.Context, string) (resource.Map, error) { return nil, errors.New("disk on fire") })},
			"x", `reading the outputs of stack "x": disk on fire`},
	}
	for _, tt := range tests {
		_, err := New(tt.opts).Create(context.Background(), provider.CreateRequest{Type: StackReferenceType,
			Inputs: resource.MapFromGo(map[string]any{"name": tt.name})})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
		if tt.opts.Stacks != nil && strings.Contains(tt.want, "does not exist") && !errors.Is(err, ErrStackNotFound) {
			t.Errorf("%s: the error does not wrap ErrStackNotFound", tt.name)
		}
	}
}

func TestStackReferenceRead(t *testing.T) {
	p := New(Options{Stacks: other})
	resp, err := p.Read(context.Background(), provider.ReadRequest{Type: StackReferenceType, ID: "org/net/prod",
		Inputs: resource.MapFromGo(map[string]any{"name": "org/net/prod"})})
	if err != nil {
		t.Fatal(err)
	}
	if resp.ID != "org/net/prod" || !resp.Outputs["outputs"].ObjectValue()["password"].IsSecret() {
		t.Errorf("read %v %v", resp.ID, resource.Object(resp.Outputs))
	}
	tests := []struct {
		inputs resource.Map
		want   string
	}{
		{nil, "a stack reference cannot be imported by ID"},
		{resource.MapFromGo(map[string]any{"name": "org/net/prod", "x": 1}), `a stack reference has one input, "name"; remove "x"`},
	}
	for _, tt := range tests {
		if _, err := p.Read(context.Background(), provider.ReadRequest{Type: StackReferenceType, ID: "org/net/prod", Inputs: tt.inputs}); err == nil ||
			!strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: err = %v, want %q", tt.inputs, err, tt.want)
		}
	}
}

func TestStackReferenceDiff(t *testing.T) {
	fresh, err := New(Options{Stacks: other}).stackOutputs(context.Background(), "org/net/prod")
	if err != nil {
		t.Fatal(err)
	}
	stale := fresh.Copy()
	stale["outputs"] = resource.Object(resource.Map{"vpcId": resource.String("vpc-0")})
	tests := []struct {
		name        string
		news        string
		oldOutputs  resource.Map
		wantChanges provider.DiffChanges
		wantReplace []string
		wantChanged []string
	}{
		{"unchanged", "org/net/prod", fresh, provider.DiffNone, nil, nil},
		{"other stack changed", "org/net/prod", stale, provider.DiffSome, nil, []string{"outputs"}},
		{"renamed", "org/net/dev", fresh, provider.DiffSome, []string{"name"}, []string{"name"}},
	}
	for _, tt := range tests {
		resp, err := New(Options{Stacks: other}).Diff(context.Background(), provider.DiffRequest{Type: StackReferenceType,
			OldInputs: resource.Map{"name": resource.String("org/net/prod")}, OldOutputs: tt.oldOutputs,
			News: resource.Map{"name": resource.String(tt.news)}})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Changes != tt.wantChanges || !reflect.DeepEqual(resp.ReplaceKeys, tt.wantReplace) || !reflect.DeepEqual(resp.ChangedKeys, tt.wantChanged) {
			t.Errorf("%s: got %v replace %v changed %v", tt.name, resp.Changes, resp.ReplaceKeys, resp.ChangedKeys)
		}
	}
}

func TestStash(t *testing.T) {
	p := New(Options{})
	ctx := context.Background()
	created, err := p.Create(ctx, provider.CreateRequest{Type: StashType, Inputs: resource.MapFromGo(map[string]any{"input": "first"})})
	if err != nil {
		t.Fatal(err)
	}
	if !created.Outputs.Equal(resource.MapFromGo(map[string]any{"input": "first", "output": "first"})) || created.ID == "" {
		t.Errorf("create: %v %v", created.ID, resource.Object(created.Outputs))
	}
	diff, err := p.Diff(ctx, provider.DiffRequest{Type: StashType, OldInputs: resource.MapFromGo(map[string]any{"input": "first"}),
		OldOutputs: created.Outputs, News: resource.MapFromGo(map[string]any{"input": "second"})})
	if err != nil || diff.Changes != provider.DiffSome || len(diff.ReplaceKeys) != 0 {
		t.Errorf("diff: %+v %v", diff, err)
	}
	updated, err := p.Update(ctx, provider.UpdateRequest{Type: StashType, OldOutputs: created.Outputs,
		News: resource.MapFromGo(map[string]any{"input": "second"})})
	if err != nil || !updated.Outputs.Equal(resource.MapFromGo(map[string]any{"input": "second", "output": "first"})) {
		t.Errorf("update: %v %v", resource.Object(updated.Outputs), err)
	}
	imported, err := p.Read(ctx, provider.ReadRequest{Type: StashType, ID: "s1"})
	if err != nil || imported.ID != "s1" || !imported.Outputs.Equal(resource.Map{"input": resource.Null, "output": resource.Null}) {
		t.Errorf("import: %v %v", imported, err)
	}
	refreshed, err := p.Read(ctx, provider.ReadRequest{Type: StashType, ID: "s1", Inputs: resource.Map{}, Outputs: updated.Outputs})
	if err != nil || !refreshed.Outputs.Equal(updated.Outputs) {
		t.Errorf("refresh: %v %v", refreshed, err)
	}
	if err := p.Delete(ctx, provider.DeleteRequest{Type: StashType, ID: "s1"}); err != nil {
		t.Errorf("delete: %v", err)
	}
}

func TestInvoke(t *testing.T) {
	state := &resource.State{URN: "urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet", ID: "happy-cat",
		Provider: "urn:pulumi:dev::proj::pulumi:providers:random::default::abc", Outputs: resource.MapFromGo(map[string]any{"length": 2})}
	p := New(Options{Stacks: other, Resources: ResourceLookupFunc(func(_ context.Context, urn resource.URN) (*resource.State, bool) {
		return state, urn == state.URN
	})})
	tests := []struct {
		token string
		args  map[string]any
		want  map[string]any
		err   string
		fails []provider.CheckFailure
	}{
		{token: GetResource, args: map[string]any{"urn": string(state.URN)}, want: map[string]any{"urn": string(state.URN),
			"id": "happy-cat", "provider": state.Provider, "state": map[string]any{"length": 2}}},
		{token: GetResource, args: map[string]any{"urn": "urn:pulumi:dev::proj::x:y:Z::nope"}, err: "unknown resource urn:pulumi:dev::proj::x:y:Z::nope"},
		{token: GetResource, args: map[string]any{}, fails: []provider.CheckFailure{{Property: "urn", Reason: `missing required property "urn"`}}},
		{token: ReadStackOutputs, args: map[string]any{"name": "org/net/prod"}, want: map[string]any{"name": "org/net/prod",
			"outputs": other["org/net/prod"], "secretOutputNames": []any{"nested", "password"}}},
		{token: ReadStackOutputs, args: map[string]any{"name": "nope"}, err: `stack "nope" does not exist`},
		{token: "pulumi:pulumi:readStackOutput", err: `did you mean "pulumi:pulumi:readStackOutputs"?`},
	}
	for _, tt := range tests {
		resp, err := p.Invoke(context.Background(), provider.InvokeRequest{Token: tt.token, Args: resource.MapFromGo(tt.args)})
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s %v: err = %v, want %q", tt.token, tt.args, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s %v: %v", tt.token, tt.args, err)
		case !reflect.DeepEqual(resp.Failures, tt.fails):
			t.Errorf("%s %v: failures %v", tt.token, tt.args, resp.Failures)
		case tt.want != nil && !resp.Return.Equal(resource.MapFromGo(tt.want)):
			t.Errorf("%s %v: returned %v", tt.token, tt.args, resource.Object(resp.Return))
		}
	}
	if _, err := New(Options{}).Invoke(context.Background(), provider.InvokeRequest{Token: GetResource,
		Args: resource.MapFromGo(map[string]any{"urn": string(state.URN)})}); err == nil ||
		!strings.Contains(err.Error(), "without access to its resources") {
		t.Errorf("getResource without a lookup: err = %v", err)
	}
}

func TestSchema(t *testing.T) {
	providertest.CheckSchema(t, New(Options{}), schemaJSON, Version)
}
