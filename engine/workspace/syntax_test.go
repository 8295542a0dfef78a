package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestLocateYAMLError(t *testing.T) {
	tests := []struct {
		name, doc string
		want      string // line:column message
	}{
		{"unclosed flow sequence", "name: a\nresources:\n  x:\n    properties:\n      l: [1, 2\n  y: {}\n", "6:3 did not find expected ',' or ']'"},
		{"unclosed quote", "name: a\nruntime: \"yaml\n", "2:10 found unexpected end of stream"},
		{"tab indentation", "name: a\nruntime: yaml\n\tresources:\n", "3:1 found a tab character that violates indentation"},
		{"over-indented key", "a:\n  b: x\n   c: 1\n", "3:5 mapping values are not allowed in this context"},
		{"key among entries", "a:\n  - x\n  b: 1\n", "3:3 did not find expected '-' indicator"},
		{"unknown key", "name: a\n  runtime: yaml\n", "2:10 mapping values are not allowed in this context"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			var v map[string]any
			err := yaml.Unmarshal([]byte(test.doc), &v)
			if err == nil {
				t.Fatal("yaml.v3 accepted the document")
			}
			var se *SyntaxError
			if !errors.As(LocateYAMLError("f.yaml", []byte(test.doc), err), &se) {
				t.Fatalf("not a SyntaxError: %v", err)
			}
			if got := fmt.Sprintf("%d:%d %s", se.Line, se.Column, se.Message); got != test.want {
				t.Errorf("got  %s\nwant %s", got, test.want)
			}
		})
	}
}

func TestProjectNameOnly(t *testing.T) {
	tests := []struct{ doc, want string }{
		{"name: web\nruntime: yaml\nresources: [\n", "web"},
		{"name: 'web' # the site\nresources: [\n", "web"},
		{"resources: [\n", ""},
		{"name: web\nname: api\n", ""},
		{"name: 'web\"\n", ""},
	}
	for _, test := range tests {
		path := filepath.Join(t.TempDir(), "Pulumi.yaml")
		if err := os.WriteFile(path, []byte(test.doc), 0o644); err != nil {
			t.Fatal(err)
		}
		got := ""
		if p := ProjectNameOnly(&SyntaxError{Path: path}); p != nil {
			got = p.Name
		}
		if got != test.want {
			t.Errorf("%q: got %q, want %q", test.doc, got, test.want)
		}
	}
}
