package main

import (
	"bufio"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
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
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"replace":   replaceCmd,
			"cpexample": cpExampleCmd,
			"repeat":    repeatCmd,
		},
		Setup: func(e *testscript.Env) error {
			e.Setenv("CAIRN_HOME", filepath.Join(e.WorkDir, ".cairn-home"))
			e.Setenv("CAIRN_CONFIG_PASSPHRASE", "correct horse")
			e.Setenv("NO_COLOR", "1")
			return nil
		},
	})
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
// NAME DIR". Scenarios run the examples as a newcomer would.
func cpExampleCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cpexample NAME DIR")
	}
	src, err := filepath.Abs(filepath.Join("..", "..", "examples", args[0]))
	ts.Check(err)
	ts.Check(os.CopyFS(ts.MkAbs(args[1]), os.DirFS(src)))
}
