package tfplugin

import (
	"testing"

	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// TestSchemaCacheKey keeps a schema by its package, the protocol version
// that read it and Cairn's version: another version of Cairn, which may
// carry a protocol 5 schema differently, reads it from the provider
// again.
func TestSchemaCacheKey(t *testing.T) {
	dir := t.TempDir()
	param := &parameter{Source: "registry.opentofu.org/cairn/cairnsdk", Version: "1.0.0"}
	resp := &tfplugin6.GetProviderSchema_Response{ResourceSchemas: map[string]*tfplugin6.Schema{"cairnsdk_item": {Block: &tfplugin6.Schema_Block{
		Attributes: []*tfplugin6.Schema_Attribute{{Name: "password_wo", Type: []byte(`"string"`), Optional: true, WriteOnly: true}}}}}}
	s, err := newProviderSchema("cairnsdk", param, resp)
	if err != nil {
		t.Fatal(err)
	}
	cache := func(version string) *schemaCache {
		return &schemaCache{dir: dir, version: version, m: map[string]*providerSchema{}}
	}
	cache("1.0.0").put("exe", "h1:abc", 5, s)
	got := cache("1.0.0").get("exe", "h1:abc", "cairnsdk", param)
	if got == nil || !got.resources["cairnsdk:index/item:Item"].block.GetAttributes()[0].GetWriteOnly() {
		t.Fatalf("the same Cairn read back %v", got)
	}
	if got := cache("1.0.1").get("exe", "h1:abc", "cairnsdk", param); got != nil {
		t.Errorf("another Cairn version read the kept schema")
	}
	if c := cache("1.0.0"); c.path("h1:abc", 5) == c.path("h1:abc", 6) {
		t.Errorf("schemas read with protocol 5 and 6 are kept in one file")
	}
}
