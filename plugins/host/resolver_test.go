package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/internal/locate"
	"github.com/cairn-iac/cairn/internal/plugintest"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/install"
)

// source describes where a loaded provider runs.
func source(t *testing.T, p provider.Provider) string {
	t.Helper()
	pl, ok := p.(*host.Plugin)
	if !ok {
		return "in-process"
	}
	if pl.Process().Pid() == os.Getpid() {
		t.Error("a plugin runs in Cairn's process")
	}
	return pl.Process().Name()
}

func TestResolverPrefersProjectThenBuiltinThenDisk(t *testing.T) {
	dir := t.TempDir()
	pinned := plugintest.Link(t, filepath.Join(dir, "pinned"), "pulumi-resource-kv")
	tests := []struct {
		name    string
		opts    host.ResolverOptions
		version string
		want    string
	}{
		{"built-in that satisfies the request", host.ResolverOptions{Builtins: provider.Factories{plugintest.Factory("kv", "0.5.0", false)}},
			"", "in-process"},
		{"plugin on disk when the built-in is too old", host.ResolverOptions{Builtins: provider.Factories{plugintest.Factory("kv", "0.5.0", false)}},
			"1.0.0", "pulumi-resource-kv"},
		{"project entry first", host.ResolverOptions{Builtins: provider.Factories{plugintest.Factory("kv", "1.0.0", false)},
			Project: []workspace.PluginRef{{Name: "kv", Path: pinned}}}, "1.0.0", "pulumi-resource-kv"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, tt.opts)
			p, err := e.resolver.Load(context.Background(), "kv", tt.version)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if got := source(t, p); got != tt.want {
				t.Errorf("loaded %s, want %s", got, tt.want)
			}
		})
	}

	e := newEnv(t, host.ResolverOptions{})
	if _, err := e.resolver.Load(context.Background(), "missing", ""); !errors.As(err, new(*provider.NotFoundError)) {
		t.Errorf("loading a missing package: %v, want a NotFoundError", err)
	}
}

func TestResolverList(t *testing.T) {
	e := newEnv(t, host.ResolverOptions{Builtins: provider.Factories{plugintest.Factory("kv", "0.5.0", false),
		plugintest.Factory("kv", "0.6.0", false)}, Isolate: []string{"kv"}})
	var got []string
	for _, r := range e.resolver.List() {
		line := r.Pkg + " " + r.Version + " " + string(r.Source)
		if r.Isolated {
			line += " isolated"
		}
		if r.Active {
			line += " active"
		}
		got = append(got, line)
	}
	want := []string{
		"kv 0.6.0 built-in isolated active",
		"kv 0.5.0 built-in isolated",
		"kv 1.0.0 plugin",
		"kvhs 1.0.0 plugin active",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("List:\n got %q\nwant %q", got, want)
	}
}

func TestIsolatedBuiltinRunsInAChildProcess(t *testing.T) {
	dir := t.TempDir()
	cairn := plugintest.Link(t, dir, "cairn")
	e := newEnv(t, host.ResolverOptions{
		Builtins:     provider.Factories{plugintest.Factory("kvb", "2.0.0", false)},
		Isolate:      []string{"kvb"},
		ServeCommand: func(pkg string) []string { return []string{cairn, "plugin", "serve", pkg} },
	})
	p, err := e.resolver.Load(context.Background(), "kvb", "2.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if got := source(t, p); got != "cairn" {
		t.Errorf("loaded %s, want the cairn serve command", got)
	}
	_ = p.Close()

	e.up(program(func(r *registrar) error {
		_, err := r.item("kvb:index:Item", "i", resource.Map{"value": str("isolated"), "key": str("i")})
		return err
	}))
	if i := e.mustFind("i"); !i.Outputs["length"].Equal(resource.Number(8)) {
		t.Errorf("outputs = %v", i.Outputs)
	}
}

