package runtimes

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/types/known/structpb"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
}

func info(t *testing.T, dir string, opts map[string]any) *pulumirpc.ProgramInfo {
	o, err := structpb.NewStruct(opts)
	if err != nil {
		t.Fatal(err)
	}
	return &pulumirpc.ProgramInfo{RootDirectory: dir, ProgramDirectory: dir, EntryPoint: ".", Options: o}
}

func names(deps []*pulumirpc.PackageDependency) []string {
	var out []string
	for _, d := range deps {
		s := d.GetName() + "@" + d.GetVersion()
		if d.GetServer() != "" {
			s += " from " + d.GetServer()
		}
		if p := d.GetParameterization(); p != nil {
			s += " as " + p.GetName() + "@" + p.GetVersion() + "=" + string(p.GetValue())
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func TestNodePackagesReadsPackageJSONs(t *testing.T) {
	dir := t.TempDir()
	nm := filepath.Join(dir, "node_modules")
	write(t, filepath.Join(nm, "@pulumi", "aws", "package.json"), `{"name": "@pulumi/aws", "version": "6.1.0", "pulumi": {"resource": true}}`)
	write(t, filepath.Join(nm, "@pulumi", "pulumi", "package.json"), `{"name": "@pulumi/pulumi", "version": "3.270.0"}`)
	write(t, filepath.Join(nm, "acme-cloud", "package.json"),
		`{"name": "acme-cloud", "version": "1.0.0", "pulumi": {"resource": true, "name": "acme", "version": "2.0.0", "server": "https://example.com"}}`)
	write(t, filepath.Join(nm, "acme-cloud", "node_modules", "@pulumi", "random", "package.json"),
		`{"name": "@pulumi/random", "version": "v4.0.0", "pulumi": {"resource": true}}`)
	write(t, filepath.Join(nm, "bucket", "package.json"),
		`{"name": "bucket", "version": "0.1.0", "pulumi": {"resource": true, "name": "terraform-provider", "version": "0.8.0", "parameterization": {"name": "bucket", "version": "0.1.0", "value": "YnVja2V0"}}}`)
	write(t, filepath.Join(nm, "left-pad", "package.json"), `{"name": "left-pad", "version": "1.3.0"}`)
	got, err := NodeJS{}.RequiredPackages(context.Background(), info(t, dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"acme@2.0.0 from https://example.com", "aws@6.1.0", "random@4.0.0", "terraform-provider@0.8.0 as bucket@0.1.0=bucket"}
	if g := names(got); !slices.Equal(g, want) {
		t.Errorf("got %q, want %q", g, want)
	}

	// A third-party resource package must name its plugin.
	write(t, filepath.Join(nm, "nameless", "package.json"), `{"name": "nameless", "version": "1.0.0", "pulumi": {"resource": true}}`)
	if _, err := (NodeJS{}).RequiredPackages(context.Background(), info(t, dir, nil)); err == nil ||
		!strings.Contains(err.Error(), "nameless") || !strings.Contains(err.Error(), "does not name its plugin") {
		t.Errorf("got %v, want the nameless package named", err)
	}
}

func TestGoModPackagesReadsPulumiPluginJSON(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "go.mod"), `module prog

go 1.22

require (
	github.com/pulumi/pulumi-aws/sdk/v6 v6.1.0
	github.com/acme/cloud v0.0.0-20240101000000-abcdefabcdef
	example.com/plain v1.0.0
)

replace github.com/pulumi/pulumi-aws/sdk/v6 => ./aws
replace github.com/acme/cloud => ./acme
replace example.com/plain => ./plain
`)
	write(t, filepath.Join(dir, "aws", "go", "aws", "pulumi-plugin.json"), `{"resource": true}`)
	write(t, filepath.Join(dir, "acme", "pulumi-plugin.json"), `{"resource": true, "name": "acme", "version": "1.2.3", "server": "https://example.com"}`)
	write(t, filepath.Join(dir, "plain", "go.mod"), "module example.com/plain\n")
	got, err := Go{}.RequiredPackages(context.Background(), info(t, dir, nil))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"acme@1.2.3 from https://example.com", "aws@6.1.0"}
	if g := names(got); !slices.Equal(g, want) {
		t.Errorf("got %q, want %q", g, want)
	}
}

// TestNodeInstallUsesTheProjectsPackageManager runs Install with fake
// package managers that say what they were asked.
func TestNodeInstallUsesTheProjectsPackageManager(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake package managers are shell scripts")
	}
	bin := t.TempDir()
	for _, pm := range []string{"npm", "yarn", "pnpm"} {
		write(t, filepath.Join(bin, pm), "#!/bin/sh\necho \""+pm+" $*\"\nmkdir -p node_modules/@pulumi/pulumi && echo '{}' > node_modules/@pulumi/pulumi/package.json\n")
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, tc := range []struct {
		lock string
		opts map[string]any
		want string
	}{
		{"", nil, "npm install"},
		{"yarn.lock", nil, "yarn install"},
		{"pnpm-lock.yaml", nil, "pnpm install"},
		{"yarn.lock", map[string]any{"packagemanager": "pnpm"}, "pnpm install"},
	} {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "package.json"), `{"name": "prog"}`)
		if tc.lock != "" {
			write(t, filepath.Join(dir, tc.lock), "")
		}
		var out bytes.Buffer
		if err := (NodeJS{}).Install(context.Background(), info(t, dir, tc.opts), &out); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "Installing the program's dependencies with "+tc.want) ||
			!strings.Contains(out.String(), "\n"+tc.want+"\n") {
			t.Errorf("lock %q, options %v: printed %q, want %q run", tc.lock, tc.opts, out.String(), tc.want)
		}
		// Installed, nothing runs again.
		out.Reset()
		if err := (NodeJS{}).Install(context.Background(), info(t, dir, tc.opts), &out); err != nil || out.Len() != 0 {
			t.Errorf("second Install: %v, printed %q", err, out.String())
		}
	}
}

