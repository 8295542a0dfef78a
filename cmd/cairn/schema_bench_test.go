package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/internal/locate"
	"github.com/cairn-iac/cairn/internal/plugintest"
	"github.com/cairn-iac/cairn/lang/yaml"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/serve"
)

// bigSchemaEnv names the file whose schema pulumi-resource-big serves.
const bigSchemaEnv = "CAIRN_BIG_SCHEMA"

// bigPlugin serves the KV test provider as package big, with the schema of
// the file $CAIRN_BIG_SCHEMA.
func bigPlugin() {
	data, err := os.ReadFile(os.Getenv(bigSchemaEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	kv := plugintest.Factory("big", "1.0.0", false)
	f := provider.Factory{Pkg: "big", Version: "1.0.0", New: func(ctx context.Context) (provider.Provider, error) {
		p, err := kv.New(ctx)
		return bigSchema{p, data}, err
	}}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve.Main(ctx, f, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

type bigSchema struct {
	provider.Provider
	data []byte
}

func (b bigSchema) GetSchema(context.Context, provider.GetSchemaRequest) ([]byte, error) {
	return b.data, nil
}

// writeBigSchema writes a schema of about size bytes, in the shape of large
// bridged providers: many resources with many described properties.
func writeBigSchema(tb testing.TB, path string, size int) {
	desc := strings.Repeat("The property's documentation, as bridged providers carry it. ", 3)
	resources := map[string]any{}
	n := 0
	for i := 0; n < size; i++ {
		props := map[string]any{}
		for j := 0; j < 40; j++ {
			props[fmt.Sprintf("property%d", j)] = map[string]any{"type": "string", "description": desc}
		}
		resources[fmt.Sprintf("big:index/res%d:Res%d", i, i)] = map[string]any{"description": desc, "inputProperties": props, "properties": props}
		n += 2 * 40 * (len(desc) + 60)
	}
	data, err := json.Marshal(map[string]any{"name": "big", "version": "1.0.0", "resources": resources})
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkCheckBigSchema loads and checks a YAML program against a
// provider plugin whose schema is about 30 MB: cold (the plugin is started
// and asked for its schema) and cached (the schema is read from the cache
// of plugin schemas).
func BenchmarkCheckBigSchema(b *testing.B) {
	dir := b.TempDir()
	schemaFile := filepath.Join(dir, "schema.json")
	writeBigSchema(b, schemaFile, 30<<20)
	info, _ := os.Stat(schemaFile)
	b.Logf("schema: %.1f MB", float64(info.Size())/1e6)
	b.Setenv(bigSchemaEnv, schemaFile)
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	plugins := filepath.Join(dir, "plugins")
	if err := os.MkdirAll(filepath.Join(plugins, "resource-big-v1.0.0"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(plugins, "resource-big-v1.0.0", "pulumi-resource-big")); err != nil {
		b.Fatal(err)
	}
	project := filepath.Join(dir, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		b.Fatal(err)
	}
	program := "name: proj\nruntime: yaml\nresources:\n  a:\n    type: big:Res7\n    properties:\n      property3: x\n"
	if err := os.WriteFile(filepath.Join(project, "Pulumi.yaml"), []byte(program), 0o644); err != nil {
		b.Fatal(err)
	}
	cache := filepath.Join(dir, "schemas")
	check := func(b *testing.B) {
		r := host.NewResolver(host.ResolverOptions{Dirs: locate.Dirs{Plugins: []string{plugins}}, SchemaCache: cache})
		defer r.Close()
		prog, diags := yaml.Load(project, yaml.Options{Schemas: eval.ProviderSchemas(r)})
		if !diags.HasErrors() {
			diags = prog.Check(context.Background(), "proj", nil)
		}
		if diags.HasErrors() {
			b.Fatal(diags)
		}
	}
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			if err := os.RemoveAll(cache); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			check(b)
		}
	})
	b.Run("cached", func(b *testing.B) {
		check(b)
		for b.Loop() {
			check(b)
		}
	})
}
