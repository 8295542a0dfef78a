package langhost_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/internal/locate"
	"github.com/cairn-iac/cairn/internal/plugintest"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/langhost"
	"github.com/cairn-iac/cairn/plugins/monitor"
)

func TestMain(m *testing.M) {
	plugintest.Main(m, plugintest.ProviderRole("kv", false), plugintest.LanguageHostRole("gotest"),
		plugintest.CrashingHostRole("crashing"), plugintest.ProbeHostRole)
}

const (
	project = "proj"
	stack   = "dev"
)

// env is a project whose program runs under the gotest language host (the
// test binary), with the kv provider plugin (the test binary too).
type env struct {
	t        *testing.T
	dir      string
	cloud    string
	dirs     locate.Dirs
	resolver *host.Resolver
	snap     *snapshot.Snapshot

	mu    sync.Mutex
	diags []deploy.DiagEvent
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, dir: t.TempDir()}
	e.cloud = filepath.Join(e.dir, "cloud")
	if err := os.MkdirAll(e.cloud, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(plugintest.DirEnv, e.cloud)
	plugins := filepath.Join(e.dir, "plugins")
	plugintest.Link(t, filepath.Join(plugins, "resource-kv-v1.0.0"), "pulumi-resource-kv")
	plugintest.Link(t, plugins, "pulumi-language-gotest")
	plugintest.Link(t, plugins, "pulumi-language-crashing")
	plugintest.Link(t, plugins, "pulumi-language-probe")
	e.dirs = locate.Dirs{Plugins: []string{plugins}}
	e.resolver = host.NewResolver(host.ResolverOptions{Dirs: e.dirs, Diag: e.diag})
	t.Cleanup(func() { _ = e.resolver.Close() })
	return e
}

func (e *env) diag(d deploy.DiagEvent) {
	e.mu.Lock()
	e.diags = append(e.diags, d)
	e.mu.Unlock()
}

func (e *env) logged(s string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, d := range e.diags {
		if strings.Contains(d.Message, s) {
			return true
		}
	}
	return false
}

func (e *env) program(entry string) *langhost.Program {
	return &langhost.Program{Runtime: "gotest", RootDirectory: e.dir, ProgramDirectory: e.dir, EntryPoint: entry,
		Dirs: e.dirs, Diag: e.diag}
}

func (e *env) update(prog deploy.Program, config map[string]resource.Value, dryRun bool) (*deploy.Result, error) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := deploy.Update(ctx, deploy.Options{Project: project, Stack: stack, Host: e.resolver, Program: prog,
		Config: config, DryRun: dryRun, ServeMonitor: monitor.ServeFunc(monitor.Options{})}, e.snap)
	if err == nil && !dryRun {
		e.snap = res.Snapshot
		if ierr := e.snap.VerifyIntegrity(); ierr != nil {
			e.t.Fatalf("integrity: %v", ierr)
		}
	}
	return res, err
}

func TestMissingLanguageHost(t *testing.T) {
	e := newEnv(t)
	prog := e.program("main")
	prog.Runtime = "cobol"
	_, err := e.update(prog, nil, true)
	if err == nil || !strings.Contains(err.Error(), `no language host for runtime "cobol": install pulumi-language-cobol`) {
		t.Errorf("got %v, want a missing language host", err)
	}
}

func TestProgramFailureIsReported(t *testing.T) {
	e := newEnv(t)
	_, err := e.update(e.program("does-not-exist"), nil, true)
	if err == nil || !strings.Contains(err.Error(), "the gotest program failed") || !strings.Contains(err.Error(), "does-not-exist") {
		t.Errorf("got %v, want the program's failure", err)
	}
}

// goProgram is the Go SDK program in testdata/<name>, its own module, run
// by Cairn's Go language host with the runtime options opts.
func (e *env) goProgram(name string, opts map[string]any) *langhost.Program {
	src, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		e.t.Fatal(err)
	}
	return &langhost.Program{Runtime: "go", Options: opts, RootDirectory: src, ProgramDirectory: src, Dirs: e.dirs, Diag: e.diag}
}

func TestHostCrashShowsItsStderr(t *testing.T) {
	e := newEnv(t)
	prog := e.program("main")
	prog.Runtime = "crashing"
	_, err := e.update(prog, nil, true)
	for _, want := range []string{"the crashing language host exited during Run", "reading the program",
		"panic: the program's loader has gone missing"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want it to say %q", err, want)
		}
	}
}
