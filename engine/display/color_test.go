package display

import (
	"strings"
	"testing"
)

func TestColorEnabled(t *testing.T) {
	tests := []struct {
		flag     string
		terminal bool
		noColor  string
		term     string
		want     bool
		wantErr  bool
	}{
		{"auto", true, "", "xterm", true, false},
		{"", true, "", "xterm", true, false},
		{"auto", false, "", "xterm", false, false},
		{"auto", true, "1", "xterm", false, false},
		{"auto", true, "", "dumb", false, false},
		{"always", false, "1", "dumb", true, false},
		{"never", true, "", "xterm", false, false},
		{"NEVER", true, "", "xterm", false, false},
		{"sometimes", true, "", "xterm", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.flag+"/"+tt.noColor+"/"+tt.term, func(t *testing.T) {
			t.Setenv("NO_COLOR", tt.noColor)
			t.Setenv("TERM", tt.term)
			got, err := ColorEnabled(tt.flag, tt.terminal)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("ColorEnabled(%q, %v) = %v, %v; want %v (error: %v)", tt.flag, tt.terminal, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestNoColorNoEscapes runs every line mode with colour resolved from
// NO_COLOR and from --color never, and finds no escape codes.
func TestNoColorNoEscapes(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	t.Setenv("TERM", "xterm")
	for _, flag := range []string{"auto", "never"} {
		color, err := ColorEnabled(flag, true)
		if err != nil {
			t.Fatal(err)
		}
		for name, opts := range map[string]Options{
			"plain":    {Color: color},
			"json":     {Color: color, JSON: true},
			"markdown": {Color: color, Markdown: true},
		} {
			for _, fixture := range []struct {
				name string
				got  string
			}{
				{"preview", renderEvents(t, opts, fxPreview())},
				{"update", renderEvents(t, opts, fxUpdate())},
			} {
				if strings.Contains(fixture.got, "\x1b") {
					t.Errorf("--color %s, %s, %s: the output holds escape codes", flag, name, fixture.name)
				}
			}
		}
	}
}

func TestColorPlain(t *testing.T) {
	got := renderEvents(t, Options{Color: true, Operation: OperationPreview}, fxPreview())
	for _, want := range []string{green + "+ ", red + "- ", yellow + "~ ", magenta + "+-"} {
		if !strings.Contains(got, want) {
			t.Errorf("coloured output lacks %q", want)
		}
	}
}
