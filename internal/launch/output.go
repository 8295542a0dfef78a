package launch

import (
	"bytes"
	"strings"
	"sync"
)

// lineWriter calls line for every complete line written to it. exec copies
// each stream from a single goroutine, so a lineWriter needs no lock.
type lineWriter struct {
	buf  []byte
	line func(string)
}

func (w *lineWriter) Write(b []byte) (int, error) {
	w.buf = append(w.buf, b...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		w.line(strings.TrimRight(string(w.buf[:i]), "\r"))
		w.buf = w.buf[i+1:]
	}
}

// tail keeps the last lines of a stream, and the line that began a Go
// panic or fatal error, which a long stack trace would push out.
type tail struct {
	mu    sync.Mutex
	max   int
	lines []string
	// panicked is the first "panic: " or "fatal error: " line and its index
	// among all lines; seen counts the lines.
	panicked      string
	panicAt, seen int
}

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) add(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.panicked == "" && (strings.HasPrefix(s, "panic: ") || strings.HasPrefix(s, "fatal error: ")) {
		t.panicked, t.panicAt = s, t.seen
	}
	t.seen++
	t.lines = append(t.lines, s)
	if len(t.lines) > t.max {
		t.lines = t.lines[len(t.lines)-t.max:]
	}
}

// describe renders the kept lines for an error message.
func (t *tail) describe() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.lines) == 0 {
		return ""
	}
	lines := t.lines
	if t.panicked != "" && t.panicAt < t.seen-len(lines) {
		lines = append([]string{t.panicked, "..."}, lines...)
	}
	return "; its last output on stderr was:\n\t" + strings.Join(lines, "\n\t")
}
