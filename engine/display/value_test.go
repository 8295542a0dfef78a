package display

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
)

func TestValueLines(t *testing.T) {
	secret := resource.MakeSecret(resource.String("pw"))
	tests := []struct {
		name        string
		v           resource.Value
		showSecrets bool
		want        string
	}{
		{"null", resource.Null, false, "null"},
		{"bool", resource.Bool(true), false, "true"},
		{"integer", resource.Number(42), false, "42"},
		{"fraction", resource.Number(0.5), false, "0.5"},
		{"string quoted", resource.String("a \"b\"\nc"), false, `"a \"b\"\nc"`},
		{"unknown", resource.Unknown(), false, unknownText},
		{"secret masked", secret, false, secretText},
		{"secret shown", secret, true, `"pw"`},
		{"unknown output", resource.NewOutput(resource.Output{}), false, unknownText},
		{"secret output", resource.NewOutput(resource.Output{Known: true, Secret: true, Element: resource.String("x")}), false, secretText},
		{"empty object", resource.Object(nil), false, "{}"},
		{"empty array", resource.Array(), false, "[]"},
		{"object aligned", resource.FromGo(map[string]any{"a": 1, "long-key": "x", "with space": true}), false,
			"{\n    a           : 1\n    long-key    : \"x\"\n    \"with space\": true\n}"},
		{"nested", resource.FromGo(map[string]any{"list": []any{"a", map[string]any{"k": secret}}}), false,
			"{\n    list: [\n        [0]: \"a\"\n        [1]: {\n            k: [secret]\n        }\n    ]\n}"},
		{"text asset", resource.NewAsset(resource.NewTextAsset("hello")), false, "asset(text, 5 bytes, sha256:2cf24dba)"},
		{"file archive", resource.NewArchive(&resource.Archive{Path: "app.zip"}), false, "archive(file: app.zip)"},
		{"reference", resource.NewRef(resource.ResourceRef{URN: fxAssets, ID: resource.String("b-1")}), false,
			"ref(aws:s3/bucket:Bucket assets)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(valueFormat{showSecrets: tt.showSecrets}.lines(tt.v), "\n")
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
