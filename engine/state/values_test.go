package state_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/state"
)

// roundTrip encodes a resource holding v as its only input, through JSON,
// and decodes it again.
func roundTrip(t *testing.T, enc *state.Encoder, v resource.Value) (resource.Value, map[string]any) {
	t.Helper()
	r := &resource.State{URN: fullURN, Type: "aws:s3/bucket:Bucket", Custom: true, ID: "x", Inputs: resource.Map{"v": v}}
	sr, err := enc.Resource(r)
	if err != nil {
		t.Fatalf("encoding %v: %v", v, err)
	}
	data, err := json.Marshal(sr)
	if err != nil {
		t.Fatalf("marshalling %v: %v", v, err)
	}
	var back state.ResourceV3
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	got, err := state.NewDecoder(b64Manager{}).Resource(&back, &state.SecretsProvidersV1{Type: "b64"})
	if err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
	return got.Inputs["v"], raw["inputs"].(map[string]any)
}

func TestValueRoundTrip(t *testing.T) {
	for name, v := range allValues() {
		for _, show := range []bool{false, true} {
			got, _ := roundTrip(t, testEncoder(show), v)
			if !got.Equal(v) || got.Kind() != v.Kind() {
				t.Errorf("%s (show secrets %v): got %v (%s), want %v (%s)", name, show, got, got.Kind(), v, v.Kind())
			}
		}
	}
}

// Outputs are stored as what they resolve to, as Pulumi stores them.
func TestOutputValuesResolve(t *testing.T) {
	tests := []struct {
		name string
		in   resource.Output
		want resource.Value
	}{
		{"known", resource.Output{Known: true, Element: resource.String("a"), Dependencies: []resource.URN{baseURN}}, resource.String("a")},
		{"unknown", resource.Output{}, resource.Unknown()},
		{"secret", resource.Output{Known: true, Secret: true, Element: resource.Number(1)}, resource.MakeSecret(resource.Number(1))},
		{"unknown secret", resource.Output{Secret: true}, resource.MakeSecret(resource.Unknown())},
	}
	for _, tt := range tests {
		got, _ := roundTrip(t, testEncoder(false), resource.NewOutput(tt.in))
		if !got.Equal(tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

// The stored forms of the special values are Pulumi's.
func TestValueEncodings(t *testing.T) {
	sig := resource.SigKey
	tests := []struct {
		name string
		in   resource.Value
		show bool
		want string
	}{
		{"unknown", resource.Unknown(), false, `"04da6b54-80e4-46f7-96ec-b56ff0331ba9"`},
		{"secret", resource.MakeSecret(resource.String("x")), false, `{"` + sig + `":"1b47061264138c4ac30d75fd1eb44270","ciphertext":"Ingi"}`},
		{"shown secret", resource.MakeSecret(resource.String("x")), true, `{"` + sig + `":"1b47061264138c4ac30d75fd1eb44270","plaintext":"\"x\""}`},
		{"nested shown secret", resource.MakeSecret(resource.Array(resource.MakeSecret(resource.Bool(true)))), true,
			`{"` + sig + `":"1b47061264138c4ac30d75fd1eb44270","plaintext":"[{\"` + sig + `\":\"1b47061264138c4ac30d75fd1eb44270\",\"plaintext\":\"true\"}]"}`},
		{"nan", resource.Number(math.NaN()), false, `{"` + sig + `":"8ad145fe-0d11-4827-bfd7-1abcbf086f5c","value":"7ff8000000000001"}`},
		{"byte string", resource.String("\xff"), false, `{"` + sig + `":"803fd3297a5875dc03ca845dda5d2a98","value":"/w=="}`},
		{"ref", resource.NewRef(resource.ResourceRef{URN: baseURN, ID: resource.String("i")}), false,
			`{"` + sig + `":"5cf8f73096256a8f31e491e813e4eb8e","id":"i","urn":"` + string(baseURN) + `"}`},
		{"unknown ref", resource.NewRef(resource.ResourceRef{URN: baseURN, ID: resource.Unknown()}), false,
			`{"` + sig + `":"5cf8f73096256a8f31e491e813e4eb8e","id":"","urn":"` + string(baseURN) + `"}`},
		{"text asset", resource.NewAsset(&resource.Asset{Text: "t", Hash: "h"}), false,
			`{"` + sig + `":"c44067f5952c0a294b673a41bacd8c17","hash":"h","text":"t"}`},
	}
	for _, tt := range tests {
		_, raw := roundTrip(t, testEncoder(tt.show), tt.in)
		got, err := json.Marshal(raw["v"])
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

func TestSecretsNeedAManager(t *testing.T) {
	noSecrets := state.NewEncoder(state.EncodeOptions{})
	r := &resource.State{URN: fullURN, Type: "aws:s3/bucket:Bucket", Inputs: resource.Map{"v": resource.MakeSecret(resource.String("x"))}}
	if _, err := noSecrets.Resource(r); err == nil {
		t.Fatal("encoding a secret without a secrets manager succeeded")
	}
	sr, err := testEncoder(false).Resource(r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := state.NewDecoder(nil).Resource(sr, nil); err == nil {
		t.Fatal("decoding a ciphertext without a secrets manager succeeded")
	}
}

func TestMalformedValues(t *testing.T) {
	sig := resource.SigKey
	tests := []struct {
		name string
		in   string
	}{
		{"secret with both forms", `{"` + sig + `":"1b47061264138c4ac30d75fd1eb44270","ciphertext":"Ingi","plaintext":"\"x\""}`},
		{"secret with neither", `{"` + sig + `":"1b47061264138c4ac30d75fd1eb44270"}`},
		{"secret not JSON", `{"` + sig + `":"1b47061264138c4ac30d75fd1eb44270","plaintext":"{"}`},
		{"bad float", `{"` + sig + `":"8ad145fe-0d11-4827-bfd7-1abcbf086f5c","value":"zz"}`},
		{"bad byte string", `{"` + sig + `":"803fd3297a5875dc03ca845dda5d2a98","value":"!"}`},
		{"unknown signature", `{"` + sig + `":"nope"}`},
	}
	for _, tt := range tests {
		var sr state.ResourceV3
		if err := json.Unmarshal([]byte(`{"urn":"`+string(fullURN)+`","type":"aws:s3/bucket:Bucket","inputs":{"v":`+tt.in+`}}`), &sr); err != nil {
			t.Fatal(err)
		}
		if _, err := state.NewDecoder(b64Manager{}).Resource(&sr, nil); err == nil {
			t.Errorf("%s: decoding %s succeeded", tt.name, tt.in)
		}
	}
}
