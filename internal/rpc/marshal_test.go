package rpc

import (
	"reflect"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/engine/resource"
)

const (
	sig     = resource.SigKey
	unknown = resource.UnknownSentinel
)

var (
	textAsset  = resource.NewTextAsset("hello")
	helloHash  = textAsset.Hash
	customRef  = resource.ResourceRef{URN: "urn:pulumi:dev::p::kv:index:Item::a", ID: resource.String("id-1")}
	compRef    = resource.ResourceRef{URN: "urn:pulumi:dev::p::my:index:Comp::c"}
	pendingRef = resource.ResourceRef{URN: "urn:pulumi:dev::p::kv:index:Item::b", ID: resource.Unknown()}
	depURN     = resource.URN("urn:pulumi:dev::p::kv:index:Item::a")
)

// Negotiation flag sets every kind is converted under.
var (
	none          = Options{}
	keepUnknowns  = Options{KeepUnknowns: true}
	rejectUnknown = Options{RejectUnknowns: true}
	keepSecrets   = Options{KeepSecrets: true}
	keepResources = Options{KeepResources: true}
	keepOutputs   = Options{KeepOutputValues: true}
)

type conversion struct {
	opts Options
	want any    // the wire form, as JSON-shaped Go data; dropped means left out
	err  string // a part of the expected error
}

// dropped is the wire form of a value the receiver leaves out.
var dropped = &struct{}{}

// flagSets are the negotiations every kind is converted under.
var flagSets = []Options{none, keepUnknowns, rejectUnknown, keepSecrets, keepResources, keepOutputs, Everything}

// under expects want under every flag set, except where an exception with
// the same options says otherwise; exceptions with other options are added.
func under(want any, exceptions ...conversion) []conversion {
	out := make([]conversion, 0, len(flagSets)+len(exceptions))
	used := make([]bool, len(exceptions))
	for _, o := range flagSets {
		c := conversion{opts: o, want: want}
		for i, e := range exceptions {
			if e.opts == o {
				c, used[i] = e, true
			}
		}
		out = append(out, c)
	}
	for i, e := range exceptions {
		if !used[i] {
			out = append(out, e)
		}
	}
	return out
}

func TestConversionUnderNegotiation(t *testing.T) {
	secretObj := func(v any) map[string]any { return map[string]any{sig: resource.SecretSig, "value": v} }
	customRefObj := map[string]any{sig: resource.ResourceRefSig, "urn": string(customRef.URN), "name": "a", "type": "kv:index:Item", "id": "id-1"}
	compRefObj := map[string]any{sig: resource.ResourceRefSig, "urn": string(compRef.URN), "name": "c", "type": "my:index:Comp"}
	pendingRefObj := map[string]any{sig: resource.ResourceRefSig, "urn": string(pendingRef.URN), "name": "b", "type": "kv:index:Item", "id": ""}
	knownOutputObj := map[string]any{sig: resource.OutputSig, "value": 3.0, "dependencies": []any{string(depURN)}}
	unknownOutputObj := map[string]any{sig: resource.OutputSig, "dependencies": []any{string(depURN)}}
	secretOutputObj := map[string]any{sig: resource.OutputSig, "value": "pw", "secret": true}
	allNested := map[string]any{"keep": "k", "gone": unknown, "list": []any{1.0, unknown}}
	tests := []struct {
		name  string
		value resource.Value
		conv  []conversion
	}{
		{"null", resource.Null, under(nil)},
		{"bool", resource.Bool(true), under(true)},
		{"number", resource.Number(1.5), under(1.5)},
		{"string", resource.String("s"), under("s")},
		{"array", resource.Array(resource.Number(1), resource.String("x")), under([]any{1.0, "x"})},
		{"object", resource.Object(resource.Map{"a": resource.Bool(false)}), under(map[string]any{"a": false})},
		{"text asset", resource.NewAsset(textAsset),
			under(map[string]any{sig: resource.AssetSig, "text": "hello", "hash": helloHash})},
		{"asset without hash", resource.NewAsset(&resource.Asset{Text: "hello"}),
			under(map[string]any{sig: resource.AssetSig, "text": "hello"},
				conversion{opts: Options{ComputeAssetHashes: true}, want: map[string]any{sig: resource.AssetSig, "text": "hello", "hash": helloHash}})},
		{"archive", resource.NewArchive(&resource.Archive{Assets: map[string]any{"f": textAsset}, Hash: "h"}),
			under(map[string]any{sig: resource.ArchiveSig, "hash": "h", "assets": map[string]any{
				"f": map[string]any{sig: resource.AssetSig, "text": "hello", "hash": helloHash}}})},
		{"custom resource reference", resource.NewRef(customRef), under("id-1",
			conversion{opts: keepResources, want: customRefObj},
			conversion{opts: Everything, want: customRefObj})},
		{"component reference", resource.NewRef(compRef), under(string(compRef.URN),
			conversion{opts: keepResources, want: compRefObj},
			conversion{opts: Everything, want: compRefObj})},
		{"reference with unknown ID", resource.NewRef(pendingRef), under(dropped,
			conversion{opts: rejectUnknown, err: "unknown"},
			conversion{opts: keepUnknowns, want: unknown},
			conversion{opts: keepResources, want: pendingRefObj},
			conversion{opts: Everything, want: pendingRefObj})},
		{"unknown", resource.Unknown(), under(dropped,
			conversion{opts: rejectUnknown, err: "unknown values are only allowed during a preview"},
			conversion{opts: keepUnknowns, want: unknown},
			conversion{opts: Everything, want: unknown})},
		{"secret", resource.MakeSecret(resource.String("pw")), under("pw",
			conversion{opts: keepSecrets, want: secretObj("pw")},
			conversion{opts: Everything, want: secretObj("pw")})},
		{"secret of unknown", resource.MakeSecret(resource.Unknown()), under(dropped,
			conversion{opts: rejectUnknown, err: "unknown"},
			conversion{opts: keepUnknowns, want: unknown},
			conversion{opts: Everything, want: secretObj(unknown)})},
		{"known output", resource.NewOutput(resource.Output{Element: resource.Number(3), Known: true, Dependencies: []resource.URN{depURN}}), under(3.0,
			conversion{opts: keepOutputs, want: knownOutputObj},
			conversion{opts: Everything, want: knownOutputObj})},
		{"unknown output", resource.NewOutput(resource.Output{Dependencies: []resource.URN{depURN}}), under(dropped,
			conversion{opts: keepUnknowns, want: unknown},
			conversion{opts: rejectUnknown, err: "unknown"},
			conversion{opts: keepOutputs, want: unknownOutputObj},
			conversion{opts: Everything, want: unknownOutputObj})},
		{"secret output", resource.NewOutput(resource.Output{Element: resource.String("pw"), Known: true, Secret: true}), under("pw",
			conversion{opts: keepSecrets, want: secretObj("pw")},
			conversion{opts: keepOutputs, want: secretOutputObj},
			conversion{opts: Everything, want: secretOutputObj})},
		{"nested unknowns", resource.Object(resource.Map{
			"keep": resource.String("k"),
			"gone": resource.Unknown(),
			"list": resource.Array(resource.Number(1), resource.Unknown()),
		}), under(map[string]any{"keep": "k", "list": []any{1.0}},
			conversion{opts: keepUnknowns, want: allNested},
			conversion{opts: Everything, want: allNested},
			conversion{opts: rejectUnknown, err: "gone: the value is unknown"})},
	}
	for _, tt := range tests {
		for _, c := range tt.conv {
			t.Run(tt.name+"/"+describe(c.opts), func(t *testing.T) {
				// Engine → wire.
				pv, err := MarshalValue(tt.value, c.opts)
				checkWire(t, "marshal", pv, err, c)

				// Wire → engine: the full-fidelity wire form read under the
				// same negotiation gives the same downgrade.
				full, err := MarshalValue(tt.value, Everything)
				if err != nil {
					t.Fatalf("marshal with everything: %v", err)
				}
				v, keep, err := UnmarshalValue(full, c.opts)
				var back *structpb.Value
				if err == nil && keep {
					if back, err = MarshalValue(v, Everything); err != nil {
						t.Fatalf("re-marshal: %v", err)
					}
				}
				checkWire(t, "unmarshal", back, err, c)
			})
		}
	}
}

func checkWire(t *testing.T, dir string, pv *structpb.Value, err error, c conversion) {
	t.Helper()
	if c.err != "" {
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: got error %v, want one containing %q", dir, err, c.err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	if c.want == dropped {
		if pv != nil {
			t.Errorf("%s: got %v, want the value left out", dir, pv.AsInterface())
		}
		return
	}
	if pv == nil {
		t.Fatalf("%s: the value was left out, want %v", dir, c.want)
	}
	if got := pv.AsInterface(); !reflect.DeepEqual(got, c.want) {
		t.Errorf("%s:\n got %#v\nwant %#v", dir, got, c.want)
	}
}

