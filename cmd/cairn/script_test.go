package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/cairn-iac/cairn/engine/backend/bucket"
	"github.com/cairn-iac/cairn/engine/backend/postgres"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/internal/locate"
	"github.com/cairn-iac/cairn/internal/pgtest"
	"github.com/cairn-iac/cairn/internal/plugintest"
	"github.com/cairn-iac/cairn/plugins/install"
	"github.com/cairn-iac/cairn/plugins/serve"
)

var update = flag.Bool("update", false, "rewrite the golden files of the CLI scenarios")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"cairn":                    main,
		"pulumi-resource-random":   main,
		"kvplugin":                 kvPlugin,
		"filesplugin":              filesPlugin,
		"pulumi-resource-big":      bigPlugin,
		"pulumi-resource-hang":     hangPlugin,
		"pulumi-resource-bare":     plugintest.BareRole.Main,
		"pulumi-language-crashing": plugintest.CrashingHostRole("crashing").Main,
		"pulumi-language-probe":    plugintest.ProbeHostRole.Main,
	})
}

// TestScripts runs the CLI scenarios of testdata/script, one behaviour per
// file. Each runs in a fresh directory with its own CAIRN_HOME.
func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams(nil))
}

// scriptParams are the parameters of the CLI scenarios: on the local
// backend, or with pg, each on a database of its own on that server.
func scriptParams(pg *pgtest.Server) testscript.Params {
	return testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"replace":      replaceCmd,
			"cpexample":    cpExampleCmd,
			"grepall":      grepAllCmd,
			"waitfile":     waitFileCmd,
			"repeat":       repeatCmd,
			"cirecipe":     ciRecipeCmd,
			"tarplugin":    tarPluginCmd,
			"serveplugins": servePluginsCmd,
			"servegithub":  serveGitHubCmd,
			"dumpstate":    dumpStateCmd,
			"newdb":        func(ts *testscript.TestScript, neg bool, args []string) { newDBCmd(ts, neg, args, pg) },
			"pgserver":     pgServerCmd,
			"pgrestart":    pgRestartCmd,
			"pgsql":        pgSQLCmd,
			"tfprovider":   tfProviderCmd,
			"nodemodules":  nodeModulesCmd,
			"tfregistry":   tfRegistryCmd,
			"tfmodules":    tfModulesCmd,
			"gitrepo":      gitRepoCmd,
		},
		Setup: func(e *testscript.Env) error {
			e.Setenv("CAIRN_HOME", filepath.Join(e.WorkDir, ".cairn-home"))
			e.Setenv("CAIRN_CONFIG_PASSPHRASE", "correct horse")
			e.Setenv("NO_COLOR", "1")
			e.Values["pgserver"] = new(*pgtest.Server)
			if err := goEnv(e); err != nil {
				return err
			}
			if pg == nil {
				return nil
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			url, err := pg.CreateDatabase(ctx, filepath.Base(e.WorkDir))
			e.Setenv("CAIRN_BACKEND_URL", url)
			return err
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "postgres":
				return pg != nil, nil
			case "nodejs":
				return nodejsCondition()
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	}
}

// replaceCmd rewrites a file of the scenario, replacing every match of a
// regular expression: "replace FILE REGEXP REPLACEMENT". Scenarios use it to
// blank out what changes from run to run (durations, random names) before
// comparing with a golden file.
func replaceCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace FILE REGEXP REPLACEMENT")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	path := ts.MkAbs(args[0])
	data, err := os.ReadFile(path)
	ts.Check(err)
	ts.Check(os.WriteFile(path, re.ReplaceAll(data, []byte(args[2])), 0o644))
}

// waitFileCmd waits until a file exists and its contents match a regular
// expression (default: anything): "waitfile FILE [REGEXP]". Scenarios use it
// to wait for a background command to be ready; it gives up after a minute.
func waitFileCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: waitfile FILE [REGEXP]")
	}
	re := regexp.MustCompile("")
	if len(args) == 2 {
		var err error
		re, err = regexp.Compile(args[1])
		ts.Check(err)
	}
	path := ts.MkAbs(args[0])
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if data, err := os.ReadFile(path); err == nil && re.Match(data) {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%s did not appear (or match %q) within a minute", args[0], re)
		}
	}
}

