package display

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
)

// TestConcurrentEvents sends the steps of many resources from as many
// goroutines, as the engine does, to every output mode (run it with -race).
func TestConcurrentEvents(t *testing.T) {
	const n = 64
	modes := map[string]Options{
		"plain":       {},
		"interactive": {Interactive: true, Width: 120},
		"json":        {JSON: true},
		"markdown":    {Markdown: true},
	}
	for name, opts := range modes {
		t.Run(name, func(t *testing.T) {
			var out strings.Builder
			opts.Out, opts.Stack, opts.Project = &out, fxStack, fxProject
			d := New(opts)
			var wg sync.WaitGroup
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					urn := resource.NewURN(fxStack, fxProject, "", "random:index/randomPet:RandomPet", fmt.Sprintf("pet-%02d", i))
					st := fxState(urn, fxRoot, map[string]any{"length": i})
					for _, e := range fxStep(deploy.StepEvent{Op: deploy.OpCreate, URN: urn, New: st, Logical: true}, time.Millisecond, "") {
						d.Handle(e)
					}
					d.Handle(deploy.DiagEvent{URN: urn, Severity: deploy.SeverityInfo, Message: "made"})
				}()
			}
			wg.Wait()
			d.Handle(deploy.SummaryEvent{Changes: map[deploy.Op]int{deploy.OpCreate: n}})
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
			d.Handle(deploy.SummaryEvent{}) // after Close: ignored
			got := out.String()
			if name == "interactive" {
				got = screen(got)
			}
			for i := range n {
				if pet := fmt.Sprintf("pet-%02d", i); !strings.Contains(got, pet) {
					t.Errorf("the output does not name %s", pet)
				}
			}
		})
	}
}

// TestWriteError reports the first error writing the output.
func TestWriteError(t *testing.T) {
	d := New(Options{Out: failingWriter{}})
	for _, e := range fxUpdate() {
		d.Handle(e)
	}
	if err := d.Close(); err != io.ErrClosedPipe {
		t.Errorf("Close() = %v, want %v", err, io.ErrClosedPipe)
	}
	if err := d.Close(); err != io.ErrClosedPipe {
		t.Errorf("second Close() = %v, want %v", err, io.ErrClosedPipe)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }
