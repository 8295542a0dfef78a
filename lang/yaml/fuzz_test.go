package yaml_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-iac/cairn/lang/yaml"
)

// FuzzParse checks that no document makes the front end or the static
// analysis panic. The seeds are the programs of the corpus and a few
// hostile documents.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*", "*.yaml"))
	more, _ := filepath.Glob(filepath.Join(corpusDir, "*", "*", "*.yaml"))
	for _, path := range append(files, more...) {
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data)
		}
	}
	for _, seed := range []string{
		"",
		"[",
		"a: &x [*x]",
		"a: &a [1]\nb: &b [*a, *a]\nc: [*b, *b]\n",
		"resources: {r: {type: a:b:C, options: {count: 2}, properties: {x: '${r[0]}'}}}",
		"variables: {v: '${'}",
		"variables: {v: '${a.}'}",
		"variables: {v: '${[\"x\"}'}",
		"variables: {v: '${ {a = \"}\"}.a }'}",
		"outputs: {o: {'fn::invoke': {function: x:y:z, return: a}}}",
		"outputs: {o: {'fn::join': 1}}",
		"config: {c: {type: 'list<list<integer>>', default: [[1]]}}",
		"outputs: {o: .nan, p: -.inf, q: 0x1F, r: 1_000, s: 99999999999999999999999}",
		"<<: *undefined",
		"a: {<<: [1, 2]}",
		"--- \na: 1\n---\nb: 2\n",
		"resources:\n  r:\n    type: t:m:R\n    get: {id: '${r.id}'}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		prog, _ := yaml.Parse("Pulumi.yaml", src, yaml.Options{})
		if prog != nil {
			prog.Check(context.Background(), "fuzz", nil)
		}
	})
}
