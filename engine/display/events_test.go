package display

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
)

// Inputs named "__…" (random's "__seed") are the provider's own and show
// in no diff, summary or details.
func TestInternalInputsAreHidden(t *testing.T) {
	seeded := func(length int, seed string) *resource.State {
		s := fxState(fxPassword, fxRoot, map[string]any{"length": length})
		s.Inputs["__seed"] = resource.MakeSecret(resource.String(seed))
		return s
	}
	events := []deploy.Event{
		deploy.StepEvent{Phase: deploy.StepDone, Op: deploy.OpCreate, URN: fxPassword, New: seeded(16, "aa"), Logical: true, Preview: true},
		deploy.StepEvent{Phase: deploy.StepDone, Op: deploy.OpReplace, URN: fxPassword, Old: seeded(16, "aa"), New: seeded(20, "bb"),
			Logical: true, Preview: true, Keys: []string{"length"}, Diffs: []string{"__seed", "length"}},
	}
	for name, opts := range map[string]Options{
		"plain":    {Operation: OperationPreview, ShowDiffs: true},
		"markdown": {Operation: OperationPreview, Markdown: true},
		"live":     {Operation: OperationPreview, Interactive: true, Width: 160},
	} {
		out := renderEvents(t, opts, events)
		if strings.Contains(out, "__seed") {
			t.Errorf("%s shows the internal input:\n%s", name, out)
		}
		if !strings.Contains(out, "length") {
			t.Errorf("%s does not show the length:\n%s", name, out)
		}
	}
}

// An ephemeral message shows beside its resource while its step runs, and
// is not kept among the diagnostics.
func TestEphemeralDiagnostics(t *testing.T) {
	var out strings.Builder
	d := newDisplay(Options{Out: &out, Interactive: true, Width: 120, Operation: OperationUpdate, Stack: fxStack, Project: fxProject},
		func() time.Time { return fxTime })
	start := deploy.StepEvent{Phase: deploy.StepStarted, Op: deploy.OpCreate, URN: fxDB, New: fxState(fxDB, fxRoot, nil), Logical: true}
	d.Handle(start)
	d.Handle(deploy.DiagEvent{URN: fxDB, Severity: deploy.SeverityInfo, Message: "waiting for the instance to be available", Ephemeral: true})
	d.mu.Lock()
	frame := strings.Join(d.render.(*liveRenderer).frame(120), "\n")
	d.mu.Unlock()
	if !strings.Contains(frame, "waiting for the instance") {
		t.Errorf("the running step shows no progress:\n%s", frame)
	}
	done := start
	done.Phase = deploy.StepDone
	d.Handle(done)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if final := screen(out.String()); strings.Contains(final, "waiting for the instance") || strings.Contains(final, "info:") {
		t.Errorf("the ephemeral message outlived its step:\n%s", final)
	}
}

// A prelude tells a preview apart and gives the JSON document its
// configuration, secrets blinded.
func TestPrelude(t *testing.T) {
	prelude := deploy.PreludeEvent{Preview: true, Config: map[string]resource.Value{
		"web:region": resource.String("eu-west-1"), "web:token": resource.MakeSecret(resource.String("t0k")),
		"web:sizes": resource.Array(resource.Number(1), resource.Number(2)),
	}}
	plain := renderEvents(t, Options{Operation: OperationUpdate}, []deploy.Event{prelude})
	if !strings.HasPrefix(plain, "Previewing update") {
		t.Errorf("the title ignores the prelude:\n%s", plain)
	}
	var digest PreviewDigest
	if err := json.Unmarshal([]byte(renderEvents(t, Options{JSON: true}, []deploy.Event{prelude})), &digest); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"web:region": "eu-west-1", "web:token": secretText, "web:sizes": "[1,2]"}
	if !reflect.DeepEqual(digest.Config, want) {
		t.Errorf("config = %v, want %v", digest.Config, want)
	}
}
