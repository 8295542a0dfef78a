package langhost

import (
	"bytes"
	"sync"

	"github.com/cairn-iac/cairn/engine/deploy"
)

// lineWriter turns what a program prints into diagnostics, a line each.
type lineWriter struct {
	mu   sync.Mutex
	buf  []byte
	diag func(deploy.DiagEvent)
}

func (p *Program) lines() *lineWriter {
	diag := p.Diag
	if diag == nil {
		diag = func(deploy.DiagEvent) {}
	}
	return &lineWriter{diag: diag}
}

func (w *lineWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, b...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		w.emit(w.buf[:i])
		w.buf = w.buf[i+1:]
	}
}

// flush emits what is left of an unfinished line.
func (w *lineWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) > 0 {
		w.emit(w.buf)
		w.buf = nil
	}
}

func (w *lineWriter) emit(line []byte) {
	w.diag(deploy.DiagEvent{Severity: deploy.SeverityInfo, Message: string(bytes.TrimRight(line, "\r"))})
}
