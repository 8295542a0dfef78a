package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v4"
)

// TestLocateYAMLError checks that a file that does not parse is reported
// where the parser found the problem, or where the construct it was
// reading starts when that was the end of the file.
func TestLocateYAMLError(t *testing.T) {
	tests := []struct {
		name, doc string
		want      string // line:column message
	}{
		{"unclosed flow sequence", "name: a\nresources:\n  x:\n    properties:\n      l: [1, 2\n  y: {}\n", "6:4 mapping values are not allowed in this context"},
		{"flow sequence closed by a key", "a:\n  l: [1, 2\n  b:\n", "3:4 did not find expected ',' or ']' while parsing a flow sequence that starts at 2:6"},
		{"flow sequence open at the end", "a: [1\n", "1:4 did not find expected ',' or ']' while parsing a flow sequence"},
		{"flow sequence ends in a comma", "a: [1, 2,\n\n", "1:10 did not find expected node content while parsing a flow node"},
		{"unclosed quote", "name: a\nruntime: \"yaml\n", "2:10 found unexpected end of stream while scanning a quoted scalar"},
		{"tab indentation", "name: a\nruntime: yaml\n\tresources:\n", "3:1 found a tab character that violates indentation while scanning a plain scalar that starts at 2:10"},
		{"over-indented key", "a:\n  b: x\n   c: 1\n", "3:5 mapping values are not allowed in this context"},
		{"key among entries", "a:\n  - x\n  b: 1\n", "3:3 did not find expected '-' indicator while parsing a block collection that starts at 2:3"},
		{"unknown key", "name: a\n  runtime: yaml\n", "2:10 mapping values are not allowed in this context"},
		{"unknown alias", "a: 1\nb: *nope\n", "2:4 unknown anchor 'nope' referenced"},
		{"unknown directive", "%FOO\n---\na: 1\n", "1:5 found unknown directive name while scanning a directive that starts at 1:1"},
		{"not UTF-8", "a: 1\nb: \xff\n", "2:4 invalid leading UTF-8 octet (value: 255)"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			var v map[string]any
			err := yaml.Unmarshal([]byte(test.doc), &v)
			if err == nil {
				t.Fatal("the YAML library accepted the document")
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

// TestLocateYAMLDecodeError checks that values of the wrong type are
// reported at their own line and column, each of them.
func TestLocateYAMLDecodeError(t *testing.T) {
	doc := "name: [a]\nplugins:\n  providers: {}\n"
	var f projectFile
	err := LocateYAMLError("Pulumi.yaml", []byte(doc), yaml.Unmarshal([]byte(doc), &f))
	want := "Pulumi.yaml:1:7: cannot construct !!seq into string\nPulumi.yaml:3:14: cannot construct !!map into []workspace.PluginRef"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
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
