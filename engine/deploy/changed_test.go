package deploy

import (
	"context"
	"testing"
)

// TestRegisterChanged tells the program whether a registration changes the
// resource, in a preview as in an update: a language that defers what
// depends on changes (Terraform's data sources) needs to know.
func TestRegisterChanged(t *testing.T) {
	h := newHarness(t)
	changed := func(what string, preview bool, props map[string]any, want bool) {
		t.Helper()
		var got *RegisterResponse
		prog := func(ctx context.Context, info RunInfo) error {
			resps, err := register(ctx, info, res("a", props))
			got = resps["a"]
			return err
		}
		run := h.up
		if preview {
			run = h.preview
		}
		if _, err := run(prog); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got.Changed != want {
			t.Errorf("%s: Changed = %v, want %v", what, got.Changed, want)
		}
	}
	changed("preview of a create", true, map[string]any{"x": "1"}, true)
	changed("create", false, map[string]any{"x": "1"}, true)
	changed("no change", false, map[string]any{"x": "1"}, false)
	changed("preview of an update", true, map[string]any{"x": "2"}, true)
	changed("preview of no change", true, map[string]any{"x": "1"}, false)
}
