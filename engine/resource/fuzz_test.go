package resource

import (
	"encoding/json"
	"testing"
)

// FuzzDecode decodes JSON as state and wire values are read: no input
// panics, and a value that decodes is encoded back to what decodes to it.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		`null`, `true`, `1.5`, `"s"`, `[1,"a",null]`, `{"a":{"b":[true]}}`,
		`{"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","value":"pw"}`,
		`{"4dabf18193072939515e22adb298388d":"c44067f5952c0a294b673a41bacd8c17","text":"hi","hash":""}`,
		`{"4dabf18193072939515e22adb298388d":"0def7320c3a5731c473e5ecbe6d01bc7","assets":{"a":{"4dabf18193072939515e22adb298388d":"c44067f5952c0a294b673a41bacd8c17","path":"a.txt"}}}`,
		`{"4dabf18193072939515e22adb298388d":"5cf8f73096256a8f31e491e813e4eb8e","urn":"urn:pulumi:dev::p::t:m:R::n","id":"i"}`,
		`{"4dabf18193072939515e22adb298388d":"d0e6a833031e9bbcd3f4e8bde6ca49a4","value":1,"secret":true,"dependencies":["urn:pulumi:dev::p::t:m:R::n"]}`,
		`{"4dabf18193072939515e22adb298388d":"803fd3297a5875dc03ca845dda5d2a98","value":"/w=="}`,
		`{"4dabf18193072939515e22adb298388d":"8ad145fe-0d11-4827-bfd7-1abcbf086f5c","value":"7ff8000000000001"}`,
		`"04da6b54-80e4-46f7-96ec-b56ff0331ba9"`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var x any
		if json.Unmarshal(data, &x) != nil {
			return
		}
		v, err := Decode(x, DecodeOptions{})
		if err != nil {
			return
		}
		opts := EncodeOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true, KeepOutputValues: true, NonFinite: true, ByteStrings: func() {}}
		enc, err := Encode(v, opts)
		if err != nil {
			t.Fatalf("Encode(Decode(%s)) = %v", data, err)
		}
		back, err := Decode(enc, DecodeOptions{})
		if err != nil {
			t.Fatalf("Decode(Encode(Decode(%s))) = %v", data, err)
		}
		if !back.Equal(v) {
			t.Fatalf("%s decodes to %v, which encodes to %v, which decodes to %v", data, v, enc, back)
		}
	})
}

// FuzzParsePath parses property paths: no input panics, and a path that
// parses prints as a string that parses to it.
func FuzzParsePath(f *testing.F) {
	for _, seed := range []string{`a`, `a.b[0]`, `["a.b"].c`, `a[*]`, `[0]`, `a["\"q\""]`, `*`, `a.*`, ``} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePath(s)
		if err != nil {
			return
		}
		again, err := ParsePath(p.String())
		if err != nil {
			t.Fatalf("ParsePath(%q) = %v, whose String %q does not parse: %v", s, p, p.String(), err)
		}
		if len(again) != len(p) {
			t.Fatalf("ParsePath(%q) = %#v, String %q parses to %#v", s, p, p.String(), again)
		}
		for i := range p {
			if again[i] != p[i] {
				t.Fatalf("ParsePath(%q) = %#v, String %q parses to %#v", s, p, p.String(), again)
			}
		}
	})
}
