package display

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/deploy"
)

// The live tree's goldens hold the final screen as a terminal would show it
// after Close: the output replayed through screen (vt_test.go), so the
// cursor movements of the repaints are applied and colour is off.
func TestLiveGolden(t *testing.T) {
	tests := []struct {
		name   string
		opts   Options
		events []deploy.Event
	}{
		{"live_preview", Options{Operation: OperationPreview}, fxPreview()},
		{"live_update", Options{Operation: OperationUpdate}, fxUpdate()},
		{"live_narrow", Options{Operation: OperationUpdate, Width: 60}, fxUpdate()},
		{"live_refresh", Options{Operation: OperationRefresh}, fxRefresh()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Interactive = true
			if tt.opts.Width == 0 {
				tt.opts.Width = 160
			}
			got := renderEvents(t, tt.opts, tt.events)
			if regexp.MustCompile("\x1b\\[[0-9;]*m").MatchString(got) {
				t.Errorf("uncoloured output holds colour codes")
			}
			checkGolden(t, tt.name, screen(got))
		})
	}
}

func TestLiveRepaintsInPlace(t *testing.T) {
	var out strings.Builder
	d := newDisplay(Options{Out: &out, Interactive: true, Width: 100, Operation: OperationUpdate,
		Stack: fxStack, Project: fxProject}, func() time.Time { return fxTime })
	events := fxUpdate()
	for _, e := range events[:3] { // the stack done, the password started
		d.Handle(e)
	}
	var live string
	for deadline := time.Now().Add(5 * time.Second); live == "" && time.Now().Before(deadline); {
		time.Sleep(repaintInterval)
		d.mu.Lock()
		if out.Len() > 0 {
			live = screen(out.String())
		}
		d.mu.Unlock()
	}
	if !strings.Contains(live, "creating… (0ms)") || !strings.ContainsAny(live, string(spinnerFrames)) {
		t.Errorf("the live frame shows no step in flight:\n%s", live)
	}
	for _, e := range events[3:] {
		d.Handle(e)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	final := screen(out.String())
	if strings.Contains(final, "creating…") || !strings.Contains(final, "Resources:") {
		t.Errorf("the final frame does not replace the live one:\n%s", final)
	}
	if n := strings.Count(final, "Updating (web/dev)"); n != 1 {
		t.Errorf("the title is on screen %d times:\n%s", n, final)
	}
}

func TestLiveColor(t *testing.T) {
	got := renderEvents(t, Options{Interactive: true, Color: true, Width: 160}, fxUpdate())
	for _, code := range []string{green, red, bold} {
		if !strings.Contains(got, code) {
			t.Errorf("coloured output lacks %q", code)
		}
	}
}

// TestLiveFitsScreen keeps the live frame within the screen's height, so
// that moving the cursor back over it stays on screen.
func TestLiveFitsScreen(t *testing.T) {
	var out strings.Builder
	d := newDisplay(Options{Out: &out, Interactive: true, Stack: fxStack, Project: fxProject},
		func() time.Time { return fxTime })
	d.mu.Lock()
	live := d.render.(*liveRenderer)
	live.size = func() (int, int) { return 80, 6 }
	for _, e := range fxUpdate()[:9] {
		d.run.record(e)
	}
	live.dirty = true
	live.repaint()
	got := screen(out.String())
	d.mu.Unlock()
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	want := "Updating (web/dev)\n\n   … 4 more\n" +
		" +   │  └─ …instance:Instance  web       created (12s)\n" +
		" ~   └─ aws:sqs/queue:Queue    jobs      ⠋ updating… (0ms)  [diff: ~delaySecon…\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
