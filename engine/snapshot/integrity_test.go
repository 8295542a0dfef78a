package snapshot_test

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

func TestVerifyIntegrity(t *testing.T) {
	const petType = "random:index/randomPet:RandomPet"
	provURN := resource.URN("urn:pulumi:dev::web::pulumi:providers:random::p")
	pet := func(name string, edit func(*resource.State)) *resource.State {
		s := &resource.State{URN: resource.URN("urn:pulumi:dev::web::" + petType + "::" + name), Type: petType, Custom: true, ID: resource.ID(name)}
		if edit != nil {
			edit(s)
		}
		return s
	}
	prov := &resource.State{URN: provURN, Type: "pulumi:providers:random", Custom: true, ID: "1"}
	for _, tt := range []struct {
		name      string
		resources []*resource.State
		want      string // "" for a valid snapshot
	}{
		{"valid", []*resource.State{prov, pet("a", func(s *resource.State) { s.Provider = string(provURN) + "::1" }), pet("b", func(s *resource.State) { s.Dependencies = []resource.URN{pet("a", nil).URN} })}, ""},
		{"old copy pending deletion", []*resource.State{pet("a", func(s *resource.State) { s.Delete = true }), pet("a", nil)}, ""},
		{"no URN", []*resource.State{{Type: petType}}, "has no URN"},
		{"no type", []*resource.State{pet("a", func(s *resource.State) { s.Type = "" })}, "has no type"},
		{"type not the URN's", []*resource.State{pet("a", func(s *resource.State) { s.Type = "random:index/randomId:RandomId" })}, "does not match its URN"},
		{"component with an ID", []*resource.State{pet("a", func(s *resource.State) { s.Custom = false })}, "component resource but has an ID"},
		{"missing provider", []*resource.State{pet("a", func(s *resource.State) { s.Provider = string(provURN) + "::1" })}, "provider " + string(provURN) + " is missing"},
		{"dependency after", []*resource.State{pet("b", func(s *resource.State) { s.Dependencies = []resource.URN{pet("a", nil).URN} }), pet("a", nil)}, "dependency " + string(pet("a", nil).URN) + " comes after it"},
		{"missing parent", []*resource.State{pet("a", func(s *resource.State) { s.Parent = "urn:pulumi:dev::web::pulumi:pulumi:Stack::web-dev" })}, "parent urn:pulumi:dev::web::pulumi:pulumi:Stack::web-dev is missing"},
		{"missing property dependency", []*resource.State{pet("a", func(s *resource.State) {
			s.PropertyDependencies = map[string][]resource.URN{"x": {"urn:pulumi:dev::web::t::gone"}}
		})}, "property dependency"},
		{"missing deletedWith", []*resource.State{pet("a", func(s *resource.State) { s.DeletedWith = "urn:pulumi:dev::web::t::gone" })}, "deletedWith"},
		{"missing replaceWith", []*resource.State{pet("a", func(s *resource.State) { s.ReplaceWith = []resource.URN{"urn:pulumi:dev::web::t::gone"} })}, "replaceWith"},
		{"twice", []*resource.State{pet("a", nil), pet("a", nil)}, "appears twice"},
	} {
		err := (&snapshot.Snapshot{Resources: tt.resources}).VerifyIntegrity()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: got %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
}
