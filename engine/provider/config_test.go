package provider

import (
	"reflect"
	"testing"

	"github.com/cairn-iac/cairn/engine/resource"
)

func TestConfigStrings(t *testing.T) {
	got, secrets, err := ConfigStrings(map[string]resource.Value{
		"p:name":  resource.String("n"),
		"p:count": resource.Number(3),
		"p:flag":  resource.Bool(true),
		"p:obj":   resource.Object(resource.Map{"a": resource.Array(resource.Number(1))}),
		"p:pw":    resource.MakeSecret(resource.String("s3cret")),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"p:name": "n", "p:count": "3", "p:flag": "true", "p:obj": `{"a":[1]}`, "p:pw": "s3cret"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("config = %v, want %v", got, want)
	}
	if !reflect.DeepEqual(secrets, []string{"p:pw"}) {
		t.Errorf("secret keys = %v, want [p:pw]", secrets)
	}
	if _, _, err := ConfigStrings(map[string]resource.Value{"p:u": resource.Object(resource.Map{"x": resource.Unknown()})}); err == nil {
		t.Error("an unknown configuration value should be an error")
	}
}
