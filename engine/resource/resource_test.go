package resource

import (
	"encoding/json"
	"reflect"
	"sort"
	"testing"
	"time"
)

func TestParsePath(t *testing.T) {
	tests := []struct {
		in   string
		want Path
		str  string
	}{
		{"a", Path{"a"}, "a"},
		{"a.b[0][\"c.d\"]", Path{"a", "b", 0, "c.d"}, `a.b[0]["c.d"]`},
		{"tags.*", Path{"tags", "*"}, "tags[*]"},
		{"list[*].name", Path{"list", "*", "name"}, "list[*].name"},
		{`["root key"][3]`, Path{"root key", 3}, `["root key"][3]`},
		{`a["with \"quote\""]`, Path{"a", `with "quote"`}, `a["with \"quote\""]`},
	}
	for _, tt := range tests {
		got, err := ParsePath(tt.in)
		if err != nil {
			t.Errorf("ParsePath(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParsePath(%q)\ngot:  %#v\nwant: %#v", tt.in, got, tt.want)
		}
		if s := got.String(); s != tt.str {
			t.Errorf("Path(%q).String() = %q, want %q", tt.in, s, tt.str)
		}
	}
	for _, bad := range []string{"", "a..b", "a[", "a[-1]", "a[x]", ".a", "a."} {
		if _, err := ParsePath(bad); err == nil {
			t.Errorf("ParsePath(%q) succeeded, want an error", bad)
		}
	}
}

func TestPathSetGetDelete(t *testing.T) {
	root := FromGo(map[string]any{"a": map[string]any{"b": []any{1, 2}}, "s": MakeSecret(FromGo(map[string]any{"x": "y"}))})
	p, _ := ParsePath("a.b[1]")
	v, ok := p.Get(root)
	if !ok || !v.Equal(Number(2)) {
		t.Fatalf("Get a.b[1] = %v, %v", v, ok)
	}
	set, err := p.Set(root, String("two"))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := p.Get(set); !v.Equal(String("two")) {
		t.Errorf("after Set, Get = %v", v)
	}
	if v, _ := p.Get(root); !v.Equal(Number(2)) {
		t.Errorf("Set modified its input: %v", v)
	}
	sp, _ := ParsePath("s.x")
	if v, ok := sp.Get(root); !ok || !v.Equal(String("y")) {
		t.Errorf("Get through a secret = %v, %v", v, ok)
	}
	del := p.Delete(root)
	if v, _ := (Path{"a", "b"}).Get(del); len(v.ArrayValue()) != 1 {
		t.Errorf("Delete left %v", v)
	}
	if _, err := (Path{"a", "b", "c"}).Set(root, Null); err == nil {
		t.Errorf("setting a key of an array succeeded")
	}
}

func TestPathCovers(t *testing.T) {
	wild, _ := ParsePath("tags[*]")
	if !wild.Covers(Path{"tags", "env"}) || !wild.Covers(Path{"tags", "env", "x"}) || wild.Covers(Path{"other", "env"}) {
		t.Errorf("wildcard coverage is wrong")
	}
	if !(Path{"list", 0}).Matches(Path{"list", 0}) || (Path{"list", 0}).Matches(Path{"list", 1}) {
		t.Errorf("index matching is wrong")
	}
}

