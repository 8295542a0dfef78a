package values

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/resource"
)

func TestRoundTrip(t *testing.T) {
	tests := map[string]resource.Value{
		"null":    resource.Null,
		"bool":    resource.Bool(true),
		"number":  resource.Number(2.5),
		"string":  resource.String("héllo"),
		"array":   resource.Array(resource.Number(1), resource.String("x")),
		"empty":   resource.Array(),
		"object":  resource.Object(resource.Map{"a": resource.Number(1), "b": resource.Object(nil)}),
		"secret":  resource.MakeSecret(resource.String("s")),
		"nested":  resource.Object(resource.Map{"s": resource.MakeSecret(resource.Array(resource.Bool(false)))}),
		"unknown": resource.Unknown(),
		"asset":   resource.NewAsset(resource.NewTextAsset("data")),
		"archive": resource.NewArchive(&resource.Archive{Path: "dir"}),
		"ref":     resource.NewRef(resource.ResourceRef{URN: "urn:pulumi:s::p::a:b:C::n", ID: resource.String("i-1")}),
	}
	for name, v := range tests {
		t.Run(name, func(t *testing.T) {
			got, _, err := ToEngine(FromEngine(v))
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(v) {
				t.Errorf("wrong result\ngot:  %v\nwant: %v", got, v)
			}
		})
	}
}

func TestDependenciesAndReferences(t *testing.T) {
	urn := resource.URN("urn:pulumi:s::p::random:index/randomPet:RandomPet::web")
	res := ResourceObject(urn, "web-id", true, resource.Map{"length": resource.Number(2)})

	// An attribute of a resource carries the dependency but is not a reference.
	v, deps, err := ToEngine(res.GetAttr("length"))
	if err != nil {
		t.Fatal(err)
	}
	if !v.Equal(resource.Number(2)) || len(deps) != 1 || deps[0] != urn {
		t.Errorf("attribute: got %v %v", v, deps)
	}
	// The resource itself becomes a reference.
	v, _, err = ToEngine(cty.TupleVal([]cty.Value{res}))
	if err != nil {
		t.Fatal(err)
	}
	want := resource.Array(resource.NewRef(resource.ResourceRef{URN: urn, ID: resource.String("web-id")}))
	if !v.Equal(want) {
		t.Errorf("reference: got %v want %v", v, want)
	}
	// A string built from a secret output is secret and depends on it.
	secret := cty.StringVal("pw").Mark(Secret).Mark(Dep{URN: urn})
	obj := cty.ObjectVal(map[string]cty.Value{"k": secret, "plain": cty.StringVal("p")})
	props, pdeps, err := ObjectToEngine(obj)
	if err != nil {
		t.Fatal(err)
	}
	if !props["k"].IsSecret() || props["plain"].IsSecret() || len(pdeps["k"]) != 1 || len(pdeps["plain"]) != 0 {
		t.Errorf("object: props %v deps %v", resource.Object(props), pdeps)
	}
	// An unknown ID during a preview stays unknown in the reference.
	pending := ResourceObject(urn, resource.UnknownID, true, nil)
	v, _, _ = ToEngine(pending)
	if !v.IsRef() || !v.RefValue().ID.IsUnknown() {
		t.Errorf("unknown id: got %v", v)
	}
}

// A Terraform resource's value is the object of its attributes: passed
// whole it stays that object (no reference), yet names its resource.
func TestTerraformObject(t *testing.T) {
	urn := resource.URN("urn:pulumi:s::p::terraform:index/data:Data::a")
	v := TerraformObject(urn, resource.Map{"id": resource.String("x"), "input": resource.Number(1)})
	plain, _ := v.Unmark()
	if plain.Type().HasAttribute("urn") || plain.LengthInt() != 2 {
		t.Fatalf("attributes %#v, want id and input only", plain.Type().AttributeTypes())
	}
	ev, deps, err := ToEngine(v)
	if err != nil || ev.IsRef() || !ev.IsObject() || len(deps) != 1 || deps[0] != urn {
		t.Fatalf("ToEngine = %v, %v, %v; want the object, depending on %s", ev, deps, err, urn)
	}
	if got := ResourceOf(v.GetAttr("input")); got != urn {
		t.Errorf("ResourceOf(an attribute) = %q, want %q", got, urn)
	}
	other := TerraformObject("urn:pulumi:s::p::terraform:index/data:Data::b", nil)
	if got := ResourceOf(v.WithMarks(other.Marks())); got != "" {
		t.Errorf("ResourceOf(a value of two resources) = %q, want none", got)
	}
}