// repeatCmd appends a template N times to a file, with {i} replaced by 0,
// 1, …: "repeat N TEMPLATE FILE". Scenarios use it to write large programs.
func repeatCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: repeat N TEMPLATE FILE")
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	tmpl := ts.ReadFile(args[1])
	f, err := os.OpenFile(ts.MkAbs(args[2]), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	ts.Check(err)
	w := bufio.NewWriter(f)
	for i := range n {
		_, err = w.WriteString(strings.ReplaceAll(tmpl, "{i}", strconv.Itoa(i)))
		ts.Check(err)
	}
	ts.Check(w.Flush())
	ts.Check(f.Close())
}

// cpExampleCmd copies a folder of examples/ into the scenario: "cpexample
// NAME DIR". Scenarios run the examples as a newcomer would, with the files
// of the repository only: what a developer's own runs left there (stack
// configuration salted for another passphrase, outputs) is not copied.
func cpExampleCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cpexample NAME DIR")
	}
	src, err := filepath.Abs(filepath.Join("..", "..", "examples", args[0]))
	ts.Check(err)
	ts.Check(copyTracked(ts.MkAbs(args[1]), src))
}

// copyTracked copies the files of src that git tracks into dst.
func copyTracked(dst, src string) error {
	out, err := exec.Command("git", "-C", src, "ls-files", "-z", "--", ".").Output()
	if err != nil {
		return fmt.Errorf("listing the tracked files of %s: %w", src, err)
	}
	for _, name := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if name == "" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, name)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// TestCopyTrackedLeavesOutUntrackedFiles checks that scenarios see an
// example as the repository has it, not with a developer's stack files.
func TestCopyTrackedLeavesOutUntrackedFiles(t *testing.T) {
	src := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", src}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	for name, text := range map[string]string{"Pulumi.yaml": "name: site\n", "sub/main.hcl": "# tracked\n", "Pulumi.dev.yaml": "encryptionsalt: x\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("add", "Pulumi.yaml", "sub/main.hcl")
	dst := t.TempDir()
	if err := copyTracked(dst, src); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Pulumi.yaml", "sub/main.hcl"} {
		if _, err := os.Stat(filepath.Join(dst, name)); err != nil {
			t.Errorf("tracked %s not copied: %v", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dst, "Pulumi.dev.yaml")); !os.IsNotExist(err) {
		t.Errorf("untracked Pulumi.dev.yaml copied (stat: %v)", err)
	}
}

// grepAllCmd looks for fixed strings in every file under some paths:
// "grepall LIST PATH...", where each line of the file LIST is a string. It
// fails unless each string occurs in some file; negated, if any string
// occurs in any file. Scenarios use it to sweep the disk for secrets.
func grepAllCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: grepall LIST PATH...")
	}
	var wants []string
	for _, l := range strings.Split(ts.ReadFile(args[0]), "\n") {
		if l != "" {
			wants = append(wants, l)
		}
	}
	found := map[string][]string{}
	for _, root := range args[1:] {
		ts.Check(filepath.WalkDir(ts.MkAbs(root), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, w := range wants {
				if strings.Contains(string(data), w) {
					found[w] = append(found[w], path)
				}
			}
			return nil
		}))
	}
	for _, w := range wants {
		switch {
		case neg && len(found[w]) > 0:
			ts.Fatalf("%q found in %s", w, strings.Join(found[w], ", "))
		case !neg && len(found[w]) == 0:
			ts.Fatalf("%q found nowhere", w)
		}
	}
}

