package tfstate_test

import (
	"os"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/schema"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/tfstate"
	"github.com/cairn-iac/cairn/eval"
)

func TestReadVersions(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{"version": 3, "modules": []}`, "format version is 3, which Terraform 0.11 and earlier wrote"},
		{`{"version": 5}`, "format version is 5, newer than the version 4"},
		{`{"serial": 1}`, "it has no format version"},
		{`not json`, "not valid JSON"},
		{`{"version": 0}`, "format version is 0, which no Terraform writes"},
		{`{"version": 4, "resources": [
			{"mode": "managed", "type": "null_resource", "name": "a", "instances": [{"attributes": {"id": "1"}}]},
			{"mode": "data", "type": "null_resource", "name": "a", "instances": []},
			{"module": "module.m", "mode": "managed", "type": "null_resource", "name": "a", "instances": []},
			{"mode": "managed", "type": "null_resource", "name": "a", "instances": [{"attributes": {"id": "2"}}]}]}`,
			"it lists the resource null_resource.a twice (resources[0] and resources[3])"},
		{`{"version": 4, "resources": [{"module": "module.m[\"x\"]", "mode": "managed", "type": "null_resource", "name": "a", "instances": [
			{"index_key": 1, "attributes": {"id": "1"}}, {"index_key": 0, "attributes": {"id": "0"}}, {"index_key": 1, "deposed": "00000001", "attributes": {"id": "d"}},
			{"index_key": 1, "attributes": {"id": "2"}}]}]}`,
			`it lists the object of module.m["x"].null_resource.a[1] twice (in resources[0])`},
	} {
		if _, err := tfstate.Read([]byte(tc.data)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Read(%s) = %v, want an error saying %q", tc.data, err, tc.want)
		}
	}
}

// TestUntested warns of a state that a release newer than those Cairn
// was tested with wrote.
func TestUntested(t *testing.T) {
	for _, tc := range []struct{ version, want string }{
		{"1.11.4", ""}, {"1.12.6", ""}, {"0.12.31", ""}, {"not-a-number", ""},
		{"1.13.0", "written by Terraform (or OpenTofu) 1.13.0, newer than the releases Cairn was tested with (Terraform 1.11, OpenTofu 1.12)"},
		{"2.0.0-beta1", "written by Terraform (or OpenTofu) 2.0.0-beta1"},
	} {
		st, err := tfstate.Read([]byte(`{"version": 4, "terraform_version": "` + tc.version + `"}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := st.Untested(); !strings.Contains(got, tc.want) || tc.want == "" && got != "" {
			t.Errorf("Untested() of %s = %q, want %q", tc.version, got, tc.want)
		}
	}
}

