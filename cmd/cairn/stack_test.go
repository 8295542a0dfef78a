package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// TestWriteFileReportsCloseError checks that a file whose contents were
// written but which failed to close is reported as not written.
func TestWriteFileReportsCloseError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.json")
	err := writeFile(path, func(w io.Writer) error {
		if _, err := io.WriteString(w, "{}\n"); err != nil {
			return err
		}
		return w.(*os.File).Close() // the next Close fails
	})
	if err == nil {
		t.Fatal("writeFile returned nil although closing the file failed")
	}
}

// TestWriteFileReportsWriteError checks that a failed write wins over the
// close that follows it.
func TestWriteFileReportsWriteError(t *testing.T) {
	err := writeFile("/dev/full", func(w io.Writer) error {
		_, err := io.WriteString(w, "{}\n")
		return err
	})
	if err == nil {
		t.Fatal("writeFile to /dev/full returned nil")
	}
}

// On a terminal, `cairn stack rm` asks before removing the stack, says
// which of its states it kept and offers to remove them: no keeps them,
// yes removes them.
func TestStackRmOffersToPurgeOnATerminal(t *testing.T) {
	bin, err := exec.LookPath("cairn") // put on PATH by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	dir, env := stackDev(t, bin, "name: site\nruntime: yaml\n", "NO_COLOR=1")
	backups := filepath.Join(dir, ".cairn", "state", ".pulumi", "backups", "site", "dev")
	for _, purge := range []bool{false, true} {
		if purge {
			onTerminal(t, dir, env, "", bin, "stack", "init", "dev")
		}
		answer := map[bool]string{false: "n", true: "y"}[purge]
		out := onTerminal(t, dir, env, "y\n"+answer+"\n", bin, "stack", "rm", "dev")
		for _, want := range []string{`This removes stack "dev" and its state. Do you want to go ahead? [y/N]`,
			" of dev in ", "Remove the states kept of dev now? [y/N]"} {
			if !strings.Contains(out, want) {
				t.Errorf("answering %s: the terminal does not show %q:\n%s", answer, want, out)
			}
		}
		_, err = os.Stat(backups)
		if kept := err == nil; kept == purge || purge != strings.Contains(out, "Removed the ") {
			t.Errorf("answering %s: the states are kept: %v; output:\n%s", answer, kept, out)
		}
	}
}

// On a terminal, `cairn stack history prune` says what it removes and
// asks first.
func TestStackHistoryPruneAsksOnATerminal(t *testing.T) {
	bin, err := exec.LookPath("cairn")
	if err != nil {
		t.Fatal(err)
	}
	dir, env := stackDev(t, bin, "name: site\nruntime: yaml\n", "NO_COLOR=1")
	onTerminal(t, dir, env, "", bin, "up", "--stack", "dev", "--yes")
	onTerminal(t, dir, env, "", bin, "up", "--stack", "dev", "--yes")
	out := onTerminal(t, dir, env, "y\n", bin, "stack", "history", "prune", "--stack", "dev", "--keep", "1")
	for _, want := range []string{`This removes version 1 of the history of stack "dev" and the 2 states kept before version 2; version 2 stays. Do you want to go ahead? [y/N]`,
		"Removed version 1 of the history"} {
		if !strings.Contains(out, want) {
			t.Errorf("the terminal does not show %q:\n%s", want, out)
		}
	}
}

// onTerminal runs a command on a pseudo-terminal, with input typed ahead,
// and returns what it shows; the command must succeed.
func onTerminal(t *testing.T, dir string, env []string, input string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	f, err := pty.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(f, input); err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	_, _ = io.Copy(&raw, f) // ends with EIO when the child exits
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, raw.String())
	}
	return strings.ReplaceAll(raw.String(), "\r\n", "\n")
}
