package main

import (
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/cairntest"
)

// TestExamples runs the scenarios of every example's tests/ folder, as
// `cairn test` does there, through the cairntest package: each example must
// have some.
func TestExamples(t *testing.T) {
	projects, err := filepath.Glob(filepath.Join("..", "..", "examples", "*", "Pulumi.yaml"))
	if err != nil || len(projects) == 0 {
		t.Fatalf("no examples found (%v)", err)
	}
	for _, p := range projects {
		dir := filepath.Dir(p)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			cairntest.Run(t, cairntest.Options{Project: dir})
		})
	}
}
