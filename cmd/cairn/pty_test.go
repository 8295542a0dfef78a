package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/creack/pty"
)

// TestUpOnATerminal runs `cairn up` on a pseudo-terminal, where the display
// draws a live tree it redraws in place, and checks the final screen: every
// resource done, the summary, and no spinner left behind.
func TestUpOnATerminal(t *testing.T) {
	bin, err := exec.LookPath("cairn") // put on PATH by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	program := "name: site\nruntime: yaml\nresources:\n" +
		"  a:\n    type: command:local:Command\n    properties:\n      create: sleep 0.3 && echo a\n" +
		"  b:\n    type: command:local:Command\n    properties:\n      create: echo ${a.stdout}\n"
	dir, env := stackDev(t, bin, program, "NO_COLOR=1", "TERM=xterm")
	cmd := exec.Command(bin, "up", "--stack", "dev", "--yes")
	cmd.Dir, cmd.Env = dir, env
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	_, _ = io.Copy(&raw, f) // ends with EIO when the child exits
	if err := cmd.Wait(); err != nil {
		t.Fatalf("cairn up: %v\n%s", err, raw.String())
	}
	if !bytes.Contains(raw.Bytes(), []byte("\x1b[")) {
		t.Errorf("the display did not redraw in place on a terminal:\n%q", raw.String())
	}
	final := strings.Join(screen(raw.String()), "\n")
	for _, want := range []string{`├─ command:local:Command +a +created`, `└─ command:local:Command +b +created`, `Resources: 3 created`} {
		if !regexp.MustCompile(want).MatchString(final) {
			t.Errorf("final screen lacks %q:\n%s", want, final)
		}
	}
	if strings.Contains(final, "creating…") {
		t.Errorf("final screen still shows a step in flight:\n%s", final)
	}
}

// TestDumbTerminalHasNoColour runs `cairn preview` on a pseudo-terminal
// whose TERM is "dumb": --color auto must not colour it.
func TestDumbTerminalHasNoColour(t *testing.T) {
	bin, err := exec.LookPath("cairn")
	if err != nil {
		t.Fatal(err)
	}
	program := "name: site\nruntime: yaml\nresources:\n  a:\n    type: command:local:Command\n    properties:\n      create: echo a\n"
	dir, env := stackDev(t, bin, program, "NO_COLOR=", "TERM=dumb")
	cmd := exec.Command(bin, "preview", "--stack", "dev", "--non-interactive")
	cmd.Dir, cmd.Env = dir, env
	f, err := pty.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	_, _ = io.Copy(&raw, f)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("cairn preview: %v\n%s", err, raw.String())
	}
	if !strings.Contains(raw.String(), "command:local:Command") {
		t.Fatalf("preview output lacks the resource:\n%s", raw.String())
	}
	if sgr := regexp.MustCompile(`\x1b\[[0-9;]*m`); sgr.MatchString(raw.String()) {
		t.Errorf("colour codes on a dumb terminal:\n%q", raw.String())
	}
}

// stackDev writes a project with the YAML program and creates its stack
// dev; it returns the project's folder and the environment to run cairn in
// (its own CAIRN_HOME, a passphrase, and the variables given).
func stackDev(t *testing.T, bin, program string, vars ...string) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Pulumi.yaml"), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(append(os.Environ(), "CAIRN_HOME="+filepath.Join(dir, ".cairn"), "CAIRN_CONFIG_PASSPHRASE=x"), vars...)
	initStack := exec.Command(bin, "stack", "init", "dev")
	initStack.Dir, initStack.Env = dir, env
	if out, err := initStack.CombinedOutput(); err != nil {
		t.Fatalf("cairn stack init: %v\n%s", err, out)
	}
	return dir, env
}

var escape = regexp.MustCompile(`^\x1b\[([0-9;?]*)([A-Za-z])`)

// screen replays terminal output onto a screen of lines: printable text,
// \r, \n, cursor up (ESC[nA), erase line (ESC[2K) and erase down (ESC[J);
// other escapes (colours) are dropped.
func screen(out string) []string {
	lines := []string{""}
	row, col := 0, 0
	put := func(r rune) {
		line := []rune(lines[row])
		for len(line) < col {
			line = append(line, ' ')
		}
		if col < len(line) {
			line[col] = r
		} else {
			line = append(line, r)
		}
		lines[row] = string(line)
		col++
	}
	for len(out) > 0 {
		if m := escape.FindStringSubmatch(out); m != nil {
			out = out[len(m[0]):]
			switch m[2] {
			case "A":
				n, _ := strconv.Atoi(m[1])
				row = max(0, row-max(n, 1))
			case "K":
				lines[row] = ""
			case "J":
				lines = lines[:row+1]
				lines[row] = string([]rune(lines[row])[:min(col, len([]rune(lines[row])))])
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(out)
		out = out[size:]
		switch r {
		case '\r':
			col = 0
		case '\n':
			row, col = row+1, 0
			if row == len(lines) {
				lines = append(lines, "")
			}
		default:
			put(r)
		}
	}
	return lines
}
