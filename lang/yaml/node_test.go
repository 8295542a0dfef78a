package yaml

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

// rangeOf renders a range as line:column-line:column.
func rangeOf(r hcl.Range) string {
	return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line, r.Start.Column, r.End.Line, r.End.Column)
}

func TestScalarRanges(t *testing.T) {
	tests := map[string]struct {
		doc  string
		want string
	}{
		"plain":         {"k: value", "1:4-1:9"},
		"comment":       {"k: value # note", "1:4-1:9"},
		"double quoted": {`k: "a \" b"`, "1:4-1:12"},
		"single quoted": {`k: 'it''s'`, "1:4-1:11"},
		"unicode":       {"k: ünï", "1:4-1:7"},
		"literal block": {"k: |\n  one\n  two\nnext: 1", "1:4-3:6"},
		"folded block":  {"k: >\n  one\n\n  two\n", "1:4-4:6"},
		"flow":          {"k: {a: 1, b: [x, y]}", "1:4-1:21"},
		"nested flow":   {"k: [x, [y]]", "1:4-1:12"},
		"block map":     {"k:\n  a: 1\n  b: two\n", "2:3-3:9"},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			root, diags := parseDocument(newSource("f.yaml", []byte(test.doc)))
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if got := rangeOf(root.pairs[0].value.rng); got != test.want {
				t.Errorf("wrong range\ngot:  %s\nwant: %s", got, test.want)
			}
		})
	}
}

func TestMerges(t *testing.T) {
	tests := map[string]struct {
		doc  string
		want string // the keys and scalar values of m, in order
	}{
		"merge":          {"base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\n", "x=1 y=3"},
		"merge list":     {"a: &a {x: 1}\nb: &b {x: 2, z: 2}\nm:\n  <<: [*a, *b]\n", "x=1 z=2"},
		"explicit first": {"a: &a {x: 1}\nm:\n  x: 0\n  <<: *a\n", "x=0"},
		"alias":          {"a: &a {x: 1}\nm: *a\n", "x=1"},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			root, diags := parseDocument(newSource("f.yaml", []byte(test.doc)))
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			var m *node
			for _, kv := range root.pairs {
				if kv.key.value == "m" {
					m = kv.value
				}
			}
			var parts []string
			for _, kv := range m.pairs {
				parts = append(parts, kv.key.value+"="+kv.value.value)
			}
			if got := strings.Join(parts, " "); got != test.want {
				t.Errorf("wrong result\ngot:  %s\nwant: %s", got, test.want)
			}
		})
	}
}

func TestDocumentErrors(t *testing.T) {
	tests := map[string]struct {
		doc  string
		want string // summary and range of the first error
	}{
		"duplicate key": {"a: 1\nb: 2\na: 3\n", "Duplicate key 3:1-3:2"},
		"recursive":     {"a: &x [1, *x]\n", "Recursive alias 1:11-1:13"},
		"bad merge":     {"m:\n  <<: 3\n", "Invalid merge 2:7-2:8"},
		"two documents": {"a: 1\n---\nb: 2\n", "More than one document 2:1-2:4"},
		"syntax":        {"a: [1\n", "Invalid YAML 1:4-1:6"},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			_, diags := parseDocument(newSource("f.yaml", []byte(test.doc)))
			if !diags.HasErrors() {
				t.Fatal("no error")
			}
			if got := diags[0].Summary + " " + rangeOf(*diags[0].Subject); got != test.want {
				t.Errorf("wrong diagnostic\ngot:  %s\nwant: %s", got, test.want)
			}
		})
	}
}
