package deploy

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

func TestPluginDownloadURLMakesItsOwnDefaultProvider(t *testing.T) {
	h := newHarness(t)
	const url = "https://get.example/kv"
	fromURL := res("b", nil)
	fromURL.PluginDownloadURL = url
	h.mustUp(func(ctx context.Context, info RunInfo) error {
		if _, err := register(ctx, info, res("a", nil), fromURL, res("c", nil)); err != nil {
			return err
		}
		_, err := info.Monitor.Invoke(ctx, InvokeRequest{Token: "pkgA:index:get", PluginDownloadURL: url})
		return err
	})
	a, b, c := h.find("a"), h.find("b"), h.find("c")
	if a.Provider != c.Provider || a.Provider == b.Provider {
		t.Fatalf("providers: a %s, b %s, c %s; want b alone on its own", a.Provider, b.Provider, c.Provider)
	}
	prov := h.find("default_https___get.example_kv")
	if prov == nil || !strings.HasPrefix(b.Provider, string(prov.URN)+"::") {
		t.Fatalf("b's provider = %s, want the default provider of its URL:\n%s", b.Provider, dump(h.snap))
	}
	internal := prov.Inputs[internalKey].ObjectValue()
	if !internal["pluginDownloadURL"].Equal(resource.String(url)) {
		t.Errorf("the provider's internal inputs = %v", internal)
	}
	equal(t, "provider instances", h.loads["pkgA"], 2)
}

func TestEnvVarMappings(t *testing.T) {
	h := newHarness(t)
	mapping := map[string]string{"TOKEN": "CI_TOKEN"}
	prov := RegisterRequest{Type: "pulumi:providers:pkgA", Name: "explicit", Custom: true, EnvVarMappings: mapping}
	h.mustUp(program(prov))
	internal := h.find("explicit").Inputs[internalKey].ObjectValue()
	if !internal["envVarMappings"].Equal(resource.Object(resource.Map{"TOKEN": resource.String("CI_TOKEN")})) {
		t.Errorf("the provider's internal inputs = %v", internal)
	}
	equal(t, "mappings the provider was loaded with", h.mappings["pkgA"], mapping)
	thing := res("a", nil)
	thing.EnvVarMappings = mapping
	if _, err := h.up(program(prov, thing)); err == nil || !strings.Contains(err.Error(), "only valid on provider resources") {
		t.Errorf("envVarMappings on a resource: %v", err)
	}
}

func TestEnvVarMappingsNeedAHostThatAppliesThem(t *testing.T) {
	h := newHarness(t)
	prov := RegisterRequest{Type: "pulumi:providers:pkgA", Name: "explicit", Custom: true, EnvVarMappings: map[string]string{"TOKEN": "CI_TOKEN"}}
	_, err := h.up(program(prov), func(o *Options) { o.Host = struct{ provider.Host }{h} })
	if err == nil || !strings.Contains(err.Error(), "envVarMappings") {
		t.Errorf("envVarMappings with a host that cannot apply them: %v", err)
	}
	if h.snap != nil && h.find("explicit") != nil {
		t.Errorf("the provider was created:\n%s", dump(h.snap))
	}
}
