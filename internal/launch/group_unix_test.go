//go:build unix

package launch

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A plugin that never prints its port is killed with what it started: the
// child it left running in the background goes too.
func TestStartTimeoutKillsTheProcessGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	path := script(t, "sleep 300 &\necho $! > "+pidFile+"\nwait\n")
	_, err := Start(context.Background(), Spec{Name: "pulumi-resource-test", Path: path,
		StartTimeout: 300 * time.Millisecond, Log: slog.New(slog.DiscardHandler)})
	if err == nil || !strings.Contains(err.Error(), "did not print its port within 300ms") {
		t.Fatalf("got %v, want the start timeout", err)
	}
	raw, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("the plugin did not start its child: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return !running(pid) })
}

// A plugin runs in a process group of its own, so that a Ctrl-C at the
// terminal, sent to Cairn's group, reaches Cairn alone: Cairn decides when
// the operations in flight stop.
func TestPluginHasItsOwnProcessGroup(t *testing.T) {
	p, err := Start(context.Background(), Spec{Name: "pulumi-resource-test", Path: script(t, "echo 40125\nexec sleep 30\n"),
		Log: slog.New(slog.DiscardHandler), StopTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	pgid, err := syscall.Getpgid(p.Pid())
	if err != nil {
		t.Fatal(err)
	}
	if pgid != p.Pid() || pgid == syscall.Getpgrp() {
		t.Errorf("the plugin's process group is %d (the plugin is %d, Cairn's group %d)", pgid, p.Pid(), syscall.Getpgrp())
	}
}

// running reports whether a process runs: it exists and is not a zombie
// waiting for its new parent to reap it.
func running(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !errors.Is(err, os.ErrNotExist) || !dirExists("/proc/self")
	}
	// The state follows the command name in parentheses: "123 (sleep) Z ...".
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) == 0 || fields[0] != "Z"
}

func dirExists(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}