func TestURN(t *testing.T) {
	u := NewURN("dev", "proj", "", "random:index/randomPet:RandomPet", "web")
	if u != "urn:pulumi:dev::proj::random:index/randomPet:RandomPet::web" {
		t.Fatalf("NewURN = %s", u)
	}
	child := NewURN("dev", "proj", "my:comp:Comp$other:mod:Mid", "random:index/randomPet:RandomPet", "a::b")
	if child.QualifiedType() != "my:comp:Comp$other:mod:Mid$random:index/randomPet:RandomPet" {
		t.Errorf("qualified type = %s", child.QualifiedType())
	}
	if child.Type() != "random:index/randomPet:RandomPet" || child.Name() != "a::b" || child.Stack() != "dev" || child.Project() != "proj" {
		t.Errorf("parts of %s wrong: %s %s", child, child.Type(), child.Name())
	}
	if NewURN("dev", "p", RootStackType, "a:b:C", "n") != "urn:pulumi:dev::p::a:b:C::n" {
		t.Errorf("the root stack must not qualify its children's types")
	}
	for _, bad := range []string{"urn:x", "urn:pulumi:dev::p::bad type::n", "nope"} {
		if _, err := ParseURN(bad); err == nil {
			t.Errorf("ParseURN(%q) succeeded", bad)
		}
	}
	ref, err := ParseProviderRef("urn:pulumi:dev::p::pulumi:providers:aws::default::1234")
	if err != nil || ref.ID != "1234" || ref.Package() != "aws" {
		t.Errorf("ParseProviderRef = %+v, %v", ref, err)
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	v := Object(Map{
		"null":   Null,
		"bool":   Bool(true),
		"num":    Number(1.5),
		"str":    String("s"),
		"arr":    Array(Number(1), String("x")),
		"secret": MakeSecret(String("hush")),
		"asset":  NewAsset(NewTextAsset("hello")),
		"archive": NewArchive(&Archive{Assets: map[string]any{"a.txt": NewTextAsset("a"),
			"sub": &Archive{Path: "dir"}}}),
		"ref":     NewRef(ResourceRef{URN: "urn:pulumi:s::p::a:b:C::n", ID: String("id-1"), PackageVersion: "1.0.0"}),
		"compRef": NewRef(ResourceRef{URN: "urn:pulumi:s::p::a:b:C::m"}),
		"unknown": Unknown(),
		"output":  NewOutput(Output{Element: String("o"), Known: true, Secret: true, Dependencies: []URN{"urn:pulumi:s::p::a:b:C::n"}}),
		"pending": NewOutput(Output{}),
	})
	opts := EncodeOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true, KeepOutputValues: true}
	enc, err := Encode(v, opts)
	if err != nil {
		t.Fatal(err)
	}
	// Through JSON, as the state and the wire carry it.
	data, err := json.Marshal(enc)
	if err != nil {
		t.Fatal(err)
	}
	var back any
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(back, DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(v) {
		t.Errorf("round trip changed the value\ngot:  %v\nwant: %v", got, v)
	}

	plain, err := Encode(v, EncodeOptions{KeepUnknowns: true})
	if err != nil {
		t.Fatal(err)
	}
	m := plain.(map[string]any)
	if m["secret"] != "hush" || m["ref"] != "id-1" || m["compRef"] != "urn:pulumi:s::p::a:b:C::m" || m["output"] != "o" || m["pending"] != UnknownSentinel {
		t.Errorf("downgraded encoding wrong: %#v", m)
	}
	if _, err := Encode(Unknown(), EncodeOptions{}); err == nil {
		t.Errorf("encoding an unknown without KeepUnknowns succeeded")
	}
}

func TestValueSecretsAndUnknowns(t *testing.T) {
	v := FromGo(map[string]any{"a": []any{MakeSecret(String("x")), Unknown()}})
	if !v.ContainsSecrets() || !v.ContainsUnknowns() {
		t.Errorf("nested secret/unknown not found")
	}
	if MakeSecret(MakeSecret(Null)).SecretElement().IsSecret() {
		t.Errorf("secrets nest")
	}
	if v.Unsecret().ContainsSecrets() {
		t.Errorf("Unsecret left a secret")
	}
	if got := v.String(); got != `{"a": [[secret], (unknown)]}` {
		t.Errorf("String() = %s", got)
	}
	if !(Map{"a": Null}).Equal(Map{}) {
		t.Errorf("a null property must equal a missing one")
	}
}

func TestSecretStrings(t *testing.T) {
	m := Map{
		"plain":  String("visible"),
		"secret": MakeSecret(FromGo(map[string]any{"k": "a", "n": 1.0, "l": []any{"b"}})),
		"output": NewOutput(Output{Element: String("c"), Known: true, Secret: true}),
		"open":   NewOutput(Output{Element: Array(String("visible"), MakeSecret(String("d"))), Known: true}),
	}
	var got []string
	m.SecretStrings(func(s string) { got = append(got, s) })
	sort.Strings(got)
	if want := []string{"a", "b", "c", "d"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SecretStrings = %q, want %q", got, want)
	}
}

func TestDiffMapsAndIgnoreChanges(t *testing.T) {
	old := MapFromGo(map[string]any{"a": 1, "nested": map[string]any{"x": 1, "y": 2}, "gone": true, "list": []any{1, 2}})
	new := MapFromGo(map[string]any{"a": 1, "nested": map[string]any{"x": 5, "y": 2}, "added": "s", "list": []any{1}})
	dd, changed := DiffMaps(old, new)
	want := DetailedDiff{
		"nested.x": {Kind: DiffUpdate, InputDiff: true},
		"gone":     {Kind: DiffDelete, InputDiff: true},
		"added":    {Kind: DiffAdd, InputDiff: true},
		"list[1]":  {Kind: DiffDelete, InputDiff: true},
	}
	if !reflect.DeepEqual(dd, want) {
		t.Errorf("DiffMaps\ngot:  %v\nwant: %v", dd, want)
	}
	if !reflect.DeepEqual(changed, []string{"added", "gone", "list", "nested"}) {
		t.Errorf("changed keys = %v", changed)
	}

	ignored, err := ApplyIgnoreChanges(old, new, []string{"nested.x", "added", "gone"})
	if err != nil {
		t.Fatal(err)
	}
	want2 := MapFromGo(map[string]any{"a": 1, "nested": map[string]any{"x": 1, "y": 2}, "gone": true, "list": []any{1}})
	if !ignored.Equal(want2) {
		t.Errorf("ApplyIgnoreChanges = %v, want %v", Object(ignored), Object(want2))
	}
	if _, err := ApplyIgnoreChanges(MapFromGo(map[string]any{"a": map[string]any{"b": 1}}), MapFromGo(map[string]any{"a": "str"}), []string{"a.b"}); err == nil {
		t.Errorf("an ignoreChanges path through a string must fail")
	}
	wild, err := ApplyIgnoreChanges(MapFromGo(map[string]any{"tags": map[string]any{"a": 1}}),
		MapFromGo(map[string]any{"tags": map[string]any{"a": 2, "b": 3}}), []string{"tags.*"})
	if err != nil {
		t.Fatal(err)
	}
	if !wild.Equal(MapFromGo(map[string]any{"tags": map[string]any{"a": 1}})) {
		t.Errorf("wildcard ignoreChanges = %v", Object(wild))
	}
}

func TestStateEqual(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	base := &State{URN: "urn:pulumi:dev::p::t:index:T::a", Type: "t:index:T", Custom: true, ID: "a",
		Inputs: Map{"n": Number(1)}, Created: &created}
	// The same state with nil lists written as empty ones, and the time in
	// another zone, is equal.
	same := base.Copy()
	same.Dependencies, same.HideDiff = []URN{}, []string{}
	same.PropertyDependencies = map[string][]URN{}
	local := created.In(time.FixedZone("x", 3600))
	same.Created = &local
	if !base.Equal(same) || !same.Equal(base) {
		t.Errorf("%+v and %+v are not equal", base, same)
	}
	// Every field counts: setting any one of them to something else makes
	// the states differ.
	v := reflect.ValueOf(base).Elem()
	for i := range v.NumField() {
		changed := base.Copy()
		f := reflect.ValueOf(changed).Elem().Field(i)
		switch name := v.Type().Field(i).Name; f.Kind() {
		case reflect.String:
			f.SetString("other")
		case reflect.Bool:
			f.SetBool(!f.Bool())
		case reflect.Slice:
			f.Set(reflect.Append(reflect.MakeSlice(f.Type(), 0, 1), reflect.ValueOf("x").Convert(f.Type().Elem())))
		case reflect.Map:
			if f.Type() == reflect.TypeOf(Map{}) {
				f.Set(reflect.ValueOf(Map{"n": Number(2)}))
			} else {
				f.Set(reflect.ValueOf(map[string][]URN{"n": {"x"}}))
			}
		case reflect.Struct:
			if name == "ReplacementTrigger" {
				f.Set(reflect.ValueOf(String("x")))
			} else {
				f.Set(reflect.ValueOf(CustomTimeouts{Create: 1}))
			}
		case reflect.Pointer:
			later := created.Add(time.Second)
			f.Set(reflect.ValueOf(&later))
		default:
			t.Fatalf("field %s: kind %s not covered by this test", name, f.Kind())
		}
		if base.Equal(changed) {
			t.Errorf("states differing in %s are equal", v.Type().Field(i).Name)
		}
	}
}

func TestURNUnkeyedName(t *testing.T) {
	for name, want := range map[string]string{
		"web":                 "web",
		"web[0]":              "web",
		`web["a.b]"]`:         "web",
		`site[1].web["x\"]"]`: "site.web",
		"site.inner.web":      "site.inner.web",
	} {
		urn := URN("urn:pulumi:s::p::x:index:T::" + name)
		if got := urn.UnkeyedName(); got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
}