// tarPluginCmd writes a plugin release tarball of one binary into a folder,
// named as Pulumi's releases are for this OS and architecture:
// "tarplugin DIR KIND NAME VERSION BINARY".
func tarPluginCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 5 {
		ts.Fatalf("usage: tarplugin DIR KIND NAME VERSION BINARY")
	}
	spec := install.Spec{Kind: locate.Kind(args[1]), Name: args[2], Version: args[3]}
	bin, err := os.ReadFile(ts.MkAbs(args[4]))
	ts.Check(err)
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	ts.Check(tw.WriteHeader(&tar.Header{Name: spec.Kind.Binary(spec.Name), Mode: 0o755, Size: int64(len(bin)), Typeflag: tar.TypeReg}))
	_, err = tw.Write(bin)
	ts.Check(err)
	ts.Check(tw.Close())
	ts.Check(gz.Close())
	ts.Check(os.MkdirAll(ts.MkAbs(args[0]), 0o755))
	ts.Check(os.WriteFile(filepath.Join(ts.MkAbs(args[0]), spec.Asset()), buf.Bytes(), 0o644))
}

// servePluginsCmd serves the files of a folder over HTTP on loopback until
// the scenario ends, setting $PLUGIN_SERVER to its URL; under /cut/ each
// file is cut off halfway through, the connection dropped:
// "serveplugins DIR".
func servePluginsCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: serveplugins DIR")
	}
	dir := ts.MkAbs(args[0])
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, cut := strings.CutPrefix(r.URL.Path, "/cut/")
		if !cut {
			files.ServeHTTP(w, r)
			return
		}
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		_, _ = w.Write(data[:len(data)/2])
	}))
	ts.Defer(srv.Close)
	ts.Setenv("PLUGIN_SERVER", srv.URL)
}

// serveGitHubCmd serves the plugin tarballs of a folder as GitHub releases,
// over https on loopback, until the scenario ends: "servegithub DIR". The
// release vVERSION of any repository lists the tarballs whose names hold
// -vVERSION-. It sets $GITHUB_HOST to its host:port and SSL_CERT_FILE to
// its certificate, and appends a line per request to $WORK/github.log:
// "PATH auth=token" when it carried an Authorization header, else
// "PATH auth=none".
func serveGitHubCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: servegithub DIR")
	}
	dir := ts.MkAbs(args[0])
	logPath := ts.MkAbs("github.log")
	var mu sync.Mutex
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth := "none"
		if r.Header.Get("Authorization") != "" {
			auth = "token"
		}
		mu.Lock()
		f, err := os.OpenFile(logPath, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%s auth=%s\n", r.URL.Path, auth)
			f.Close()
		}
		mu.Unlock()
		repo, tag, release := strings.Cut(r.URL.Path, "/releases/tags/")
		if release {
			var assets []map[string]string
			names, _ := filepath.Glob(filepath.Join(dir, "*-"+tag+"-*"))
			for _, n := range names {
				assets = append(assets, map[string]string{"name": filepath.Base(n), "url": "https://" + r.Host + repo + "/releases/assets/" + filepath.Base(n)})
			}
			_ = json.NewEncoder(w).Encode(map[string]any{"assets": assets})
			return
		}
		if _, name, ok := strings.Cut(r.URL.Path, "/releases/assets/"); ok {
			http.ServeFile(w, r, filepath.Join(dir, filepath.Base(name)))
			return
		}
		http.NotFound(w, r)
	}))
	ts.Defer(srv.Close)
	cert := ts.MkAbs("github-cert.pem")
	ts.Check(os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644))
	ts.Setenv("SSL_CERT_FILE", cert)
	ts.Setenv("GITHUB_HOST", srv.Listener.Addr().String())
}

