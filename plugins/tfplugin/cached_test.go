package tfplugin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/plugins/tfinstall"
	"github.com/cairn-iac/cairn/plugins/tfplugin/internal/tfplugin6"
)

// TestCachedSchemas checks that the schema a provider's run kept is read
// by the hash the project's lock file pins, and that without a lock file,
// a pin or a kept schema the error says so and names cairn preview.
func TestCachedSchemas(t *testing.T) {
	dir := t.TempDir()
	project, cache := filepath.Join(dir, "project"), filepath.Join(dir, "schemas")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	resp := &tfplugin6.GetProviderSchema_Response{Provider: &tfplugin6.Schema{Block: &tfplugin6.Schema_Block{}},
		ResourceSchemas: map[string]*tfplugin6.Schema{"null_thing": {Block: &tfplugin6.Schema_Block{
			Attributes: []*tfplugin6.Schema_Attribute{{Name: "size", Type: []byte(`"number"`), Optional: true}}}}}}
	const source = "registry.opentofu.org/cairn/null"
	s, err := newProviderSchema("null", &parameter{Source: source, Version: "1.0.0"}, resp)
	if err != nil {
		t.Fatal(err)
	}
	(&schemaCache{dir: cache, version: "1.2.3", m: map[string]*providerSchema{}}).put("terraform-provider-null", "h1:kept=", 5, s)
	lock := func(hashes ...string) {
		data := tfinstall.FormatLocks(map[string]tfinstall.Lock{source: {Source: source, Version: "1.0.0", Hashes: hashes}})
		if err := os.WriteFile(filepath.Join(project, tfinstall.LockFileName), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := CachedSchemas{SchemaDir: cache, CairnVersion: "1.2.3"}
	spec := workspace.PackageSpec{Source: Name, Parameters: []string{"cairn/null"}}
	for _, tc := range []struct {
		dir    string
		hashes []string // of the lock file; none: no lock file
		want   string
	}{
		{dir: "", want: "is not installed in any project"},
		{dir: project, want: "is not pinned by " + filepath.Join(project, tfinstall.LockFileName) + ", and the language server never installs one: a first `cairn preview`"},
		{dir: project, hashes: []string{"h1:other=", "zh:0000"}, want: "has no schema of the Terraform provider " + source + " 1.0.0"},
		{dir: project, hashes: []string{"h1:kept=", "h1:other="}, want: `"null:index/thing:Thing"`},
	} {
		if tc.hashes != nil {
			lock(tc.hashes...)
		}
		data, err := c.CachedSchema("null", spec, tc.dir)
		got := string(data)
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("with the hashes %q in %q: %s, want %s", tc.hashes, tc.dir, got, tc.want)
		}
	}
}
