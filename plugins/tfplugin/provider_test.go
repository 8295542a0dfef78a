package tfplugin_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/tfstate"
	"github.com/cairn-iac/cairn/plugins/tfinstall"
	"github.com/cairn-iac/cairn/plugins/tfplugin"
)

var (
	builds   sync.Map // provider folder → *build
	mirrorOf = map[string]string{"fwprovider": "cairn/cairnfw", "sdkprovider": "cairn/cairnsdk"}
)

type build struct {
	once sync.Once
	dir  string
	err  error
}

// mirror builds the test provider of testdata/<name> into a filesystem
// mirror (once per test binary) and returns the mirror's folder.
func mirror(t *testing.T, name string) string {
	t.Helper()
	b, _ := builds.LoadOrStore(name, &build{})
	bd := b.(*build)
	bd.once.Do(func() {
		dir, err := os.MkdirTemp("", "tfmirror")
		if err != nil {
			bd.err = err
			return
		}
		src := mirrorOf[name]
		pkgDir := filepath.Join(dir, "registry.opentofu.org", src, "1.0.0", runtime.GOOS+"_"+runtime.GOARCH)
		exe := filepath.Join(pkgDir, "terraform-provider-"+filepath.Base(src))
		cmd := exec.Command("go", "build", "-o", exe, ".")
		cmd.Dir = filepath.Join("testdata", name)
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			bd.err = err
			t.Logf("%s", out)
			return
		}
		bd.dir = dir
	})
	if bd.err != nil {
		t.Fatalf("building the test provider %s: %v", name, bd.err)
	}
	return bd.dir
}

// installOptions install the test provider of testdata/name from its
// mirror, for a project in a new folder.
func installOptions(t *testing.T, name string) tfinstall.Options {
	t.Helper()
	return mirrorOptions(t, mirror(t, name))
}

// mirrorOptions install providers from the filesystem mirror dir, for a
// project in a new folder.
func mirrorOptions(t *testing.T, dir string) tfinstall.Options {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "cli.tfrc")
	text := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", dir)
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return tfinstall.Options{ProjectDir: t.TempDir(), CLIConfigFile: cfg, CacheDir: t.TempDir()}
}

// load returns a terraform-provider parameterized with the test provider
// of testdata/name, configured to keep its objects in dir.
func load(t *testing.T, name, dir string) provider.Provider {
	t.Helper()
	ctx := context.Background()
	f := tfplugin.Factory(tfplugin.Options{Install: installOptions(t, name)})
	p, err := f.New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	resp, err := p.Parameterize(ctx, provider.ParameterizeRequest{Args: []string{mirrorOf[name], "~> 1.0"}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Name != filepath.Base(mirrorOf[name]) || resp.Version != "1.0.0" {
		t.Fatalf("Parameterize = %+v", resp)
	}
	cfg := resource.Map{"dir": resource.String(dir)}
	if c, err := p.CheckConfig(ctx, provider.CheckRequest{News: cfg}); err != nil || len(c.Failures) > 0 {
		t.Fatalf("CheckConfig: %v %v", err, c.Failures)
	}
	if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: cfg}); err != nil {
		t.Fatal(err)
	}
	return p
}