func TestRuntimeOptionsAreChecked(t *testing.T) {
	for _, tc := range []struct {
		h    Host
		opts map[string]any
		want string
	}{
		{NodeJS{}, map[string]any{"typescript": "yes"}, "runtime option typescript is yes; it must be a bool"},
		{NodeJS{}, map[string]any{"packagemanager": "cargo"}, `runtime option packagemanager is "cargo"; use npm, yarn, pnpm or bun`},
		{Go{}, map[string]any{"binary": "prog", "buildTarget": "out"}, "binary and buildTarget exclude each other"},
		{Go{}, map[string]any{"binary": "no-such-program"}, "the runtime option binary names no-such-program, which is neither in"},
		{Python{}, map[string]any{"toolchain": "poetry"}, "runs pip projects only"},
	} {
		dir := t.TempDir()
		_, err := tc.h.Run(context.Background(), &pulumirpc.RunRequest{Info: info(t, dir, tc.opts), Pwd: dir})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%T with %v: got %v, want %q", tc.h, tc.opts, err, tc.want)
		}
	}
}

func TestMissingToolIsNamed(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for _, tc := range []struct {
		h    Host
		want string
	}{
		{NodeJS{}, "needs node on PATH: install Node.js (with npm), or set CAIRN_LANGUAGE_HOST=pulumi"},
		{Go{}, "needs go on PATH to build the program: install Go, or build the program yourself and name it with the runtime option binary"},
		{Python{}, "needs python3 on PATH: install Python, or set CAIRN_LANGUAGE_HOST=pulumi"},
	} {
		dir := t.TempDir()
		_, err := tc.h.Run(context.Background(), &pulumirpc.RunRequest{Info: info(t, dir, nil), Pwd: dir})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%T: got %v, want %q", tc.h, err, tc.want)
		}
	}
}
