package random

import (
	"regexp"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/providertest"
)

// hunter is the secret of the tests below.
const hunter = "hunter2-prefix"

var opaque = regexp.MustCompile(`^[0-9a-f]{16}$`)

// secretly returns news with the input key made secret.
func secretly(news map[string]any, key string) map[string]any {
	out := with(news)
	out[key] = resource.MakeSecret(resource.FromGo(news[key]))
	return out
}

// A value drawn from a secret input is secret, and its ID is opaque where
// pulumi-random's would be made of the value; the same inputs in plain text
// keep pulumi-random's ID and plain outputs.
func TestSecretInputs(t *testing.T) {
	tests := []struct {
		typ, key string
		news     map[string]any
	}{
		{"RandomPet", "prefix", map[string]any{"prefix": hunter}},
		{"RandomPet", "separator", map[string]any{"separator": hunter}},
		{"RandomId", "prefix", map[string]any{"byteLength": 4, "prefix": hunter}},
		{"RandomString", "overrideSpecial", map[string]any{"length": 8, "upper": false, "lower": false, "numeric": false, "overrideSpecial": hunter}},
		{"RandomString", "length", map[string]any{"length": 8}},
		{"RandomInteger", "seed", map[string]any{"min": 0, "max": 1000000, "seed": hunter}},
		{"RandomShuffle", "inputs", map[string]any{"inputs": []any{hunter, "b"}}},
		{"RandomPassword", "overrideSpecial", map[string]any{"length": 8, "overrideSpecial": hunter}},
	}
	for _, tt := range tests {
		t.Run(tt.typ+" "+tt.key, func(t *testing.T) {
			plain := create(t, tt.typ, tt.news, 7, false)
			secret := create(t, tt.typ, secretly(tt.news, tt.key), 7, false)
			if !opaque.MatchString(string(secret.ID)) {
				t.Errorf("ID %q with a secret %s (%q without): want an opaque ID", secret.ID, tt.key, plain.ID)
			}
			res, _, _ := lookup(tok(tt.typ))
			for name, p := range res.Properties {
				if _, input := res.InputProperties[name]; input {
					continue
				}
				if !secret.Outputs[name].IsSecret() {
					t.Errorf("%s = %v is not secret", name, secret.Outputs[name])
				}
				if !p.Secret && plain.Outputs[name].IsSecret() {
					t.Errorf("%s is secret without a secret input", name)
				}
			}
			if c := check(t, tt.typ, nil, secretly(tt.news, tt.key), 7); !c.Inputs[seedKey].IsSecret() {
				t.Errorf("the seed is plain beside a secret input")
			}
		})
	}
	if pet := create(t, "RandomPet", map[string]any{"prefix": hunter}, 7, false); !strings.HasPrefix(string(pet.ID), hunter+"-") {
		t.Errorf("a pet with a plain prefix is named %q, not after its prefix", pet.ID)
	}
}

// Secret keepers make the seed secret but leave the value and its ID as
// pulumi-random has them: they only key the stream the value is drawn from.
func TestSecretKeepers(t *testing.T) {
	news := map[string]any{"length": 12, "keepers": resource.MakeSecret(resource.FromGo(map[string]any{"rotation": hunter}))}
	if c := check(t, "RandomString", nil, news, 3); !c.Inputs[seedKey].IsSecret() {
		t.Errorf("the seed is plain beside secret keepers")
	}
	resp := create(t, "RandomString", news, 3, false)
	if result := resp.Outputs["result"]; result.IsSecret() || string(resp.ID) != result.StringValue() {
		t.Errorf("ID %q, result %v: want the plain result as the ID", resp.ID, result)
	}
	// An existing resource whose keepers turn secret keeps its seed, now secret.
	old := check(t, "RandomString", nil, map[string]any{"length": 12, "keepers": map[string]any{"rotation": hunter}}, 3)
	if c := check(t, "RandomString", old.Inputs, news, 4); !c.Inputs[seedKey].IsSecret() || !c.Inputs[seedKey].Unsecret().Equal(old.Inputs[seedKey]) {
		t.Errorf("seed %v, want the old seed %v as a secret", c.Inputs[seedKey], old.Inputs[seedKey])
	}
}

// plainTexts returns every string of a state that the checkpoint keeps in
// plain text: its URN, ID and the strings of its inputs and outputs outside
// secrets.
func plainTexts(s *resource.State) []string {
	out := []string{string(s.URN), string(s.ID)}
	var walk func(v resource.Value)
	walk = func(v resource.Value) {
		switch {
		case v.IsString():
			out = append(out, v.StringValue())
		case v.IsArray():
			for _, e := range v.ArrayValue() {
				walk(e)
			}
		case v.IsObject():
			for k, e := range v.ObjectValue() {
				out = append(out, k)
				walk(e)
			}
		}
	}
	walk(resource.Object(s.Inputs))
	walk(resource.Object(s.Outputs))
	return out
}

// Resources drawn from secret inputs keep no plaintext of them anywhere
// in the state, are the same on the next update, and refresh from their
// opaque IDs.
func TestLifecycleSecretInputs(t *testing.T) {
	s := providertest.New(t, provider.Factories{Factory()})
	secret := resource.MakeSecret(resource.String(hunter))
	rs := []providertest.Resource{
		{Type: tok("RandomPet"), Name: "pet", Properties: resource.Map{"prefix": secret}},
		{Type: tok("RandomId"), Name: "id", Properties: resource.Map{"byteLength": resource.Number(6), "prefix": secret}},
		{Type: tok("RandomInteger"), Name: "int", Properties: resource.Map{"min": resource.Number(0), "max": resource.Number(1 << 40), "seed": secret}},
		{Type: tok("RandomShuffle"), Name: "shuffle", Properties: resource.Map{"inputs": resource.Array(secret, resource.String("b"))}},
		{Type: tok("RandomString"), Name: "str", Properties: resource.Map{"length": resource.Number(10), "keepers": resource.Object(resource.Map{"k": secret})}},
	}
	run, err := s.Up(rs...)
	providertest.Expect(t, "create", run, err, "create default", "create id", "create int", "create pet", "create proj-dev", "create shuffle", "create str")
	ids := map[string]resource.ID{}
	for _, r := range s.Snapshot.Resources {
		for _, text := range plainTexts(r) {
			if strings.Contains(text, hunter) {
				t.Errorf("%s keeps %q in plain text", r.URN.Name(), text)
			}
		}
		ids[r.URN.Name()] = r.ID
	}
	if !opaque.MatchString(string(ids["pet"])) {
		t.Errorf("the pet's ID is %q, not opaque", ids["pet"])
	}
	outputs := s.Find("id").Outputs.Copy()

	run, err = s.Up(rs...)
	providertest.Expect(t, "no-change update", run, err, "same default", "same id", "same int", "same pet", "same proj-dev", "same shuffle", "same str")
	run, err = s.Refresh()
	providertest.Expect(t, "refresh", run, err, "refresh id", "refresh int", "refresh pet", "refresh shuffle", "refresh str")
	for name, id := range ids {
		if got := s.Find(name); got == nil || got.ID != id {
			t.Errorf("%s: %v after the update and refresh, was ID %q", name, got, id)
		}
	}
	if got := s.Find("id").Outputs; !got.Equal(outputs) {
		t.Errorf("refreshed outputs %v, were %v", resource.Object(got), resource.Object(outputs))
	}
}