// TestNames names instances as the HCL front end does: module calls and
// keys as eval writes instance keys.
func TestNames(t *testing.T) {
	for path, want := range map[string]string{
		"":                            "",
		"module.a":                    "a",
		`module.a["x"].module.b[0]`:   `a["x"].b[0]`,
		`module.a["q\"uote.d"]`:       "a[" + eval.InstanceKey(cty.StringVal(`q"uote.d`)) + "]",
		`module.a["back\\slash"].m.b`: "",
	} {
		got, err := tfstate.ModuleName(path)
		if want == "" && path != "" {
			if err == nil {
				t.Errorf("ModuleName(%q) = %q, want an error", path, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("ModuleName(%q) = %q, %v; want %q", path, got, err, want)
		}
	}
	r := tfstate.Resource{Module: "module.m", Type: "null_resource", Name: "web"}
	for key, want := range map[any]string{nil: "m.web", float64(2): "m.web[2]", `a\b`: "m.web[" + eval.InstanceKey(cty.StringVal(`a\b`)) + "]"} {
		if got, err := r.InstanceName(&tfstate.Instance{IndexKey: key}); err != nil || got != want {
			t.Errorf("InstanceName(%v) = %q, %v; want %q", key, got, err, want)
		}
	}
}

// tfxSchema is the schema of a package served by a Terraform provider, as
// tfplugin makes it: Terraform names recorded under language.terraform.
func tfxSchema(pkg string) (*schema.Package, error) {
	str := schema.TypeSpec{Type: "string"}
	ruleRef := schema.TypeSpec{Ref: "#/types/tfx:index/ThingRule:ThingRule"}
	props := map[string]*schema.Property{
		"id":       {TypeSpec: str},
		"name":     {TypeSpec: str},
		"password": {TypeSpec: str, Secret: true},
		"labels":   {TypeSpec: schema.TypeSpec{Type: "object", AdditionalProperties: &str}},
		"rule":     {TypeSpec: schema.TypeSpec{Type: "array", Items: &ruleRef}},
		"extra":    {TypeSpec: schema.TypeSpec{Ref: "pulumi.json#/Any"}},
		"gone":     {TypeSpec: str},
	}
	return &schema.Package{Name: pkg, Language: (&schema.Terraform{Source: "acme/tfx"}).Language(),
		Resources: map[string]*schema.Resource{thing: {Properties: props, Language: (&schema.Terraform{Resource: "tfx_thing"}).Language()}},
		Types: map[string]*schema.ObjectTyp{"tfx:index/ThingRule:ThingRule": {Type: "object", Properties: map[string]*schema.Property{
			"port": {TypeSpec: schema.TypeSpec{Type: "number"}}, "note": {TypeSpec: str}}}},
	}, nil
}

const thing = "tfx:index/thing:Thing"

var (
	root = resource.NewURN("dev", "web", "", resource.RootStackType, "web-dev")
	prov = resource.NewURN("dev", "web", "", "pulumi:providers:tfx", "default_1_0_0")
	site = resource.NewURN("dev", "web", "", "hcl:module:site", `site["eu"]`)
	web0 = resource.NewURN("dev", "web", "", thing, "web[0]")
	web1 = resource.NewURN("dev", "web", "", thing, "web[1]")
	web2 = resource.NewURN("dev", "web", "", thing, "web[2]")
	page = resource.NewURN("dev", "web", "hcl:module:site", thing, `site["eu"].page`)
	// reader is the provider of a data source only; late's configuration
	// is not known before an update; empty is a module with no resources.
	reader   = resource.NewURN("dev", "web", "", "pulumi:providers:terraform", "default")
	late     = resource.NewURN("dev", "web", "", "pulumi:providers:tfx", "late")
	empty    = resource.NewURN("dev", "web", "", "hcl:module:empty", "empty")
	provider = resource.ProviderRef{URN: prov, ID: resource.UnknownID}.String()
)

// planned is what a preview of the program registers on an empty stack.
func planned() *snapshot.Snapshot {
	return &snapshot.Snapshot{Resources: []*resource.State{
		{URN: root, Type: resource.RootStackType},
		{URN: prov, Type: "pulumi:providers:tfx", Custom: true, ID: resource.UnknownID, Parent: root, Inputs: resource.Map{"version": resource.String("1.0.0")}},
		{URN: web2, Type: thing, Custom: true, Parent: root, Provider: provider, Inputs: resource.Map{"name": resource.String("web-2")}},
		{URN: web0, Type: thing, Custom: true, Parent: root, Provider: provider, Dependencies: []resource.URN{web2}, Protect: true,
			Inputs: resource.Map{"name": resource.Unknown(), "password": resource.MakeSecret(resource.String("s3cret"))}},
		{URN: web1, Type: thing, Custom: true, Parent: root, Provider: provider, Inputs: resource.Map{"name": resource.String("web-1")},
			ReplacementTrigger: resource.Unknown()},
		{URN: site, Type: "hcl:module:site", Parent: root, Outputs: resource.Map{"url": resource.Unknown(), "zone": resource.String("eu")}},
		{URN: page, Type: thing, Custom: true, Parent: site, Provider: provider, Inputs: resource.Map{"name": resource.String("page")}},
		{URN: reader, Type: "pulumi:providers:terraform", Custom: true, ID: resource.UnknownID, Parent: root, Inputs: resource.Map{}},
		{URN: late, Type: "pulumi:providers:tfx", Custom: true, ID: resource.UnknownID, Parent: root, Inputs: resource.Map{"region": resource.Unknown()}},
		{URN: empty, Type: "hcl:module:empty", Parent: root, Outputs: resource.Map{"greeting": resource.String("hi"), "id": resource.Unknown()}},
	}}
}

func build(t *testing.T, edit func(string) string) (*snapshot.Snapshot, []string, error) {
	t.Helper()
	data, err := os.ReadFile("testdata/terraform.tfstate")
	if err != nil {
		t.Fatal(err)
	}
	st, err := tfstate.Read([]byte(edit(string(data))))
	if err != nil {
		t.Fatal(err)
	}
	return tfstate.Build(st, tfstate.Target{Planned: planned(), Schema: tfxSchema, NewID: func() resource.ID { return "prov-id" }})
}

// TestBuild moves a state into the resources the program registers.
func TestBuild(t *testing.T) {
	snap, undeclared, err := build(t, func(s string) string { return s })
	if err != nil || len(undeclared) > 0 {
		t.Fatal(err, undeclared)
	}
	if err := snap.VerifyIntegrity(); err != nil {
		t.Fatal(err)
	}
	var order []string
	byURN := map[resource.URN]*resource.State{}
	for _, r := range snap.Resources {
		name := r.URN.Name()
		if r.Delete {
			name += " (deposed)"
		} else {
			byURN[r.URN] = r
		}
		order = append(order, name)
	}
	if got, want := strings.Join(order, ", "), `web-dev, default_1_0_0, web[0], web[1] (deposed), web[1], site["eu"], site["eu"].page, default, empty`; got != want {
		t.Errorf("resources %s, want %s", got, want)
	}
	ref := resource.ProviderRef{URN: prov, ID: "prov-id"}.String()

	w := byURN[web0]
	wantOuts := resource.Map{
		"id": resource.String("1"), "name": resource.String("web-0"), "password": resource.MakeSecret(resource.String("s3cret")),
		"labels": resource.Object(resource.Map{"team": resource.MakeSecret(resource.String("web")), "owner": resource.Null}),
		"rule":   resource.Array(resource.Object(resource.Map{"port": resource.Number(80)})),
		"extra":  resource.Object(resource.Map{"a": resource.Number(1)}),
		"__meta": resource.String(`{"schema_version":"2","private":"eyJzY2hlbWFfdmVyc2lvbiI6IjIifQ=="}`),
	}
	if !w.Outputs.Equal(wantOuts) {
		t.Errorf("web[0] outputs\n%v\nwant\n%v", resource.Object(w.Outputs), resource.Object(wantOuts))
	}
	wantIns := resource.Map{"name": resource.String("web-0"), "password": resource.MakeSecret(resource.String("s3cret"))}
	if w.ID != "1" || w.Provider != ref || !w.Protect || !w.Inputs.Equal(wantIns) || len(w.Dependencies) != 0 {
		t.Errorf("web[0] = id %s, provider %s, protect %v, inputs %v, dependencies %v", w.ID, w.Provider, w.Protect, resource.Object(w.Inputs), w.Dependencies)
	}
	if !byURN[web1].Taint || byURN[web1].ID != "2" || snap.Resources[3].ID != "old-2" || !byURN[web1].ReplacementTrigger.IsNull() {
		t.Errorf("web[1]: taint %v, id %s, trigger %v; deposed id %s", byURN[web1].Taint, byURN[web1].ID, byURN[web1].ReplacementTrigger, snap.Resources[3].ID)
	}
	if p := byURN[page]; p.Parent != site || strings.Join(urnNames(p.Dependencies), " ") != "web[0] web[1]" {
		t.Errorf("page: parent %s, dependencies %v", p.Parent, p.Dependencies)
	}
	if c := byURN[site]; !c.Outputs.Equal(resource.Map{"zone": resource.String("eu")}) {
		t.Errorf("the component's outputs %v", resource.Object(c.Outputs))
	}
	if c := byURN[empty]; !c.Outputs.Equal(resource.Map{"greeting": resource.String("hi")}) {
		t.Errorf("the empty module's outputs %v", resource.Object(c.Outputs))
	}
	if p := byURN[prov]; p.ID != "prov-id" || !p.Outputs.Equal(p.Inputs) {
		t.Errorf("provider %+v", p)
	}
	wantRoot := resource.Map{"ids": resource.Array(resource.String("1"), resource.String("2")), "token": resource.MakeSecret(resource.String("hunter2"))}
	if r := byURN[root]; !r.Outputs.Equal(wantRoot) {
		t.Errorf("stack outputs %v", resource.Object(r.Outputs))
	}
}

func urnNames(urns []resource.URN) []string {
	var out []string
	for _, u := range urns {
		out = append(out, u.Name())
	}
	return out
}

// TestBuildUndeclared leaves out, and lists, the instances the program does
// not declare.
func TestBuildUndeclared(t *testing.T) {
	snap, undeclared, err := build(t, func(s string) string { return strings.ReplaceAll(s, `"name": "web"`, `"name": "api"`) })
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(undeclared, ", "), `tfx_thing.api[0], tfx_thing.api[1], tfx_thing.api[1] (deposed a1b2c3d4)`; got != want {
		t.Errorf("undeclared %s, want %s", got, want)
	}
	if err := snap.VerifyIntegrity(); err != nil || len(snap.Resources) != 6 {
		t.Errorf("the snapshot holds %d resources (%v), want the stack, the providers, the modules and a page", len(snap.Resources), err)
	}
}

// TestBuildRefuses refuses a state with an instance the program declares
// as a resource of another provider, or whose attributes are of Terraform
// 0.11.
func TestBuildRefuses(t *testing.T) {
	for name, tc := range map[string]struct{ from, to, want string }{
		"other provider":  {`acme/tfx`, `other/tfx`, `tfx_thing.web[0]: the state's provider is registry.terraform.io/other/tfx, but the program's resource of its name is served by acme/tfx`},
		"flat attributes": {`"attributes": {"id": "3", "name": "page"}`, `"attributes_flat": {"id": "3"}`, "flat form of Terraform 0.11"},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := build(t, func(s string) string {
				if !strings.Contains(s, tc.from) {
					t.Fatalf("the state has no %s", tc.from)
				}
				return strings.ReplaceAll(s, tc.from, tc.to)
			})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestBuildProvisioners adds the provisioners of the imported instances
// as run already, following their IDs, except those of a tainted
// instance, whose replacement runs them.
func TestBuildProvisioners(t *testing.T) {
	data, err := os.ReadFile("testdata/terraform.tfstate")
	if err != nil {
		t.Fatal(err)
	}
	st, err := tfstate.Read(data)
	if err != nil {
		t.Fatal(err)
	}
	p := planned()
	tp := resource.ProviderRef{URN: reader, ID: resource.UnknownID}.String()
	in := resource.Map{tfstate.TriggerKey: resource.Unknown(), "type": resource.String("tfx_thing"),
		"create": resource.Array(resource.Object(resource.Map{"command": resource.String("echo made")}))}
	provs := map[resource.URN]resource.URN{}
	for _, parent := range []resource.URN{web0, web1} {
		u := resource.NewURN("dev", "web", thing, tfstate.ProvisionersType, parent.Name())
		provs[parent] = u
		p.Resources = append(p.Resources, &resource.State{URN: u, Type: tfstate.ProvisionersType, Custom: true, ID: resource.UnknownID,
			Parent: parent, Provider: tp, Inputs: in, PropertyDependencies: map[string][]resource.URN{tfstate.TriggerKey: {parent}},
			Dependencies: []resource.URN{parent}})
	}
	snap, _, err := tfstate.Build(st, tfstate.Target{Planned: p, Schema: tfxSchema, NewID: func() resource.ID { return "prov-id" }})
	if err != nil {
		t.Fatal(err)
	}
	if err := snap.VerifyIntegrity(); err != nil {
		t.Fatal(err)
	}
	var got *resource.State
	for _, r := range snap.Resources {
		switch r.URN {
		case provs[web0]:
			got = r
		case provs[web1]:
			t.Errorf("the tainted web[1] got provisioners run already")
		}
	}
	want := resource.Map{tfstate.TriggerKey: resource.String("1"), "type": resource.String("tfx_thing"), "create": in["create"]}
	if got == nil || got.ID != "1" || !got.Inputs.Equal(want) || !got.Outputs.Equal(want) ||
		got.Provider != (resource.ProviderRef{URN: reader, ID: "prov-id"}).String() {
		t.Fatalf("web[0]'s provisioners = %+v", got)
	}
}
