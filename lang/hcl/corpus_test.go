package hcl_test

import (
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/internal/langtest"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

const corpusDir = "../../testdata/hcl"

// load loads an HCL project with the test schemas, from the folder main:
// names when the project has a Pulumi.yaml.
func load(dir string) (*eval.Program, hcl.Diagnostics) {
	opts := langhcl.Options{Schemas: eval.ProviderSchemas(langtest.Host), Project: "corpus"}
	if p, err := workspace.ReadProject(filepath.Join(dir, "Pulumi.yaml")); err == nil {
		opts.ProgramDir = p.ProgramDir()
	}
	return langhcl.Load(dir, opts)
}

// TestCorpus runs every program of testdata/hcl through a preview and an
// update, and compares what reached the engine and the stack's outputs with
// want.json, or the diagnostics with want.diags.
func TestCorpus(t *testing.T) { langtest.Corpus(t, corpusDir, load) }
