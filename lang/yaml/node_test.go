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
		"open quote":    {"a: 1\nb: \"x\n", "Invalid YAML 2:4-2:6"},
		"alias bomb":    {aliasBomb(9), "Document too large 6:10-6:13"},
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

// TestLongKeys checks that keys longer than the 1024 characters YAML 1.2
// allows an implicit key (a limit yaml.v3 enforces and go.yaml.in/yaml/v4
// does not) are read whole, in each style, with their ranges.
func TestLongKeys(t *testing.T) {
	key := strings.Repeat("k", 3000)
	tests := map[string]struct{ doc, want string }{
		"plain":         {"r:\n  " + key + ":\n    type: x\n", "2:3-2:3003"},
		"double quoted": {"r:\n  \"" + key + "\": 1\n", "2:3-2:3005"},
		"flow":          {"r: {" + key + ": 1}\n", "1:5-1:3005"},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			root, diags := parseDocument(newSource("f.yaml", []byte(test.doc)))
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			k := root.pairs[0].value.pairs[0].key
			if k.value != key || rangeOf(k.rng) != test.want {
				t.Errorf("got a key of %d characters at %s, want %d at %s", len(k.value), rangeOf(k.rng), len(key), test.want)
			}
		})
	}
}

// aliasBomb is a document of a few lines whose aliases expand to 10^levels
// nodes.
func aliasBomb(levels int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// TestAliasBombStops checks that an alias bomb is one error and no
// program.
func TestAliasBombStops(t *testing.T) {
	root, diags := parseDocument(newSource("f.yaml", []byte(aliasBomb(9))))
	if root != nil || len(diags) != 1 {
		t.Errorf("got a root %v and %d diagnostics, want none and 1: %v", root != nil, len(diags), diags)
	}
}

// TestLargeDocuments checks that the alias guard counts what aliases add,
// not the document's own nodes: many resources, and many resources that
// merge the same defaults, are read without errors.
func TestLargeDocuments(t *testing.T) {
	const n = 30_000 // 240,000 nodes of its own
	tests := map[string]struct{ head, resource string }{
		"no aliases": {"", "  r%d:\n    type: random:RandomString\n    properties:\n      length: 8\n"},
		"merged defaults": {"defaults: &d\n  type: random:RandomString\n  properties:\n    length: 8\n",
			"  r%d:\n    <<: *d\n"},
	}
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			b.WriteString(test.head + "resources:\n")
			for i := range n {
				fmt.Fprintf(&b, test.resource, i)
			}
			root, diags := parseDocument(newSource("f.yaml", []byte(b.String())))
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if got := len(root.pairs[len(root.pairs)-1].value.pairs); got != n {
				t.Errorf("got %d resources, want %d", got, n)
			}
		})
	}
}
