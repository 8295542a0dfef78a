package plugintest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// RequireLanguagesEnv names the variable that, set to 1 (as CI sets it),
// makes the tests that need a language's toolchain or SDK fail when it is
// missing instead of skipping.
const RequireLanguagesEnv = "CAIRN_REQUIRE_LANGUAGES"

// Missing skips t, saying so on standard error so that the skip is seen,
// or fails it when RequireLanguagesEnv is set.
func Missing(t testing.TB, err error) {
	t.Helper()
	msg := fmt.Sprintf("SKIPPED %s: %v", t.Name(), err)
	if os.Getenv(RequireLanguagesEnv) == "1" {
		t.Fatalf("%s (%s=1 requires it)", msg, RequireLanguagesEnv)
	}
	fmt.Fprintln(os.Stderr, msg)
	t.Skip(msg)
}

// NodeModulesDir returns the node_modules folder of the pinned npm packages
// the Node.js tests use (@pulumi/pulumi, @pulumi/policy, typescript):
// testdata/nodejs at the module's root, which `make test` fills with npm
// ci. It fails when node, or those packages, are missing.
func NodeModulesDir() (string, error) {
	if _, err := exec.LookPath("node"); err != nil {
		return "", errors.New("node is not on PATH, so Cairn's Node.js language host is not tested")
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("the module's root is not above the test's folder")
		}
		dir = parent
	}
	nm := filepath.Join(dir, "testdata", "nodejs", "node_modules")
	if _, err := os.Stat(filepath.Join(nm, "@pulumi", "pulumi", "package.json")); err != nil {
		return "", fmt.Errorf("the pinned npm packages are not installed in %s: run `make nodejs-deps` (npm ci in testdata/nodejs)", filepath.Dir(nm))
	}
	return nm, nil
}

// NodeModules links the pinned npm packages (NodeModulesDir) into dir as
// its node_modules, or skips t (see Missing) when they or node are
// missing.
func NodeModules(t testing.TB, dir string) {
	t.Helper()
	nm, err := NodeModulesDir()
	if err != nil {
		Missing(t, err)
	}
	if err := os.Symlink(nm, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
}
