package resource

import (
	"encoding/json"
	"math"
	"testing"
)

// Numbers JSON cannot hold and strings that are not UTF-8 survive a trip
// through JSON as signature objects.
func TestEncodeNonFiniteAndByteStrings(t *testing.T) {
	raw := string([]byte{0xff, 0xfe, 'a'})
	tests := []struct {
		name  string
		v     Value
		sig   string
		bytes int // byte strings written
	}{
		{"NaN", Number(math.NaN()), FloatSig, 0},
		{"+Inf", Number(math.Inf(1)), FloatSig, 0},
		{"-Inf", Number(math.Inf(-1)), FloatSig, 0},
		{"bytes", String(raw), ByteStringSig, 1},
		{"nested", Object(Map{"l": Array(String(raw), Number(math.Inf(1)))}), "", 1},
		{"in a secret", MakeSecret(Number(math.NaN())), SecretSig, 0},
		{"plain", Object(Map{"n": Number(1.5), "s": String("ü")}), "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			byteStrings := 0
			x, err := Encode(tt.v, EncodeOptions{KeepSecrets: true, NonFinite: true, ByteStrings: func() { byteStrings++ }})
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(x)
			if err != nil {
				t.Fatalf("the encoding is not JSON: %v", err)
			}
			if m, ok := x.(map[string]any); tt.sig != "" && (!ok || m[SigKey] != tt.sig) {
				t.Errorf("encoded as %s, want signature %s", data, tt.sig)
			}
			var back any
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatal(err)
			}
			got, err := Decode(back, DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(tt.v) {
				t.Errorf("%s decoded as %v, want %v", data, got, tt.v)
			}
			if byteStrings != tt.bytes {
				t.Errorf("ByteStrings called %d times, want %d", byteStrings, tt.bytes)
			}
		})
	}

	// Without the options the values are written as they are.
	if x, _ := Encode(Number(math.Inf(1)), EncodeOptions{}); x != math.Inf(1) {
		t.Errorf("+Inf without NonFinite = %v", x)
	}
	if x, _ := Encode(String(raw), EncodeOptions{}); x != raw {
		t.Errorf("a byte string without ByteStrings = %v", x)
	}
	if _, err := Decode(map[string]any{SigKey: FloatSig, "value": "nope"}, DecodeOptions{}); err == nil {
		t.Error("a malformed float decoded")
	}
}
