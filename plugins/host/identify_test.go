package host_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/internal/plugintest"
	"github.com/cairn-iac/cairn/plugins/command"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/random"
)

// Identify tells what Load would serve without starting anything: a
// built-in's version and its InputsOnly declaration, in process or
// isolated; a plugin's version from its folder; an unversioned binary's
// path, size and modification time, which change when it is replaced.
func TestIdentify(t *testing.T) {
	ctx := context.Background()
	cairn := plugintest.Link(t, t.TempDir(), "cairn")
	dir := t.TempDir()
	script := filepath.Join(dir, "pulumi-resource-own")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, host.ResolverOptions{Builtins: builtins, Isolate: []string{"command"},
		ServeCommand: func(pkg string) []string { return []string{cairn, "plugin", "serve", pkg} },
		Project:      []workspace.PluginRef{{Name: "own", Path: dir}, {Name: "pinned", Path: dir, Version: "3.0.0"}}})
	identify := func(pkg, version string) (provider.Identity, bool) {
		t.Helper()
		return e.resolver.Identify(ctx, pkg, version)
	}
	for _, tc := range []struct {
		pkg, version string
		want         provider.Identity
	}{
		{"random", "", provider.Identity{Plugin: random.Version, InputsOnly: true}},
		{"command", "", provider.Identity{Plugin: command.Version, InputsOnly: true}},
		{"kv", "1.0.0", provider.Identity{Plugin: "1.0.0"}},
		{"pinned", "", provider.Identity{Plugin: "3.0.0"}},
	} {
		if got, ok := identify(tc.pkg, tc.version); !ok || got != tc.want {
			t.Errorf("Identify(%s, %q) = %+v, %v; want %+v", tc.pkg, tc.version, got, ok, tc.want)
		}
	}
	if _, ok := identify("absent", ""); ok {
		t.Error("a package no provider serves was identified")
	}

	// The script cannot start: it was never run.
	own, ok := identify("own", "")
	if !ok || !strings.HasPrefix(own.Plugin, script+" ") || own.InputsOnly {
		t.Fatalf("Identify(own) = %+v, %v", own, ok)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(script, later, later); err != nil {
		t.Fatal(err)
	}
	if again, _ := identify("own", ""); again == own {
		t.Errorf("a replaced binary has the same identity %q", own.Plugin)
	}
}

// A served provider's InputsOnly declaration crosses the wire; a plugin
// that does not make it is not taken to.
func TestInputsOnlyCrossesTheWire(t *testing.T) {
	ctx := context.Background()
	cairn := plugintest.Link(t, t.TempDir(), "cairn")
	e := newEnv(t, host.ResolverOptions{Builtins: builtins, Isolate: []string{"random"},
		ServeCommand: func(pkg string) []string { return []string{cairn, "plugin", "serve", pkg} }})
	for pkg, want := range map[string]bool{"random": true, "kv": false} {
		p, err := e.resolver.Load(ctx, pkg, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := p.(*host.Plugin); !ok {
			t.Fatalf("%s is not served by a plugin process", pkg)
		}
		info, err := p.GetPluginInfo(ctx)
		if err != nil || info.InputsOnly != want {
			t.Errorf("%s: GetPluginInfo = %+v, %v; want InputsOnly %v", pkg, info, err, want)
		}
		_ = p.Close()
	}
}

// The schema of a binary whose location does not tell its version is
// cached under its identity.
func TestSchemaCacheOfUnversionedBinaries(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	plugintest.Link(t, dir, "pulumi-resource-kv")
	cache := filepath.Join(t.TempDir(), "schemas")
	e := newEnv(t, host.ResolverOptions{SchemaCache: cache, Project: []workspace.PluginRef{{Name: "kv", Path: dir}}})
	if _, err := e.resolver.Schema(ctx, "kv", "", ""); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(cache, "kv-*.json"))
	if len(files) != 1 {
		t.Fatalf("cached: %v", files)
	}
	if err := os.WriteFile(files[0], []byte(`{"name":"kv","version":"cached"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := e.resolver.Schema(ctx, "kv", "", ""); err != nil || string(got) != `{"name":"kv","version":"cached"}` {
		t.Errorf("Schema a second time = %s, %v; want the cached one", got, err)
	}
}
