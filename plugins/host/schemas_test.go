package host_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/plugins/host"
)

// A plugin of a known version is asked for its schema once; later requests
// read the cache. Built-in providers are not cached.
func TestSchemaCache(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "schemas")
	e := newEnv(t, host.ResolverOptions{SchemaCache: cache, Builtins: builtins})
	ctx := context.Background()
	got, err := e.resolver.Schema(ctx, "kv", "", "")
	if err != nil || string(got) != `{"name":"kv","version":"1.0.0"}` {
		t.Fatalf("Schema = %s, %v", got, err)
	}
	path := filepath.Join(cache, "kv-v1.0.0.json")
	if err := os.WriteFile(path, []byte(`{"name":"kv","version":"cached"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := e.resolver.Schema(ctx, "kv", "1.0.0", ""); err != nil || string(got) != `{"name":"kv","version":"cached"}` {
		t.Errorf("Schema a second time = %s, %v; want the cached one", got, err)
	}
	if _, err := e.resolver.Schema(ctx, "random", "", ""); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(cache)
	if len(entries) != 1 {
		t.Errorf("the cache holds %d files, want only kv's", len(entries))
	}
}
