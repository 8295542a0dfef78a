package display

import (
	"testing"
	"time"
)

func TestTruncate(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"too long", 5, "too …"},
		{"├─ type", 4, "├─ …"},
		{"\x1b[32m+ create\x1b[0m rest", 5, "\x1b[32m+ cr…" + reset},
		{"anything", 0, "anything"},
	}
	for _, tt := range tests {
		if got := truncate(tt.in, tt.width); got != tt.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tt.in, tt.width, got, tt.want)
		}
	}
}

func TestShortenType(t *testing.T) {
	tests := []struct {
		branch, typ string
		width       int
		want        string
	}{
		{"├─ ", "aws:s3/bucket:Bucket", 30, "├─ aws:s3/bucket:Bucket"},
		{"├─ ", "aws:s3/bucket:Bucket", 12, "├─ …t:Bucket"},
		{"│  └─ ", "aws:s3/bucket:Bucket", 6, "│  └─…"},
	}
	for _, tt := range tests {
		if got := shortenType(tt.branch, tt.typ, tt.width); got != tt.want {
			t.Errorf("shortenType(%q, %q, %d) = %q, want %q", tt.branch, tt.typ, tt.width, got, tt.want)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0ms"},
		{40 * time.Millisecond, "40ms"},
		{400 * time.Millisecond, "0.4s"},
		{9940 * time.Millisecond, "9.9s"},
		{12300 * time.Millisecond, "12s"},
		{75 * time.Second, "1m15s"},
		{2*time.Hour + 3*time.Second, "120m3s"},
	}
	for _, tt := range tests {
		if got := formatDuration(tt.d); got != tt.want {
			t.Errorf("formatDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}