func describe(o Options) string {
	var parts []string
	for _, f := range []struct {
		on   bool
		name string
	}{
		{o.KeepUnknowns, "unknowns"}, {o.RejectUnknowns, "reject"}, {o.KeepSecrets, "secrets"},
		{o.KeepResources, "resources"}, {o.KeepOutputValues, "outputs"}, {o.ComputeAssetHashes, "hashes"},
	} {
		if f.on {
			parts = append(parts, f.name)
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}

func TestRoundTripKeepsEveryKind(t *testing.T) {
	in := resource.Map{
		"null":    resource.Null,
		"bool":    resource.Bool(true),
		"number":  resource.Number(-2),
		"string":  resource.String("s"),
		"array":   resource.Array(resource.String("a")),
		"object":  resource.Object(resource.Map{"x": resource.Number(1)}),
		"asset":   resource.NewAsset(textAsset),
		"archive": resource.NewArchive(&resource.Archive{Path: "dir", Hash: "h"}),
		"ref":     resource.NewRef(customRef),
		"unknown": resource.Unknown(),
		"secret":  resource.MakeSecret(resource.Array(resource.Number(1))),
		"output":  resource.NewOutput(resource.Output{Element: resource.String("o"), Known: true, Secret: true, Dependencies: []resource.URN{depURN}}),
	}
	s, err := MarshalMap(in, Everything)
	if err != nil {
		t.Fatal(err)
	}
	got, err := UnmarshalMap(s, Everything)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(in) {
		t.Errorf("round trip:\n got %v\nwant %v", got, in)
	}
}

func TestNilMapsStayNil(t *testing.T) {
	if s, err := MarshalMap(nil, Everything); s != nil || err != nil {
		t.Errorf("MarshalMap(nil) = %v, %v; want nil, nil", s, err)
	}
	if m, err := UnmarshalMap(nil, Everything); m != nil || err != nil {
		t.Errorf("UnmarshalMap(nil) = %v, %v; want nil, nil", m, err)
	}
	s, err := MarshalMap(resource.Map{}, Everything)
	if err != nil || s == nil || len(s.Fields) != 0 {
		t.Errorf("MarshalMap(empty) = %v, %v; want an empty struct", s, err)
	}
}

func TestUnknownSignatureIsAnError(t *testing.T) {
	pv, _ := structpb.NewValue(map[string]any{sig: "not-a-signature"})
	if _, _, err := UnmarshalValue(pv, Everything); err == nil || !strings.Contains(err.Error(), "signature") {
		t.Errorf("got %v, want an unknown-signature error", err)
	}
}

func TestMarshalRejectsInvalidUTF8(t *testing.T) {
	for name, m := range map[string]resource.Map{
		"value":        {"ok": resource.String("a"), "bad": resource.String("\xff")},
		"nested value": {"obj": resource.Object(resource.Map{"bad": resource.String("\xff")})},
		"key":          {"ok": resource.String("a"), "\xff": resource.String("b")},
	} {
		if _, err := MarshalMap(m, Everything); err == nil || !strings.Contains(err.Error(), "invalid UTF-8") {
			t.Errorf("%s: got %v, want an error about invalid UTF-8", name, err)
		}
	}
}

// TestErrorsNameTheLeastKey walks maps in Go's random order many times: the
// error must always name the same, least, failing property.
func TestErrorsNameTheLeastKey(t *testing.T) {
	m := resource.Map{}
	for _, k := range []string{"m", "c", "x", "a", "q"} {
		m[k] = resource.Object(resource.Map{"z": resource.Unknown(), "b": resource.Unknown()})
	}
	s, err := MarshalMap(m, Everything)
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		if _, err := MarshalMap(m, rejectUnknown); err == nil || !strings.HasPrefix(err.Error(), "property a: b: ") {
			t.Fatalf("marshal: got %v, want an error naming property a: b", err)
		}
		if _, err := UnmarshalMap(s, rejectUnknown); err == nil || !strings.HasPrefix(err.Error(), "property a: b: ") {
			t.Fatalf("unmarshal: got %v, want an error naming property a: b", err)
		}
	}
}
