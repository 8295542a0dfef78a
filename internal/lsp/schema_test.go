package lsp_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"gopkg.in/yaml.v3"

	"github.com/cairn-iac/cairn/internal/lsp"
	langyaml "github.com/cairn-iac/cairn/lang/yaml"
)

// projectSchema compiles the JSON Schema of Pulumi.yaml, which checks it
// against the draft it names.
func projectSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	if err := c.AddResource("pulumi-yaml.schema.json", bytes.NewReader(lsp.ProjectSchema)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("pulumi-yaml.schema.json")
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return s
}

// validate checks a YAML document against the schema, as a YAML language
// server does: the document's values as JSON.
func validate(s *jsonschema.Schema, src []byte) error {
	var doc any
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return err
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	return s.Validate(v)
}

// TestProjectSchemaAcceptsExamples validates the project files of the
// repository's examples and of the YAML programs the front end's tests
// accept; its err-* cases, and warnings (miscapitalized keys, which the
// schema reports too), are left out.
func TestProjectSchemaAcceptsExamples(t *testing.T) {
	s := projectSchema(t)
	var paths []string
	for _, pattern := range []string{"../../examples/*/Pulumi.yaml", "../../testdata/yaml/*/Pulumi.yaml"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, m...)
	}
	if len(paths) < 20 {
		t.Fatalf("found only %d project files: %v", len(paths), paths)
	}
	for _, path := range paths {
		if name := filepath.Base(filepath.Dir(path)); strings.HasPrefix(name, "err-") || name == "warnings" {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate(s, src); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
}

// TestProjectSchemaRejects checks that the schema catches what Cairn
// rejects: a misspelt section, a field a resource does not have, an
// option that is none, a project without a runtime.
func TestProjectSchemaRejects(t *testing.T) {
	s := projectSchema(t)
	for _, doc := range []string{
		"name: x\nruntime: yaml\nresource:\n  a:\n    type: random:RandomPet\n",
		"name: x\nruntime: yaml\nresources:\n  a:\n    type: random:RandomPet\n    propertes: {}\n",
		"name: x\nruntime: yaml\nresources:\n  a:\n    type: random:RandomPet\n    options:\n      protected: true\n",
		"name: x\nresources: {}\n",
		"name: x y\nruntime: yaml\n",
	} {
		if err := validate(s, []byte(doc)); err == nil {
			t.Errorf("the schema accepts\n%s", doc)
		}
	}
}

// TestProjectSchemaOptions checks that the schema names the resource
// options the YAML front end reads.
func TestProjectSchemaOptions(t *testing.T) {
	var schema struct {
		Definitions map[string]struct {
			Properties map[string]any `json:"properties"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(lsp.ProjectSchema, &schema); err != nil {
		t.Fatal(err)
	}
	var inSchema []string
	for name := range schema.Definitions["resourceOptions"].Properties {
		inSchema = append(inSchema, name)
	}
	slices.Sort(inSchema)
	prog, _ := langyaml.Parse("Pulumi.yaml", []byte("name: x\nruntime: yaml\n"), langyaml.Options{})
	if want := prog.Dialect.OptionNames; !slices.Equal(inSchema, want) {
		t.Errorf("the schema's resource options are\n%v\nthe YAML front end's\n%v", inSchema, want)
	}
}
