package yaml_test

import (
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/internal/langtest"
	"github.com/cairn-iac/cairn/lang/yaml"
)

const corpusDir = "../../testdata/yaml"

var testHost = langtest.Host

func load(dir string) (*eval.Program, hcl.Diagnostics) {
	return yaml.Load(dir, yaml.Options{Schemas: eval.ProviderSchemas(testHost)})
}

// TestCorpus runs every program of testdata/yaml through a preview and an
// update, and compares what reached the engine and the stack's outputs with
// want.json, or the diagnostics with want.diags.
func TestCorpus(t *testing.T) { langtest.Corpus(t, corpusDir, load) }
