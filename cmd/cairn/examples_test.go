package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/cairntest"
	"github.com/cairn-iac/cairn/internal/plugintest"
)

// TestExamples runs the scenarios of every example's tests/ folder, as
// `cairn test` does there, through the cairntest package: each example must
// have some. A Node.js example runs with the pinned npm packages of
// testdata/nodejs, linked in as its node_modules unless it has one.
func TestExamples(t *testing.T) {
	projects, err := filepath.Glob(filepath.Join("..", "..", "examples", "*", "Pulumi.yaml"))
	if err != nil || len(projects) == 0 {
		t.Fatalf("no examples found (%v)", err)
	}
	for _, p := range projects {
		dir := filepath.Dir(p)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
				linkNodeModules(t, dir)
			}
			cairntest.Run(t, cairntest.Options{Project: dir})
		})
	}
}

// linkNodeModules links the pinned npm packages into the example as its
// node_modules (ignored by git), replacing a link of an earlier run that
// leads nowhere, or skips the test without them.
func linkNodeModules(t *testing.T, dir string) {
	nm := filepath.Join(dir, "node_modules")
	if _, err := os.Stat(nm); err == nil {
		return
	}
	_ = os.Remove(nm)
	plugintest.NodeModules(t, dir)
}
