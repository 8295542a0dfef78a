package display

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
)

func TestPlainGolden(t *testing.T) {
	tests := []struct {
		name   string
		opts   Options
		events []deploy.Event
	}{
		{"plain_preview", Options{Operation: OperationPreview}, fxPreview()},
		{"plain_preview_diff", Options{Operation: OperationPreview, ShowDiffs: true, ShowSames: true}, fxPreview()},
		{"plain_preview_secrets", Options{Operation: OperationPreview, ShowDiffs: true, ShowSecrets: true}, fxPreview()},
		{"plain_update", Options{Operation: OperationUpdate}, fxUpdate()},
		{"plain_refresh", Options{Operation: OperationRefresh}, fxRefresh()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := renderEvents(t, tt.opts, tt.events)
			if strings.Contains(got, "\x1b") {
				t.Errorf("uncoloured output holds escape codes")
			}
			checkGolden(t, tt.name, got)
		})
	}
}

func TestPlainSecretsMasked(t *testing.T) {
	tests := []struct {
		name        string
		showSecrets bool
		want        string
		wantNot     string
	}{
		{"masked", false, `value: [secret] → [secret]`, "s3cr3t"},
		{"shown", true, `value: "s3cr3t-old" → "s3cr3t-new"`, "value: [secret]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := renderEvents(t, Options{Operation: OperationPreview, ShowDiffs: true, ShowSecrets: tt.showSecrets}, fxPreview())
			if !strings.Contains(got, tt.want) {
				t.Errorf("output lacks %q:\n%s", tt.want, got)
			}
			if strings.Contains(got, tt.wantNot) {
				t.Errorf("output holds %q:\n%s", tt.wantNot, got)
			}
		})
	}
}