func TestPluginMethods(t *testing.T) {
	e := newEnv(t, host.ResolverOptions{})
	ctx := context.Background()
	p, err := e.resolver.Load(ctx, "kv", "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if info, err := p.GetPluginInfo(ctx); err != nil || info.Version != "1.0.0" {
		t.Errorf("GetPluginInfo = %+v, %v", info, err)
	}
	schema, err := p.GetSchema(ctx, provider.GetSchemaRequest{})
	var parsed map[string]any
	if err != nil || json.Unmarshal(schema, &parsed) != nil || parsed["name"] != "kv" {
		t.Errorf("GetSchema = %s, %v", schema, err)
	}
	if _, err := p.Configure(ctx, provider.ConfigureRequest{URN: "urn:pulumi:dev::proj::pulumi:providers:kv::default", Inputs: resource.Map{}}); err != nil {
		t.Fatal(err)
	}
	if err := plugintest.WriteItem(e.cloud, "known", resource.Map{"value": str("v")}); err != nil {
		t.Fatal(err)
	}
	inv, err := p.Invoke(ctx, provider.InvokeRequest{Token: "kv:index:lookup", Args: resource.Map{"id": resource.MakeSecret(str("known"))}})
	if err != nil || !inv.Return["value"].Equal(str("v")) {
		t.Errorf("Invoke = %+v, %v", inv, err)
	}
	inv, err = p.Invoke(ctx, provider.InvokeRequest{Token: "kv:index:lookup", Args: resource.Map{"id": resource.Number(1)}})
	if err != nil || !reflect.DeepEqual(inv.Failures, []provider.CheckFailure{{Property: "id", Reason: "must be a string"}}) {
		t.Errorf("Invoke failures = %+v, %v", inv.Failures, err)
	}
	if pr, err := p.Parameterize(ctx, provider.ParameterizeRequest{Args: []string{"x"}}); err != nil || pr.Name != "x" || pr.Version != "1.0.0" {
		t.Errorf("Parameterize = %+v, %v; want package x 1.0.0", pr, err)
	}
	if schema, err := p.GetSchema(ctx, provider.GetSchemaRequest{}); err != nil || !strings.Contains(string(schema), `"x:index:Item"`) ||
		!strings.Contains(string(schema), `"parameter":"eA=="`) {
		t.Errorf("GetSchema after Parameterize = %s, %v; want the new type and the parameter", schema, err)
	}
	if _, err := p.Call(ctx, provider.CallRequest{Token: "kv:index:Pair/m"}); !errors.Is(err, provider.ErrNotImplemented) {
		t.Errorf("Call = %v, want ErrNotImplemented", err)
	}
	if err := p.SignalCancellation(ctx); err != nil {
		t.Errorf("SignalCancellation: %v", err)
	}
	diff, err := p.Diff(ctx, provider.DiffRequest{URN: "urn:pulumi:dev::proj::kv:index:Item::x", ID: "x",
		OldInputs: resource.Map{"key": str("a")}, OldOutputs: resource.Map{}, News: resource.Map{"key": str("b")}})
	if err != nil || diff.Changes != provider.DiffSome || !reflect.DeepEqual(diff.ReplaceKeys, []string{"key"}) ||
		diff.DetailedDiff["key"].Kind != resource.DiffUpdateReplace {
		t.Errorf("Diff = %+v, %v", diff, err)
	}
}

func TestUnknownConfigurationIsNotSent(t *testing.T) {
	e := newEnv(t, host.ResolverOptions{})
	ctx := context.Background()
	p, err := e.resolver.Load(ctx, "kv", "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: resource.Map{"dir": resource.Unknown()}}); err != nil {
		t.Fatal(err)
	}
	inputs := resource.Map{"value": str("v")}
	created, err := p.Create(ctx, provider.CreateRequest{URN: "urn:pulumi:dev::proj::kv:index:Item::x", Inputs: inputs, Preview: true})
	if err != nil || !created.Outputs.Equal(inputs) {
		t.Errorf("preview Create with unknown configuration = %+v, %v; want the inputs", created, err)
	}
	diff, err := p.Diff(ctx, provider.DiffRequest{News: inputs})
	if err != nil || diff.Changes != provider.DiffUnknown {
		t.Errorf("Diff with unknown configuration = %+v, %v", diff, err)
	}
	read, err := p.Read(ctx, provider.ReadRequest{ID: "x", Inputs: inputs, Outputs: inputs})
	if err != nil || read.ID != "x" {
		t.Errorf("Read with unknown configuration = %+v, %v; want the resource as recorded", read, err)
	}
}

func TestPluginAskedOnlyForItsSchemaIsReused(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, host.ResolverOptions{})
	load := func() *host.Plugin {
		t.Helper()
		p, err := e.resolver.Load(ctx, "kv", "1.0.0")
		if err != nil {
			t.Fatal(err)
		}
		return p.(*host.Plugin)
	}
	first := load()
	if _, err := first.GetSchema(ctx, provider.GetSchemaRequest{}); err != nil {
		t.Fatal(err)
	}
	_ = first.Close()
	second := load()
	if second.Process().Pid() != first.Process().Pid() {
		t.Errorf("a plugin only asked for its schema was not reused: pid %d, then %d", first.Process().Pid(), second.Process().Pid())
	}
	// Once used, a plugin is not handed out again.
	if _, err := second.CheckConfig(ctx, provider.CheckRequest{URN: "urn:pulumi:dev::proj::pulumi:providers:kv::p", News: resource.Map{}}); err != nil {
		t.Fatal(err)
	}
	_ = second.Close()
	select {
	case <-second.Process().Done():
	case <-time.After(10 * time.Second):
		t.Fatal("a used plugin was not shut down on Close")
	}
	third := load()
	if third.Process().Pid() == second.Process().Pid() {
		t.Error("a used plugin was handed out again")
	}
	// An idle plugin stops with the resolver.
	if _, err := third.GetSchema(ctx, provider.GetSchemaRequest{}); err != nil {
		t.Fatal(err)
	}
	_ = third.Close()
	_ = e.resolver.Close()
	select {
	case <-third.Process().Done():
	case <-time.After(10 * time.Second):
		t.Fatal("an idle plugin outlived its resolver")
	}
}