// parameterized returns a terraform-provider made with opts and
// parameterized with the provider source, not started.
func parameterized(t *testing.T, opts tfplugin.Options, source string) provider.Provider {
	t.Helper()
	ctx := context.Background()
	p, err := tfplugin.Factory(opts).New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	if _, err := p.Parameterize(ctx, provider.ParameterizeRequest{Args: []string{source}}); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFrameworkLifecycle(t *testing.T) {
	lifecycle(t, "fwprovider", "cairnfw:index/file:File")
}

func lifecycle(t *testing.T, name, token string) {
	ctx := context.Background()
	dir := t.TempDir()
	p := load(t, name, dir)
	inputs := resource.Map{"name": resource.String("a"), "content": resource.String("hello"),
		"secret": resource.MakeSecret(resource.String("hunter2")),
		"tag":    resource.Array(resource.Object(resource.Map{"key": resource.String("k"), "value": resource.String("v")}))}
	check, err := p.Check(ctx, provider.CheckRequest{Type: token, News: inputs})
	if err != nil || len(check.Failures) > 0 {
		t.Fatalf("Check: %v %v", err, check.Failures)
	}
	preview, err := p.Create(ctx, provider.CreateRequest{Type: token, Inputs: inputs, Preview: true})
	if err != nil {
		t.Fatal(err)
	}
	if !preview.Outputs["size"].IsUnknown() {
		t.Errorf("preview size = %v, want unknown", preview.Outputs["size"])
	}
	created, err := p.Create(ctx, provider.CreateRequest{Type: token, Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	if created.ID != "a" || created.Outputs["size"].NumberValue() != 5 || !created.Outputs["secret"].IsSecret() {
		t.Fatalf("Create = %v %v", created.ID, created.Outputs)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "a.json")); err != nil || !strings.Contains(string(data), "hello") {
		t.Fatalf("the file: %s %v", data, err)
	}
	same, err := p.Diff(ctx, provider.DiffRequest{Type: token, ID: created.ID, OldInputs: inputs, OldOutputs: created.Outputs, News: inputs})
	if err != nil || same.Changes != provider.DiffNone {
		t.Fatalf("Diff unchanged = %+v, %v", same, err)
	}
	changed := inputs.Copy()
	changed["content"] = resource.String("bye")
	upd, err := p.Diff(ctx, provider.DiffRequest{Type: token, ID: created.ID, OldInputs: inputs, OldOutputs: created.Outputs, News: changed})
	if err != nil || upd.Changes != provider.DiffSome || len(upd.ReplaceKeys) > 0 {
		t.Fatalf("Diff content = %+v, %v", upd, err)
	}
	updated, err := p.Update(ctx, provider.UpdateRequest{Type: token, ID: created.ID, OldInputs: inputs, OldOutputs: created.Outputs, News: changed})
	if err != nil || updated.Outputs["size"].NumberValue() != 3 {
		t.Fatalf("Update = %v, %v", updated.Outputs, err)
	}
	renamed := changed.Copy()
	renamed["name"] = resource.String("b")
	repl, err := p.Diff(ctx, provider.DiffRequest{Type: token, ID: created.ID, OldInputs: changed, OldOutputs: updated.Outputs, News: renamed})
	if err != nil || repl.Changes != provider.DiffSome || len(repl.ReplaceKeys) != 1 || repl.ReplaceKeys[0] != "name" {
		t.Fatalf("Diff name = %+v, %v", repl, err)
	}
	os.WriteFile(filepath.Join(dir, "a.json"), []byte(`{"content":"drifted"}`), 0o644)
	read, err := p.Read(ctx, provider.ReadRequest{Type: token, ID: created.ID, Inputs: changed, Outputs: updated.Outputs})
	if err != nil || read.Outputs["content"].StringValue() != "drifted" {
		t.Fatalf("Read = %+v, %v", read, err)
	}
	imported, err := p.Read(ctx, provider.ReadRequest{Type: token, ID: "a"})
	if err != nil || imported.ID != "a" || imported.Inputs["content"].StringValue() != "drifted" || !imported.Inputs["size"].IsNull() {
		t.Fatalf("import = %+v, %v", imported, err)
	}
	got, err := p.Invoke(ctx, provider.InvokeRequest{Token: "cairnfw:index/getFile:getFile", Args: resource.Map{"name": resource.String("a")}})
	if err != nil || got.Return["content"].StringValue() != "drifted" {
		t.Fatalf("data source = %+v, %v", got, err)
	}
	if err := p.Delete(ctx, provider.DeleteRequest{Type: token, ID: created.ID, Outputs: read.Outputs}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.json")); !os.IsNotExist(err) {
		t.Fatalf("the file is still there: %v", err)
	}
	gone, err := p.Read(ctx, provider.ReadRequest{Type: token, ID: created.ID, Inputs: changed, Outputs: read.Outputs})
	if err != nil || gone.ID != "" {
		t.Fatalf("Read of a deleted resource = %+v, %v", gone, err)
	}
}

func TestFrameworkFunction(t *testing.T) {
	p := load(t, "fwprovider", t.TempDir())
	got, err := p.Invoke(context.Background(), provider.InvokeRequest{Token: "cairnfw:functions:shout",
		Args: resource.Map{"arguments": resource.Array(resource.String("hi"))}})
	if err != nil || got.Return["result"].StringValue() != "HI!" {
		t.Fatalf("shout = %+v, %v", got, err)
	}
}

// TestSDKLifecycle runs a terraform-plugin-sdk/v2 provider, which speaks
// protocol 5, through the same lifecycle.
func TestSDKLifecycle(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := load(t, "sdkprovider", dir)
	const token = "cairnsdk:index/item:Item"
	inputs := resource.Map{"name": resource.String("x"), "value": resource.String("one"), "token": resource.String("hunter2")}
	created, err := p.Create(ctx, provider.CreateRequest{Type: token, Inputs: inputs})
	if err != nil || created.ID != "x" || !created.Outputs["token"].IsSecret() {
		t.Fatalf("Create = %+v, %v", created, err)
	}
	same, err := p.Diff(ctx, provider.DiffRequest{Type: token, ID: created.ID, OldInputs: inputs, OldOutputs: created.Outputs, News: inputs})
	if err != nil || same.Changes != provider.DiffNone {
		t.Fatalf("Diff unchanged = %+v, %v", same, err)
	}
	changed := inputs.Copy()
	changed["value"] = resource.String("two")
	updated, err := p.Update(ctx, provider.UpdateRequest{Type: token, ID: created.ID, OldInputs: inputs, OldOutputs: created.Outputs, News: changed})
	if err != nil || updated.Outputs["value"].StringValue() != "two" {
		t.Fatalf("Update = %+v, %v", updated, err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "x")); string(data) != "two" {
		t.Fatalf("the file holds %q", data)
	}
	renamed := changed.Copy()
	renamed["name"] = resource.String("y")
	repl, err := p.Diff(ctx, provider.DiffRequest{Type: token, ID: created.ID, OldInputs: changed, OldOutputs: updated.Outputs, News: renamed})
	if err != nil || len(repl.ReplaceKeys) != 1 || repl.ReplaceKeys[0] != "name" {
		t.Fatalf("Diff name = %+v, %v", repl, err)
	}
	imported, err := p.Read(ctx, provider.ReadRequest{Type: token, ID: "x"})
	if err != nil || imported.ID != "x" || imported.Inputs["value"].StringValue() != "two" {
		t.Fatalf("import = %+v, %v", imported, err)
	}
	got, err := p.Invoke(ctx, provider.InvokeRequest{Token: "cairnsdk:index/getItem:getItem", Args: resource.Map{"name": resource.String("x")}})
	if err != nil || got.Return["value"].StringValue() != "two" {
		t.Fatalf("data source = %+v, %v", got, err)
	}
	if err := p.Delete(ctx, provider.DeleteRequest{Type: token, ID: created.ID, Outputs: updated.Outputs}); err != nil {
		t.Fatal(err)
	}
	gone, err := p.Read(ctx, provider.ReadRequest{Type: token, ID: created.ID, Inputs: changed, Outputs: updated.Outputs})
	if err != nil || gone.ID != "" {
		t.Fatalf("Read of a deleted resource = %+v, %v", gone, err)
	}
}

// TestUpgradeResourceState gives the provider a state recorded with an
// older schema version, which it upgrades (content was called text in
// version 0); states it writes record the current version.
func TestUpgradeResourceState(t *testing.T) {
	ctx := context.Background()
	p := load(t, "fwprovider", t.TempDir())
	const token = "cairnfw:index/file:File"
	old := resource.Map{"id": resource.String("a"), "name": resource.String("a"), "text": resource.String("old"),
		"__meta": resource.String(`{"schema_version":"0"}`)}
	inputs := resource.Map{"name": resource.String("a"), "content": resource.String("old")}
	diff, err := p.Diff(ctx, provider.DiffRequest{Type: token, ID: "a", OldInputs: inputs, OldOutputs: old, News: inputs})
	if err != nil || diff.Changes != provider.DiffNone {
		t.Fatalf("Diff of an upgraded state = %+v, %v", diff, err)
	}
	upd, err := p.Update(ctx, provider.UpdateRequest{Type: token, ID: "a", OldInputs: inputs, OldOutputs: old, News: inputs})
	if err != nil {
		t.Fatal(err)
	}
	meta, err := tfstate.MetaOf(upd.Outputs)
	if err != nil || upd.Outputs["content"].StringValue() != "old" || meta.SchemaVersion != "1" || !strings.HasPrefix(meta.Provider, "h1:") {
		t.Errorf("outputs = %v", upd.Outputs)
	}
}

// TestSamePackageOnlyPlans checks that a no-change plan of a resource
// whose state the same provider package wrote from the same inputs asks
// the provider only to plan: no validation of the inputs it validated, no
// upgrade of its own state at its current version. A state without the
// package's hash, as older versions of Cairn wrote, is upgraded and its
// inputs validated, as are those of a resource created again.
func TestSamePackageOnlyPlans(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	const token = "cairnfw:index/file:File"
	urn := resource.URN("urn:pulumi:dev::p::" + token + "::a")
	inputs := resource.Map{"name": resource.String("a"), "content": resource.String("x")}
	created, err := load(t, "fwprovider", dir).Create(ctx, provider.CreateRequest{URN: urn, Type: token, Inputs: inputs})
	if err != nil {
		t.Fatal(err)
	}
	plan := func(outputs resource.Map) map[string]int {
		p := load(t, "fwprovider", dir) // another command: nothing kept from before
		calls := tfplugin.CountCalls(p)
		check, err := p.Check(ctx, provider.CheckRequest{URN: urn, Type: token, Olds: inputs, News: inputs})
		if err != nil || len(check.Failures) > 0 {
			t.Fatalf("Check = %+v, %v", check, err)
		}
		diff, err := p.Diff(ctx, provider.DiffRequest{URN: urn, Type: token, ID: created.ID, OldInputs: inputs, OldOutputs: outputs, News: inputs})
		if err != nil || diff.Changes != provider.DiffNone {
			t.Fatalf("Diff = %+v, %v", diff, err)
		}
		return calls.Counts()
	}
	if got, want := plan(created.Outputs), map[string]int{"PlanResourceChange": 1}; !maps.Equal(got, want) {
		t.Errorf("calls of a no-change plan of the package's own state = %v, want %v", got, want)
	}
	older := created.Outputs.Copy()
	older[tfstate.MetaKey] = tfstate.Meta{SchemaVersion: "1"}.Value()
	if got, want := plan(older), map[string]int{"ValidateResourceConfig": 1, "UpgradeResourceState": 1, "PlanResourceChange": 1}; !maps.Equal(got, want) {
		t.Errorf("calls of a no-change plan of a state without the package's hash = %v, want %v", got, want)
	}
}

// TestParameterizeInstalls installs the provider named by arguments at the
// newest version its constraints allow, locks it in the project's
// .terraform.lock.hcl, records the fully qualified source in the
// parameterization, and serves the recorded version again from it.
func TestParameterizeInstalls(t *testing.T) {
	ctx := context.Background()
	opts := installOptions(t, "fwprovider")
	f := tfplugin.Factory(tfplugin.Options{Install: opts})
	p, err := f.New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Parameterize(ctx, provider.ParameterizeRequest{Args: []string{"Cairn/CairnFW", "~> 1.0"}}); err != nil {
		t.Fatal(err)
	}
	locks, err := tfinstall.ReadLocks(opts.ProjectDir)
	if err != nil {
		t.Fatal(err)
	}
	lock := locks["registry.opentofu.org/cairn/cairnfw"]
	if lock.Version != "1.0.0" || lock.Constraints != "~> 1.0" || len(lock.Hashes) != 1 || !strings.HasPrefix(lock.Hashes[0], "h1:") {
		t.Fatalf("the lock file holds %+v", locks)
	}
	data, err := p.GetSchema(ctx, provider.GetSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Parameterization struct{ Parameter []byte } `json:"parameterization"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if got := string(s.Parameterization.Parameter); got != `{"source":"registry.opentofu.org/cairn/cairnfw","version":"1.0.0"}` {
		t.Errorf("the parameterization is %s", got)
	}

	// Another process (a new factory), parameterized with the recorded
	// value as the engine does from a state, serves that version and
	// leaves the lock file as it was.
	before, _ := os.ReadFile(filepath.Join(opts.ProjectDir, tfinstall.LockFileName))
	again, err := tfplugin.Factory(tfplugin.Options{Install: opts}).New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	resp, err := again.Parameterize(ctx, provider.ParameterizeRequest{Value: s.Parameterization.Parameter})
	if err != nil || resp.Name != "cairnfw" || resp.Version != "1.0.0" {
		t.Fatalf("Parameterize(value) = %+v, %v", resp, err)
	}
	if after, _ := os.ReadFile(filepath.Join(opts.ProjectDir, tfinstall.LockFileName)); string(after) != string(before) {
		t.Errorf("the lock file changed:\n%s", after)
	}

	// The value Pulumi's terraform-provider records, which the SDKs
	// generated for it carry, names the same provider.
	pulumi, err := tfplugin.Factory(tfplugin.Options{Install: opts}).New(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer pulumi.Close()
	resp, err = pulumi.Parameterize(ctx, provider.ParameterizeRequest{Value: []byte(`{"remote":{"url":"registry.opentofu.org/cairn/cairnfw","version":"1.0.0"}}`)})
	if err != nil || resp.Name != "cairnfw" || resp.Version != "1.0.0" {
		t.Fatalf("Parameterize(Pulumi's value) = %+v, %v", resp, err)
	}
}

// lockedBuffer is a log destination for goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) count(s string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Count(b.buf.String(), s)
}

// TestStartsWhenNeeded keeps the provider's schema by package, so that a
// provider whose configuration is as recorded is checked and configured
// without starting it; the first resource call starts and configures it.
func TestStartsWhenNeeded(t *testing.T) {
	ctx := context.Background()
	opts := tfplugin.Options{Install: installOptions(t, "fwprovider"), SchemaDir: t.TempDir()}
	var log lockedBuffer
	opts.Log = slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	first := parameterized(t, opts, "cairn/cairnfw")
	if _, err := first.GetSchema(ctx, provider.GetSchemaRequest{}); err != nil {
		t.Fatal(err)
	}
	if n := log.count("starting plugin"); n != 1 {
		t.Fatalf("reading the schema the first time started the provider %d times", n)
	}

	p := parameterized(t, opts, "cairn/cairnfw") // as in the next command
	dir := t.TempDir()
	cfg := resource.Map{"dir": resource.String(dir)}
	if _, err := p.GetSchema(ctx, provider.GetSchemaRequest{}); err != nil {
		t.Fatal(err)
	}
	if c, err := p.CheckConfig(ctx, provider.CheckRequest{Olds: cfg, News: cfg}); err != nil || len(c.Failures) > 0 {
		t.Fatalf("CheckConfig: %v %v", err, c.Failures)
	}
	if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: cfg}); err != nil {
		t.Fatal(err)
	}
	if n := log.count("starting plugin"); n != 1 {
		t.Fatalf("a provider as recorded was started: %d starts", n)
	}
	inputs := resource.Map{"name": resource.String("a"), "content": resource.String("hi")}
	if _, err := p.Create(ctx, provider.CreateRequest{Type: "cairnfw:index/file:File", Inputs: inputs}); err != nil {
		t.Fatal(err)
	}
	if n := log.count("starting plugin"); n != 2 {
		t.Errorf("the create started the provider %d times", n-1)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.json")); err != nil {
		t.Errorf("the provider was not configured with its folder: %v", err)
	}
}

// TestStartCancelledThenRetried gives up on the first call, which would
// start the provider, and makes another: the first gets its context's
// error, which is not kept, and the second starts the provider.
func TestStartCancelledThenRetried(t *testing.T) {
	p := parameterized(t, tfplugin.Options{Install: installOptions(t, "fwprovider")}, "cairn/cairnfw")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.GetSchema(ctx, provider.GetSchemaRequest{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("GetSchema with a cancelled context: %v, want its error", err)
	}
	if _, err := p.GetSchema(context.Background(), provider.GetSchemaRequest{}); err != nil {
		t.Fatalf("GetSchema after a cancelled one: %v", err)
	}
}

// TestStartCancelledMidway gives up on a start while the provider has not
// yet answered the handshake: the caller gets its context's error, and
// the next call starts the provider again. The first start runs a script
// that waits for ever, the next the provider itself.
func TestStartCancelledMidway(t *testing.T) {
	pkg := filepath.Join("registry.opentofu.org", "cairn", "cairnfw", "1.0.0", runtime.GOOS+"_"+runtime.GOARCH)
	exe := filepath.Join(mirror(t, "fwprovider"), pkg, "terraform-provider-cairnfw")
	dir := t.TempDir()
	started := filepath.Join(t.TempDir(), "started")
	script := fmt.Sprintf("#!/bin/sh\nif [ -e %[1]q ]; then exec %[2]q; fi\ntouch %[1]q\nexec sleep 3600\n", started, exe)
	if err := os.MkdirAll(filepath.Join(dir, pkg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, pkg, "terraform-provider-cairnfw"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	p := parameterized(t, tfplugin.Options{Install: mirrorOptions(t, dir)}, "cairn/cairnfw")
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, err := p.GetSchema(ctx, provider.GetSchemaRequest{})
		first <- err
	}()
	for { // until the script runs
		if _, err := os.Stat(started); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-first; !errors.Is(err, context.Canceled) {
		t.Fatalf("a start given up on: %v, want the context's error", err)
	}
	if _, err := p.GetSchema(context.Background(), provider.GetSchemaRequest{}); err != nil {
		t.Fatalf("GetSchema after a start given up on: %v", err)
	}
}

// TestConcurrentFirstCalls makes many calls at once to a provider not yet
// started: they share one start, and each gets the schema.
func TestConcurrentFirstCalls(t *testing.T) {
	ctx := context.Background()
	var log lockedBuffer
	opts := tfplugin.Options{Install: installOptions(t, "sdkprovider"), Log: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	p := parameterized(t, opts, "cairn/cairnsdk")
	const callers = 16
	errs := make(chan error, callers)
	for range callers {
		go func() {
			_, err := p.GetSchema(ctx, provider.GetSchemaRequest{})
			errs <- err
		}()
	}
	for range callers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if n := log.count("starting plugin"); n != 1 {
		t.Errorf("%d calls at once started the provider %d times", callers, n)
	}
}

// TestSDKWriteOnlyAttribute sends a terraform-plugin-sdk/v2 provider
// (protocol 5) a write-only argument, which it gets, and which is neither
// in the checked inputs, which the engine records, nor in the outputs;
// so again with the schema kept by an earlier command.
func TestSDKWriteOnlyAttribute(t *testing.T) {
	ctx := context.Background()
	opts := tfplugin.Options{Install: installOptions(t, "sdkprovider"), SchemaDir: t.TempDir()}
	for _, name := range []string{"x", "y"} { // y in a new command, with the kept schema
		p := parameterized(t, opts, "cairn/cairnsdk")
		dir := t.TempDir()
		if _, err := p.Configure(ctx, provider.ConfigureRequest{Inputs: resource.Map{"dir": resource.String(dir)}}); err != nil {
			t.Fatal(err)
		}
		const token = "cairnsdk:index/item:Item"
		urn := resource.URN("urn:pulumi:dev::proj::" + token + "::" + name)
		inputs := resource.Map{"name": resource.String(name), "value": resource.String("v"), "password_wo": resource.MakeSecret(resource.String("hunter2"))}
		check, err := p.Check(ctx, provider.CheckRequest{URN: urn, Type: token, News: inputs})
		if err != nil || len(check.Failures) > 0 {
			t.Fatalf("Check: %v %v", err, check.Failures)
		}
		if _, ok := check.Inputs["password_wo"]; ok || check.Inputs["name"].StringValue() != name {
			t.Fatalf("checked inputs = %v, want name without password_wo", check.Inputs)
		}
		created, err := p.Create(ctx, provider.CreateRequest{URN: urn, Type: token, Inputs: check.Inputs})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := created.Outputs["password_wo"]; ok || strings.Contains(fmt.Sprint(created.Outputs), "hunter2") {
			t.Errorf("outputs = %v, with the write-only value", created.Outputs)
		}
		if data, err := os.ReadFile(filepath.Join(dir, name+".wo")); err != nil || string(data) != "hunter2" {
			t.Fatalf("the provider did not get the write-only value: %q %v", data, err)
		}
	}
}