// kvPlugin serves the KV test provider (internal/plugintest) as a plugin of
// package NAME at VERSION: "kvplugin NAME VERSION [typed]". Typed, its
// schema declares NAME:index:Item (it is a KV parameterized into NAME), so
// that programs using it are type checked. Scenarios wrap it in a
// pulumi-resource-NAME shim.
func kvPlugin() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: kvplugin NAME VERSION [typed]")
		os.Exit(2)
	}
	name, version := os.Args[1], os.Args[2]
	f := plugintest.Factory(name, version, false)
	if len(os.Args) > 3 && os.Args[3] == "typed" {
		kv := plugintest.Factory("kv", version, false)
		f.New = func(ctx context.Context) (provider.Provider, error) {
			p, err := kv.New(ctx)
			if err == nil {
				_, err = p.Parameterize(ctx, provider.ParameterizeRequest{Args: []string{name}})
			}
			return p, err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := serve.Main(ctx, f, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// hangPlugin serves package hang: a typed KV provider (internal/plugintest,
// see kvPlugin) whose Create, outside a preview, touches started-NAME in
// its working directory (the program's) and then never answers, as a stuck
// cloud call does, whatever it is told.
func hangPlugin() {
	f, kv := plugintest.Factory("hang", "1.0.0", false), plugintest.Factory("kv", "1.0.0", false)
	f.New = func(ctx context.Context) (provider.Provider, error) {
		p, err := kv.New(ctx)
		if err == nil {
			_, err = p.Parameterize(ctx, provider.ParameterizeRequest{Args: []string{"hang"}})
		}
		return hangingProvider{p}, err
	}
	if err := serve.Main(context.Background(), f, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

type hangingProvider struct{ provider.Provider }

func (h hangingProvider) Create(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	if req.Preview {
		return h.Provider.Create(ctx, req)
	}
	if err := os.WriteFile("started-"+req.Name, nil, 0o644); err != nil {
		return provider.CreateResponse{}, err
	}
	select {}
}

// dumpStateCmd writes everything the scenario's backend holds to a file,
// as text: "dumpstate FILE". Scenarios grep it for what must not be stored
// (plaintext secrets), whichever the backend.
func dumpStateCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: dumpstate FILE")
	}
	var dump []byte
	if url := ts.Getenv("CAIRN_BACKEND_URL"); postgres.IsURL(url) {
		var err error
		dump, err = pgtest.Dump(context.Background(), url)
		ts.Check(err)
	} else if bucket.IsURL(url) {
		var err error
		dump, err = dumpBucket(url)
		ts.Check(err)
	} else {
		ts.Check(filepath.WalkDir(filepath.Join(ts.Getenv("CAIRN_HOME"), "state"), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			dump = append(dump, data...)
			return err
		}))
	}
	path := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Dir(path), 0o755))
	ts.Check(os.WriteFile(path, dump, 0o644))
}

// newDBCmd sets a variable to the URL of a new database on the scenario's
// PostgreSQL server: "newdb VAR", for a scenario that needs a second
// backend.
func newDBCmd(ts *testscript.TestScript, neg bool, args []string, pg *pgtest.Server) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: newdb VAR")
	}
	if pg == nil {
		ts.Fatalf("newdb: the scenario does not run on PostgreSQL; guard it with [postgres]")
	}
	url, err := pg.CreateDatabase(context.Background(), "extra")
	ts.Check(err)
	ts.Setenv(args[0], url)
}

// pgServerCmd starts a PostgreSQL server of the scenario's own and points
// CAIRN_BACKEND_URL at a database of it: "pgserver". Scenarios that restart
// the server (pgrestart) use it, leaving the shared one alone.
func pgServerCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: pgserver")
	}
	srv, err := pgtest.Start(pgtest.Options{})
	ts.Check(err)
	ts.Defer(srv.Stop)
	*ts.Value("pgserver").(**pgtest.Server) = srv
	url, err := srv.CreateDatabase(context.Background(), "own")
	ts.Check(err)
	ts.Setenv("CAIRN_BACKEND_URL", url)
}

// pgRestartCmd stops the scenario's own server at once, as a crash would,
// and starts it again: "pgrestart".
func pgRestartCmd(ts *testscript.TestScript, neg bool, args []string) {
	srv := *ts.Value("pgserver").(**pgtest.Server)
	if neg || len(args) != 0 || srv == nil {
		ts.Fatalf("usage: pgrestart, after pgserver")
	}
	ts.Check(srv.Kill())
	ts.Check(srv.Restart())
}

// pgSQLCmd runs SQL statements on the database of CAIRN_BACKEND_URL:
// "pgsql SQL".
func pgSQLCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: pgsql SQL")
	}
	ts.Check(pgtest.Exec(context.Background(), ts.Getenv("CAIRN_BACKEND_URL"), args[0]))
}