// A plugin that never prints its port costs its start timeout once: the
// next Load of the same package fails at once, without starting it again.
func TestResolverStartsAHungPluginOnce(t *testing.T) {
	dir := t.TempDir()
	launches := filepath.Join(dir, "launches")
	bin := "#!/bin/sh\necho launched >> " + launches + "\nexec sleep 300\n"
	path := filepath.Join(dir, "pulumi-resource-hung")
	if err := os.WriteFile(path, []byte(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, host.ResolverOptions{Options: host.Options{StartTimeout: 300 * time.Millisecond},
		Project: []workspace.PluginRef{{Name: "hung", Path: path}}})
	var errs []error
	for range 2 {
		_, err := e.resolver.Load(context.Background(), "hung", "")
		if err == nil || !strings.Contains(err.Error(), "did not print its port within 300ms") {
			t.Fatalf("Load = %v, want the start timeout", err)
		}
		errs = append(errs, err)
	}
	if errs[0].Error() != errs[1].Error() {
		t.Errorf("the second Load failed otherwise:\n%v\nthen\n%v", errs[0], errs[1])
	}
	raw, err := os.ReadFile(launches)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(raw), "launched"); n != 1 {
		t.Errorf("the plugin was started %d times, want once", n)
	}
}

// With automatic installation on, a version asked for that is not installed
// is installed, as Pulumi does, even when a newer compatible one is; one
// that is installed is used as it is.
func TestExactVersionInstalled(t *testing.T) {
	srv, downloads := emptyServer(t)
	e := newEnv(t, host.ResolverOptions{})
	plugintest.Link(t, filepath.Join(e.plugins, "resource-kv-v1.5.0"), "pulumi-resource-kv")
	in := &install.Installer{Dir: filepath.Join(t.TempDir(), "cache")}
	r := host.NewResolver(host.ResolverOptions{Dirs: locate.Dirs{Plugins: []string{e.plugins}}, Install: in})
	defer r.Close()
	ctx := context.Background()
	p, err := r.LoadFrom(ctx, "kv", "1.0.0", srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	_ = p.Close()
	_, err = r.LoadFrom(ctx, "kv", "1.2.0", srv.URL)
	if err == nil || !strings.Contains(err.Error(), "pulumi-resource-kv-v1.2.0-") {
		t.Errorf("LoadFrom 1.2.0 = %v, want an install of 1.2.0 tried", err)
	}
	if asked := downloads(); len(asked) != 1 || !strings.HasPrefix(asked[0], "pulumi-resource-kv-v1.2.0-") {
		t.Errorf("downloads asked for: %q, want only 1.2.0's", asked)
	}
	without := host.NewResolver(host.ResolverOptions{Dirs: locate.Dirs{Plugins: []string{e.plugins}}})
	defer without.Close()
	if p, err := without.LoadFrom(ctx, "kv", "1.2.0", srv.URL); err != nil {
		t.Errorf("without automatic installation, 1.5.0 should serve 1.2.0: %v", err)
	} else {
		_ = p.Close()
	}
}

// Ensure, what a language host's required plugins call, finds a plugin
// without starting it, installs a missing one from the URL given, and says
// a plugin is not found when automatic installation is off.
func TestEnsure(t *testing.T) {
	srv, downloads := emptyServer(t)
	e := newEnv(t, host.ResolverOptions{})
	dirs := locate.Dirs{Plugins: []string{e.plugins}}
	ctx := context.Background()
	with := host.NewResolver(host.ResolverOptions{Dirs: dirs, Install: &install.Installer{Dir: filepath.Join(t.TempDir(), "cache")}})
	defer with.Close()
	if err := with.Ensure(ctx, "kv", "1.0.0", srv.URL); err != nil || len(downloads()) != 0 {
		t.Errorf("Ensure of an installed plugin = %v, downloads %q", err, downloads())
	}
	var notFound *provider.NotFoundError
	err := with.Ensure(ctx, "aws", "6.0.0", srv.URL)
	if err == nil || errors.As(err, &notFound) || !strings.Contains(err.Error(), srv.URL+"/pulumi-resource-aws-v6.0.0-") {
		t.Errorf("Ensure of a missing plugin = %v, want its download from %s tried", err, srv.URL)
	}
	without := host.NewResolver(host.ResolverOptions{Dirs: dirs})
	defer without.Close()
	if err := without.Ensure(ctx, "aws", "6.0.0", srv.URL); !errors.As(err, &notFound) || len(downloads()) != 1 {
		t.Errorf("without automatic installation, Ensure = %v and downloads %q, want a NotFoundError and no download", err, downloads())
	}
}

// emptyServer serves no plugin: every download is a 404. downloads returns
// the names of the files asked for.
func emptyServer(t *testing.T) (srv *httptest.Server, downloads func() []string) {
	var mu sync.Mutex
	var asked []string
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, path.Base(r.URL.Path))
		mu.Unlock()
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(asked)
	}
}
