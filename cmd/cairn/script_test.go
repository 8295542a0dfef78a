package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the golden files of the CLI scenarios")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"cairn": func() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
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
		Setup: func(e *testscript.Env) error {
			e.Setenv("CAIRN_HOME", filepath.Join(e.WorkDir, ".cairn-home"))
			e.Setenv("CAIRN_CONFIG_PASSPHRASE", "correct horse")
			e.Setenv("NO_COLOR", "1")
			return nil
		},
	})
}
