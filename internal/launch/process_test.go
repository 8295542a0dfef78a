package launch

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// script writes an executable shell script and returns its path.
func script(t *testing.T, body string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("plugins are shell scripts in these tests")
	}
	p := filepath.Join(t.TempDir(), "pulumi-resource-test")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// syncBuffer is a buffer that the log handler may write from many goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestStartReadsThePortAndLogsOutput(t *testing.T) {
	var logs syncBuffer
	path := script(t, "echo 40123\necho ready\necho warming up >&2\nexec sleep 30\n")
	p, err := Start(context.Background(), Spec{Name: "pulumi-resource-test", Path: path,
		Log: slog.New(slog.NewTextHandler(&logs, nil)), StopTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Addr(), "127.0.0.1:40123"; got != want {
		t.Errorf("Addr = %q, want %q", got, want)
	}
	if p.ExitError() != nil {
		t.Errorf("ExitError of a running plugin = %v", p.ExitError())
	}
	waitFor(t, func() bool {
		return strings.Contains(logs.String(), "warming up") && strings.Contains(logs.String(), "ready")
	})
	if !strings.Contains(logs.String(), "plugin=pulumi-resource-test") {
		t.Errorf("log lines do not name the plugin:\n%s", logs.String())
	}
	start := time.Now()
	if err := p.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	select {
	case <-p.Done():
	default:
		t.Error("the plugin still runs after Close")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Close took %s", d)
	}
	if err := p.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestStartFailures(t *testing.T) {
	tests := []struct {
		name string
		body string
		want string
	}{
		{"exits before the port", "echo 'cannot load credentials' >&2\nexit 3\n", "exited before printing its port: exit status 3; its last output on stderr was:\n\tcannot load credentials"},
		{"prints something else", "echo hello\nexec sleep 30\n", `printed "hello" where its port was expected`},
		{"never prints", "exec sleep 30\n", "did not print its port within 300ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Start(context.Background(), Spec{Name: "pulumi-resource-test", Path: script(t, tt.body),
				StartTimeout: 300 * time.Millisecond, Log: slog.New(slog.DiscardHandler)})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
	if _, err := Start(context.Background(), Spec{Name: "missing", Path: "/nonexistent/pulumi-resource-x"}); err == nil {
		t.Error("starting a missing binary should fail")
	}
}

func TestDoneWhenThePluginCrashes(t *testing.T) {
	p, err := Start(context.Background(), Spec{Name: "pulumi-resource-test", Log: slog.New(slog.DiscardHandler),
		Path: script(t, "echo 40124\nsleep 0.2\necho 'panic: nil map' >&2\nexit 2\n")})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	select {
	case <-p.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("Done was not closed after the plugin exited")
	}
	if err := p.ExitError(); err == nil || !strings.Contains(err.Error(), "panic: nil map") {
		t.Errorf("ExitError = %v, want the exit status and the last stderr lines", err)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not met within 5s")
}
