package display

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/snapshot"
)

func TestGraphGolden(t *testing.T) {
	tests := []struct {
		name  string
		write func(*strings.Builder, *snapshot.Snapshot) error
	}{
		{"graph.dot", func(b *strings.Builder, s *snapshot.Snapshot) error { return WriteDOT(b, s) }},
		{"graph.mermaid", func(b *strings.Builder, s *snapshot.Snapshot) error { return WriteMermaid(b, s) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var first, second strings.Builder
			if err := tt.write(&first, fxSnapshot()); err != nil {
				t.Fatal(err)
			}
			if err := tt.write(&second, fxSnapshot()); err != nil {
				t.Fatal(err)
			}
			if first.String() != second.String() {
				t.Errorf("two renderings differ")
			}
			checkGolden(t, tt.name, first.String())
		})
	}
}

func TestGraphEmpty(t *testing.T) {
	var b strings.Builder
	if err := WriteDOT(&b, nil); err != nil {
		t.Fatal(err)
	}
	if want := "digraph \"stack\" {\n    node [shape=box];\n}\n"; b.String() != want {
		t.Errorf("WriteDOT(nil) = %q, want %q", b.String(), want)
	}
}

func TestEscapes(t *testing.T) {
	tests := []struct {
		name, in, want string
		escape         func(string) string
	}{
		{"mermaid quote", `say "hi"`, "say #quot;hi#quot;", mermaidEscape},
		{"mermaid html", "<b>&", "#lt;b#gt;#amp;", mermaidEscape},
		{"mermaid hash", "#1 `x`", "#35;1 #96;x#96;", mermaidEscape},
		{"dot", "a\"b\\c\nd", `"a\"b\\c\nd"`, dotQuote},
	}
	for _, tt := range tests {
		if got := tt.escape(tt.in); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}
