package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/cairn-iac/cairn/internal/plugintest"
)

// nodejsCondition is the scenarios' [nodejs]: node is on PATH and the
// pinned npm packages of testdata/nodejs are installed. Missing, it is an
// error when CAIRN_REQUIRE_LANGUAGES=1 (as in CI) and false otherwise, the
// reason printed so that the skip is seen.
func nodejsCondition() (bool, error) {
	if _, err := plugintest.NodeModulesDir(); err != nil {
		if os.Getenv(plugintest.RequireLanguagesEnv) == "1" {
			return false, fmt.Errorf("%v (%s=1 requires it)", err, plugintest.RequireLanguagesEnv)
		}
		fmt.Fprintf(os.Stderr, "SKIPPED: the Node.js scenarios: %v\n", err)
		return false, nil
	}
	return true, nil
}

// nodeModulesCmd links the pinned npm packages of testdata/nodejs into a
// folder of the scenario as its node_modules: "nodemodules DIR".
// Scenarios check [nodejs] first.
func nodeModulesCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: nodemodules DIR")
	}
	nm, err := plugintest.NodeModulesDir()
	ts.Check(err)
	ts.Check(os.Symlink(nm, filepath.Join(ts.MkAbs(args[0]), "node_modules")))
}

// goEnv gives the scenarios the go command's caches, which a Go program's
// build needs and HOME=/no-home would hide.
func goEnv(e *testscript.Env) error {
	for _, name := range []string{"GOCACHE", "GOMODCACHE"} {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			return fmt.Errorf("go env %s: %w", name, err)
		}
		e.Setenv(name, strings.TrimSpace(string(out)))
	}
	return nil
}
