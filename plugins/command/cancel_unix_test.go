//go:build unix

package command

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// SignalCancellation kills the commands that run. The command reports that
// it started through a FIFO, so the test waits on no clock.
func TestSignalCancellation(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	p := New()
	done := make(chan error, 1)
	go func() {
		_, err := p.Create(context.Background(), createReq(map[string]any{"create": "echo go > " + fifo + "; sleep 30"}, false))
		done <- err
	}()
	f, err := os.Open(fifo) // blocks until the command opens it
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 3)
	_, _ = f.Read(buf)
	f.Close()
	if err := p.SignalCancellation(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err == nil || !strings.Contains(err.Error(), "the create command was cancelled and killed") {
		t.Errorf("err = %v", err)
	}
}
