package plan_test

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/plan"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/state"
)

const urn = resource.URN("urn:pulumi:dev::web::random:index/randomString:RandomString::word")

func TestCheck(t *testing.T) {
	secret := resource.MakeSecret
	s := resource.String
	planned := &plan.Plan{Resources: map[resource.URN]plan.Step{urn: {Op: "create", Inputs: resource.Map{
		"length":  resource.Number(8),
		"prefix":  resource.Unknown(),
		"tags":    resource.Array(s("a"), resource.Unknown()),
		"token":   secret(s("hunter2")),
		"options": resource.Object(resource.Map{"lower": resource.Bool(true), "seed": secret(resource.Unknown())}),
	}}}}
	base := func() resource.Map {
		return resource.Map{
			"length": resource.Number(8), "prefix": s("web-"), "tags": resource.Array(s("a"), s("b")),
			"token":   secret(s("hunter2")),
			"options": resource.Object(resource.Map{"lower": resource.Bool(true), "seed": secret(s("f00d"))}),
		}
	}
	tests := []struct {
		name    string
		urn     resource.URN
		op      string
		change  func(resource.Map)
		wantErr string // "" for none
	}{
		{name: "unknowns allow any value", op: "create", change: func(resource.Map) {}},
		{name: "a secret mark alone is no divergence", op: "create", change: func(m resource.Map) { m["length"] = secret(resource.Number(8)) }},
		{name: "known value changed", op: "create", change: func(m resource.Map) { m["length"] = resource.Number(9) },
			wantErr: "input length planned 8, actual 9"},
		{name: "known element of an array changed", op: "create", change: func(m resource.Map) { m["tags"] = resource.Array(s("z"), s("b")) },
			wantErr: `input tags[0] planned "a", actual "z"`},
		{name: "array length changed", op: "create", change: func(m resource.Map) { m["tags"] = resource.Array(s("a")) },
			wantErr: `input tags planned ["a", (unknown)], actual ["a"]`},
		{name: "secret changed, masked", op: "create", change: func(m resource.Map) { m["token"] = secret(s("swordfish")) },
			wantErr: "input token planned [secret], actual [secret]"},
		{name: "secret made plain, still masked", op: "create", change: func(m resource.Map) { m["token"] = s("swordfish") },
			wantErr: "input token planned [secret], actual [secret]"},
		{name: "nested key added", op: "create", change: func(m resource.Map) {
			m["options"] = resource.Object(resource.Map{"lower": resource.Bool(true), "upper": resource.Bool(false)})
		}, wantErr: "input options.upper planned null, actual false"},
		{name: "input removed", op: "create", change: func(m resource.Map) { delete(m, "length") },
			wantErr: "input length planned 8, actual null"},
		{name: "another operation", op: "update", change: func(resource.Map) {},
			wantErr: "planned create, but the update would update it"},
		{name: "unplanned resource stays the same", urn: urn + "2", op: "same", change: func(resource.Map) {}},
		{name: "unplanned resource is not created", urn: urn + "2", op: "create", change: func(resource.Map) {},
			wantErr: "the plan does not touch it, but the update would create it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := tt.urn
			if u == "" {
				u = urn
			}
			inputs := base()
			tt.change(inputs)
			err := planned.Check(u, tt.op, inputs)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("got %v, want no error", err)
			case tt.wantErr != "" && err == nil:
				t.Fatalf("got no error, want %q", tt.wantErr)
			case err != nil && !strings.Contains(err.Error(), tt.wantErr):
				t.Fatalf("got %v, want %q in it", err, tt.wantErr)
			case err != nil && (!strings.Contains(err.Error(), string(u)) || strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "swordfish") || strings.Contains(err.Error(), "f00d")):
				t.Fatalf("got %v, want the URN named and no secret", err)
			}
		})
	}
}

func TestCheckDelete(t *testing.T) {
	p := &plan.Plan{Resources: map[resource.URN]plan.Step{urn: {Op: "delete"}}}
	if err := p.Check(urn, "delete", nil); err != nil {
		t.Fatal(err)
	}
	if err := p.Check(urn, "same", resource.Map{}); err == nil {
		t.Fatal("a planned delete that does not happen passed")
	}
}

