package display

import (
	"io"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
)

// repaintInterval is how often the interactive tree is drawn again.
const repaintInterval = 100 * time.Millisecond

// Display turns deployment events into output. Handle may be called from
// many goroutines at once; Close renders what is left and must be called
// once the deployment has returned.
type Display struct {
	mu     sync.Mutex
	run    *run
	out    *errWriter
	render renderer
	plain  plainSecrets
	closed bool
	stop   chan struct{}
	ticker sync.WaitGroup
}

// renderer writes a run in one output mode. Its methods are called with the
// display's lock held.
type renderer interface {
	// event is called after the run has recorded e.
	event(e deploy.Event)
	// close writes the final output.
	close()
}

// repainter is a renderer that redraws on a clock.
type repainter interface {
	repaint()
}

// New returns a display with the options. When interactive, it starts
// repainting at most ten times a second until Close.
func New(opts Options) *Display {
	return newDisplay(opts, time.Now)
}

func newDisplay(opts Options, now func() time.Time) *Display {
	if opts.Out == nil {
		opts.Out = io.Discard
	}
	if opts.ShowSecrets {
		opts.Masker = nil
	}
	d := &Display{run: newRun(opts, now), out: &errWriter{w: opts.Masker.Writer(opts.Out)}, plain: plainSecrets{}, stop: make(chan struct{})}
	p := painter(opts.Color)
	switch {
	case opts.JSON:
		d.render = &jsonRenderer{r: d.run, w: d.out}
	case opts.Markdown:
		d.render = &markdownRenderer{r: d.run, w: d.out}
	case opts.Interactive:
		d.render = &liveRenderer{r: d.run, w: d.out, p: p, size: sizeFunc(opts)}
	default:
		d.render = &plainRenderer{r: d.run, w: d.out, p: p}
	}
	if rp, ok := d.render.(repainter); ok {
		d.ticker.Add(1)
		go d.tick(rp)
	}
	return d
}

// Handle records an event and renders it. It is a deploy.Options.Events
// function; events after Close are ignored.
func (d *Display) Handle(e deploy.Event) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	if se, ok := e.(deploy.StepEvent); ok && hidden(&se) {
		d.run.hide(&se)
		return
	}
	e = mask(e, d.run.opts.Masker)
	d.run.record(e)
	d.render.event(e)
	if w, ok := d.plain.warning(e, d.run.opts.Masker); ok {
		d.run.record(w)
		d.render.event(w)
	}
}

// hidden reports whether a step is hidden: as in Pulumi, default providers
// are not resources to the user, so only their failures show.
func hidden(e *deploy.StepEvent) bool {
	return e.Phase != deploy.StepFailed && resource.IsDefaultProvider(e.URN)
}

// mask returns e with the secrets m knows masked in its texts, so that a
// line cut to the terminal's width shows no part of one.
func mask(e deploy.Event, m *secrets.Masker) deploy.Event {
	if m == nil {
		return e
	}
	switch x := e.(type) {
	case deploy.StepEvent:
		x.Error = m.Mask(x.Error)
		return x
	case deploy.DiagEvent:
		x.Message = m.Mask(x.Message)
		return x
	case deploy.SummaryEvent:
		x.Error = m.Mask(x.Error)
		return x
	case deploy.PolicyEvent:
		x.Violation.Message = m.Mask(x.Violation.Message)
		return x
	}
	return e
}

// Close stops repainting and writes the final output: the last rendering
// of the tree, the diagnostics and the summary, or the JSON or Markdown
// document. It returns the first error writing the output met.
func (d *Display) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return d.out.err
	}
	d.closed = true
	d.mu.Unlock()
	close(d.stop)
	d.ticker.Wait()
	d.mu.Lock()
	defer d.mu.Unlock()
	d.render.close()
	return d.out.err
}

func (d *Display) tick(rp repainter) {
	defer d.ticker.Done()
	t := time.NewTicker(repaintInterval)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-t.C:
			d.mu.Lock()
			rp.repaint()
			d.mu.Unlock()
		}
	}
}

// errWriter keeps the first write error and writes nothing after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (w *errWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.w.Write(p)
	w.err = err
	return n, err
}

// writeString writes s, keeping any error in w.
func (w *errWriter) writeString(s string) { _, _ = io.WriteString(w, s) }
