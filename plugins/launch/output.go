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

// tail keeps the last lines of a stream.
type tail struct {
	mu    sync.Mutex
	max   int
	lines []string
}

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) add(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
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
	return "; its last output on stderr was:\n\t" + strings.Join(t.lines, "\n\t")
}