func manager(t testing.TB) secrets.Manager {
	m, err := secrets.GeneratePassphraseManager("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestEncodeDecode(t *testing.T) {
	sm := manager(t)
	p := &plan.Plan{Stack: "dev", Project: "web", ProgramHash: "sha256:1", ConfigHash: "sha256:2", SeedKey: []byte{1, 2, 3},
		Base: plan.Base{Version: 3, Hash: "sha256:3", Resources: map[resource.URN]string{urn: "sha256:4"}},
		Resources: map[resource.URN]plan.Step{
			urn:       {Op: "create", Inputs: resource.Map{"token": resource.MakeSecret(resource.String("hunter2")), "n": resource.Unknown()}, Outputs: resource.Map{"result": resource.String("x")}},
			urn + "2": {Op: "delete"},
			urn + "3": {Op: "same", Inputs: resource.Map{}},
		}}
	data, err := plan.Encode(p, sm)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "hunter2") {
		t.Fatalf("the plan holds a secret in plaintext:\n%s", data)
	}
	got, err := plan.Decode(data, "dev", "web", sm)
	if err != nil {
		t.Fatal(err)
	}
	if got.Stack != p.Stack || got.Project != p.Project || got.ProgramHash != p.ProgramHash || got.ConfigHash != p.ConfigHash ||
		string(got.SeedKey) != string(p.SeedKey) || got.Base.Hash != p.Base.Hash || got.Base.Resources[urn] != "sha256:4" {
		t.Fatalf("got %+v, want %+v", got, p)
	}
	for u, want := range p.Resources {
		g := got.Resources[u]
		if g.Op != want.Op || (g.Inputs == nil) != (want.Inputs == nil) || !g.Inputs.Equal(want.Inputs) || !g.Outputs.Equal(want.Outputs) {
			t.Errorf("%s: got %+v, want %+v", u, g, want)
		}
	}
	if _, err := plan.Decode(data, "prod", "web", sm); err == nil || !strings.Contains(err.Error(), `it is for stack "dev" of project "web", not "prod"`) {
		t.Errorf("a plan for another stack: got %v", err)
	}
	if _, err := plan.Decode(data, "dev", "web", manager(t)); err == nil {
		t.Error("a plan decrypted with another stack's key loaded")
	}
	for in, want := range map[string]string{
		`{"version": 2, "stack": "dev", "project": "web"}`: "format version 2, and this Cairn reads version 1",
		`{"stack": "dev"}`: "it has no version",
		`[1]`:              "not a plan file",
	} {
		if _, err := plan.Decode([]byte(in), "dev", "web", sm); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", in, err, want)
		}
	}
}

func TestBaseSince(t *testing.T) {
	dep := func(resources string) *state.UntypedDeployment {
		return &state.UntypedDeployment{Version: 3, Deployment: []byte(`{"manifest": {"time": "now"}, "resources": [` + resources + `]}`)}
	}
	a := `{"urn": "urn:a", "id": "1"}`
	b := `{"urn": "urn:b", "id": "2"}`
	base, err := plan.BaseOf(1, dep(a+","+b))
	if err != nil {
		t.Fatal(err)
	}
	same, err := plan.BaseOf(2, &state.UntypedDeployment{Deployment: []byte(`{"manifest": {"time": "later"}, "resources": [` + a + "," + b + `]}`)})
	if err != nil {
		t.Fatal(err)
	}
	if err := base.Since(same); err != nil {
		t.Errorf("the same resources written again: %v", err)
	}
	moved, err := plan.BaseOf(2, dep(`{"urn": "urn:a", "id": "9"}, {"urn": "urn:c"}`))
	if err != nil {
		t.Fatal(err)
	}
	err = base.Since(moved)
	if err == nil || !strings.Contains(err.Error(), "version 1 to 2 since (added urn:c; removed urn:b; changed urn:a)") {
		t.Errorf("got %v", err)
	}
	empty, _ := plan.BaseOf(0, nil)
	if err := empty.Since(base); err == nil || !strings.Contains(err.Error(), "added urn:a, urn:b") {
		t.Errorf("got %v", err)
	}
}
