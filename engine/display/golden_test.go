package display

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/deploy"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// checkGolden compares got with testdata/<name>.golden, or rewrites the
// file when the test runs with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the tests with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update to accept it)\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// fxTime is the fixed clock of the tests.
var fxTime = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// renderEvents feeds events to a display with the options and a fixed clock
// and returns what it wrote once closed.
func renderEvents(t *testing.T, opts Options, events []deploy.Event) string {
	t.Helper()
	var out bytes.Buffer
	opts.Out = &out
	if opts.Stack == "" {
		opts.Stack, opts.Project = fxStack, fxProject
	}
	d := newDisplay(opts, func() time.Time { return fxTime })
	for _, e := range events {
		d.Handle(e)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
