package host_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/internal/locate"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/random"
)

// packageSchemas is a host.PackageSchemas that records what it is asked.
type packageSchemas struct{ asked []string }

func (p *packageSchemas) CachedSchema(pkg string, spec workspace.PackageSpec, dir string) ([]byte, error) {
	p.asked = append(p.asked, pkg+" "+spec.Source+" "+strings.Join(spec.Parameters, " ")+" "+dir)
	return []byte(`{"name":"` + pkg + `"}`), nil
}

// TestCachedSchemas checks where CachedSchemas finds schemas: built-in
// providers in process, plugins' in the cache by version (the one asked
// for, the one of the plugin found, or the newest kept), parameterized
// packages through their provider's reader; a schema not kept is an
// error naming the command that keeps it, and a plugin found is never
// started.
func TestCachedSchemas(t *testing.T) {
	dir := t.TempDir()
	cache, plugins, marker := filepath.Join(dir, "schemas"), filepath.Join(dir, "plugins"), filepath.Join(dir, "marker")
	for path, text := range map[string]string{
		filepath.Join(plugins, "resource-kv-v2.0.0", "pulumi-resource-kv"): "#!/bin/sh\ntouch '" + marker + "'\n",
		filepath.Join(cache, "kv-v1.0.0.json"):                             `{"name":"kv","version":"1.0.0"}`,
		filepath.Join(cache, "aws-v5.0.0.json"):                            `{"name":"aws","version":"5.0.0"}`,
		filepath.Join(cache, "aws-v6.1.0.json"):                            `{"name":"aws","version":"6.1.0"}`,
		filepath.Join(cache, "aws-v6.0.0.json"):                            `{"name":"aws","version":"6.0.0"}`,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tf := &packageSchemas{}
	c := host.NewCachedSchemas(host.CachedSchemasOptions{Builtins: provider.Factories{random.Factory()},
		Dirs: locate.Dirs{Plugins: []string{plugins}}, SchemaCache: cache, Packages: map[string]host.PackageSchemas{"tf": tf}}).
		Project(nil, map[string]workspace.PackageSpec{"null": {Source: "tf", Parameters: []string{"hashicorp/null"}}, "x": {Source: "other"}})
	ctx := context.Background()
	for _, tc := range []struct {
		pkg, version string
		spec         *workspace.PackageSpec
		want         string // what the schema or the error holds
	}{
		{pkg: "random", want: `{"name":"random"`},
		{pkg: "kv", version: "1.0.0", want: `"version":"1.0.0"`},
		{pkg: "kv", want: "never starts a plugin (" + filepath.Join(plugins, "resource-kv-v2.0.0", "pulumi-resource-kv") + ")"},
		{pkg: "aws", want: `"version":"6.1.0"`},
		{pkg: "aws", version: "6.0.0", want: `"version":"6.0.0"`},
		{pkg: "gcp", want: "`cairn plugin install resource gcp VERSION`"},
		{pkg: "gcp", version: "7.0.0", want: "a first `cairn preview` of the project installs it (as `cairn plugin install resource gcp 7.0.0` would)"},
		{pkg: "null", want: `{"name":"null"}`},
		{pkg: "aws", spec: &workspace.PackageSpec{Source: "tf", Parameters: []string{"hashicorp/aws"}}, want: `{"name":"aws"}`},
		{pkg: "x", want: "whose schemas are not kept"},
	} {
		data, err := c.Schema(ctx, tc.pkg, tc.version, tc.spec, "/project")
		got := string(data)
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tc.want) {
			got = got[:min(len(got), 300)]
			t.Errorf("Schema(%s, %q) = %s, want %s", tc.pkg, tc.version, got, tc.want)
		}
	}
	if want := []string{"null tf hashicorp/null /project", "aws tf hashicorp/aws /project"}; strings.Join(tf.asked, "\n") != strings.Join(want, "\n") {
		t.Errorf("the Terraform reader was asked %q, want %q", tf.asked, want)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a plugin was started")
	}
}
