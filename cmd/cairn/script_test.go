package main

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/cairn-iac/cairn/engine/backend/postgres"
	"github.com/cairn-iac/cairn/engine/backend/postgres/pgtest"
)

var update = flag.Bool("update", false, "rewrite the golden files of the CLI scenarios")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"cairn":                  func() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
		"pulumi-resource-random": func() { os.Exit(run(shim(os.Args), os.Stdin, os.Stdout, os.Stderr)) },
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
			"replace":   replaceCmd,
			"cpexample": cpExampleCmd,
			"grepall":   grepAllCmd,
			"dumpstate": dumpStateCmd,
			"newdb":     func(ts *testscript.TestScript, neg bool, args []string) { newDBCmd(ts, neg, args, pg) },
			"pgserver":  pgServerCmd,
			"pgrestart": pgRestartCmd,
			"pgsql":     pgSQLCmd,
		},
		Setup: func(e *testscript.Env) error {
			e.Setenv("CAIRN_HOME", filepath.Join(e.WorkDir, ".cairn-home"))
			e.Setenv("CAIRN_CONFIG_PASSPHRASE", "correct horse")
			e.Setenv("NO_COLOR", "1")
			e.Values["pgserver"] = new(*pgtest.Server)
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
			if cond == "postgres" {
				return pg != nil, nil
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

// cpExampleCmd copies a folder of examples/ into the scenario: "cpexample
// NAME DIR". Scenarios run the examples as a newcomer would.
func cpExampleCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cpexample NAME DIR")
	}
	src, err := filepath.Abs(filepath.Join("..", "..", "examples", args[0]))
	ts.Check(err)
	ts.Check(os.CopyFS(ts.MkAbs(args[1]), os.DirFS(src)))
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
