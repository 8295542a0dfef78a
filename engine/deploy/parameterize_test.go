package deploy

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// A package served by a parameterized provider gets a default provider of
// its own type whose plugin is parameterized with the value form before
// use, the parameterization recorded in the state as Pulumi records it (the
// package's version on top, the plugin's name and version and the value
// under __internal);
// a destroy driven by the state alone parameterizes the same way.
func TestParameterizedPackage(t *testing.T) {
	h := newHarness(t)
	h.versions["tf"] = []string{"0.8.0"}
	var params []string
	h.provider("tf", func(p *fakeProvider) {
		p.ParameterizeF = func(req provider.ParameterizeRequest) (provider.ParameterizeResponse, error) {
			params = append(params, req.Name+"@"+req.Version+"="+string(req.Value))
			return provider.ParameterizeResponse{Name: req.Name, Version: req.Version}, nil
		}
	})
	param := &Parameterization{Plugin: "tf", Name: "bucket", Version: "2.0.0", Value: []byte("hashicorp/bucket")}
	thing := RegisterRequest{Type: "bucket:index:Thing", Name: "a", Custom: true, Version: "0.8.0", Parameterization: param}
	h.mustUp(program(thing))

	prov := h.find("default_2_0_0")
	if prov == nil || prov.Type != "pulumi:providers:bucket" || !strings.HasPrefix(h.find("a").Provider, string(prov.URN)+"::") {
		t.Fatalf("want a default provider of type pulumi:providers:bucket serving a:\n%s", dump(h.snap))
	}
	want := resource.Object(resource.Map{
		"name":             resource.String("tf"),
		"version":          resource.String("0.8.0"),
		"parameterization": resource.String("aGFzaGljb3JwL2J1Y2tldA=="),
	})
	if got := prov.Inputs[internalKey]; !got.Equal(want) {
		t.Errorf("the provider's internal inputs = %v, want %v", got, want)
	}
	if got := prov.Inputs[versionKey]; !got.Equal(resource.String("2.0.0")) {
		t.Errorf("the provider's version = %v, want the package's, 2.0.0", got)
	}
	equal(t, "plugins loaded", h.loads["tf"] > 0 && h.loads["bucket"] == 0, true)

	params = nil
	if _, err := h.destroy(); err != nil {
		t.Fatal(err)
	}
	if len(params) == 0 || params[0] != "bucket@2.0.0=hashicorp/bucket" {
		t.Errorf("a destroy parameterized %q, want bucket@2.0.0=hashicorp/bucket", params)
	}
}

func TestParameterizedPackageServedByAnother(t *testing.T) {
	h := newHarness(t)
	h.provider("tf", func(p *fakeProvider) {
		p.ParameterizeF = func(provider.ParameterizeRequest) (provider.ParameterizeResponse, error) {
			return provider.ParameterizeResponse{Name: "other"}, nil
		}
	})
	thing := RegisterRequest{Type: "bucket:index:Thing", Name: "a", Custom: true,
		Parameterization: &Parameterization{Plugin: "tf", Name: "bucket", Version: "2.0.0"}}
	if _, err := h.up(program(thing)); err == nil || !strings.Contains(err.Error(), `it serves package "other" instead`) {
		t.Errorf("a provider parameterized into another package: %v", err)
	}
}
