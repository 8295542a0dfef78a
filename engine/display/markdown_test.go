package display

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
)

func TestMarkdownGolden(t *testing.T) {
	tests := []struct {
		name   string
		opts   Options
		events []deploy.Event
	}{
		{"markdown_preview", Options{Markdown: true, Operation: OperationPreview}, fxPreview()},
		{"markdown_update", Options{Markdown: true, Operation: OperationUpdate, Color: true}, fxUpdate()},
		{"markdown_nochanges", Options{Markdown: true, Operation: OperationPreview}, []deploy.Event{
			deploy.SummaryEvent{Preview: true, Changes: map[deploy.Op]int{}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := renderEvents(t, tt.opts, tt.events)
			if strings.Contains(got, "\x1b") {
				t.Errorf("Markdown holds escape codes")
			}
			if strings.Count(got, "<details>") != strings.Count(got, "</details>") {
				t.Errorf("unbalanced <details>")
			}
			checkGolden(t, tt.name, got)
		})
	}
}

func TestFenced(t *testing.T) {
	tests := []struct {
		text, want string
	}{
		{"+ a: 1\n", "```diff\n+ a: 1\n```\n"},
		{"+ a: \"```\"\n", "````diff\n+ a: \"```\"\n````\n"},
	}
	for _, tt := range tests {
		if got := fenced("diff", tt.text); got != tt.want {
			t.Errorf("fenced(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
