//go:build unix

package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// gated is a program of three independent commands. Each marks that it
// started, waits for the file "go", and marks that it finished; with one
// worker only one of them runs at a time.
const gated = `name: gated
runtime: yaml
resources:
  a:
    type: command:local:Command
    properties:
      create: touch started-a; while [ ! -f go ]; do sleep 0.02; done; touch done-a
  b:
    type: command:local:Command
    properties:
      create: touch started-b; while [ ! -f go ]; do sleep 0.02; done; touch done-b
  c:
    type: command:local:Command
    properties:
      create: touch started-c; while [ ! -f go ]; do sleep 0.02; done; touch done-c
`

// interruptedUp is a `cairn up --parallel 1` of a program, run in a process
// group of its own so that it is interrupted the way a terminal does it:
// SIGINT to the whole foreground group.
type interruptedUp struct {
	t      *testing.T
	env    []string
	dir    string
	cmd    *exec.Cmd
	stdout bytes.Buffer
	stderr chan string
	// races are the lines of the race detector's reports cairn printed
	// (built with -race), read once stderr is closed.
	races []string
}

func startGatedUp(t *testing.T, env ...string) *interruptedUp {
	return startUp(t, gated, env...)
}

func startUp(t *testing.T, program string, env ...string) *interruptedUp {
	return startProject(t, map[string]string{"Pulumi.yaml": program}, env...)
}

// startProject starts the update of a project of files, by name.
func startProject(t *testing.T, files map[string]string, env ...string) *interruptedUp {
	t.Helper()
	u := &interruptedUp{t: t, env: env, dir: t.TempDir(), stderr: make(chan string, 100)}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(u.dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	u.cairn("stack", "init", "dev")
	u.cmd = u.command("up", "--yes", "--parallel", "1")
	u.cmd.Stdout = &u.stdout
	u.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pipe, err := u.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := u.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "DATA RACE") {
				u.races = append(u.races, sc.Text())
			}
			u.stderr <- sc.Text()
		}
		close(u.stderr)
	}()
	return u
}

func (u *interruptedUp) command(args ...string) *exec.Cmd {
	bin, err := exec.LookPath("cairn") // put on PATH by testscript.Main
	if err != nil {
		u.t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = u.dir
	cmd.Env = append(os.Environ(), "CAIRN_HOME="+filepath.Join(u.dir, ".cairn"), "CAIRN_CONFIG_PASSPHRASE=x", "NO_COLOR=1")
	cmd.Env = append(cmd.Env, u.env...)
	return cmd
}

// cairn runs a cairn command that must succeed and returns its output.
func (u *interruptedUp) cairn(args ...string) string {
	u.t.Helper()
	out, err := u.command(args...).CombinedOutput()
	if err != nil {
		u.t.Fatalf("cairn %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// started waits for the one command that runs to mark that it started, and
// returns its name.
func (u *interruptedUp) started() string {
	u.t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		m, _ := filepath.Glob(filepath.Join(u.dir, "started-*"))
		if len(m) > 0 {
			return strings.TrimPrefix(filepath.Base(m[0]), "started-")
		}
	}
	u.t.Fatal("no command started")
	return ""
}

// interrupt sends SIGINT to the group and waits for cairn to say that it
// took it in: a line of its standard error matching want.
func (u *interruptedUp) interrupt(want string) {
	u.t.Helper()
	if err := syscall.Kill(-u.cmd.Process.Pid, syscall.SIGINT); err != nil {
		u.t.Fatal(err)
	}
	re := regexp.MustCompile(want)
	for line := range u.stderr {
		if re.MatchString(line) {
			return
		}
	}
	u.t.Fatalf("cairn did not answer the interrupt with %q", want)
}

// wait waits for cairn to exit, which it must do with an error, and
// returns its exit code. A data race cairn reported fails the test.
func (u *interruptedUp) wait() int {
	u.t.Helper()
	drained := make(chan struct{})
	go func() {
		for range u.stderr { // drained, so that cairn never blocks writing
		}
		close(drained)
	}()
	err := u.cmd.Wait()
	if err == nil {
		u.t.Errorf("an interrupted update succeeded:\n%s", u.stdout.String())
	}
	<-drained
	if len(u.races) > 0 {
		u.t.Errorf("cairn reported a data race: %s", strings.Join(u.races, "\n"))
	}
	return u.cmd.ProcessState.ExitCode()
}

func (u *interruptedUp) exists(name string) bool {
	_, err := os.Stat(filepath.Join(u.dir, name))
	return err == nil
}

func (u *interruptedUp) touch(name string) {
	u.t.Helper()
	if err := os.WriteFile(filepath.Join(u.dir, name), nil, 0o644); err != nil {
		u.t.Fatal(err)
	}
}

// others are the gated commands but the one that ran.
func others(ran string) []string {
	var out []string
	for _, n := range []string{"a", "b", "c"} {
		if n != ran {
			out = append(out, n)
		}
	}
	return out
}

// The first Ctrl-C lets the command in flight finish and records it; no
// other command starts, and those that never started are reported skipped.
// It holds with the command provider in Cairn's process and in a plugin
// process.
func TestInterruptLetsTheCommandInFlightFinish(t *testing.T) {
	for name, env := range map[string][]string{"in process": nil, "plugin": {"CAIRN_ISOLATE_PROVIDERS=command"}} {
		t.Run(name, func(t *testing.T) {
			u := startGatedUp(t, env...)
			ran := u.started()
			u.interrupt(`^Interrupted: nothing new will start`)
			u.touch("go")
			u.wait()
			out := u.stdout.String()
			if !u.exists("done-" + ran) {
				t.Errorf("the command in flight (%s) was not let finish:\n%s", ran, out)
			}
			if !regexp.MustCompile(`command:local:Command +` + ran + ` +created`).MatchString(out) {
				t.Errorf("the command in flight (%s) is not reported created:\n%s", ran, out)
			}
			for _, n := range others(ran) {
				if u.exists("started-" + n) {
					t.Errorf("%s started after the interrupt", n)
				}
				if !regexp.MustCompile(`command:local:Command +` + n + ` +create skipped`).MatchString(out) {
					t.Errorf("%s is not reported skipped:\n%s", n, out)
				}
			}
			if !strings.Contains(out, "2 skipped") || strings.Contains(out, "failed") {
				t.Errorf("the summary does not say 2 skipped and nothing failed:\n%s", out)
			}
			state := u.cairn("stack", "export")
			if !strings.Contains(state, "command:local:Command::"+ran) || strings.Contains(state, "pending_operations") {
				t.Errorf("the state does not hold %s, finished, and nothing pending:\n%s", ran, state)
			}
		})
	}
}

// A second Ctrl-C stops the command in flight, and the state records its
// create as pending. The next update warns about it and creates everything,
// which resolves the pending create: the update after it does not warn.
func TestSecondInterruptLeavesTheCommandPending(t *testing.T) {
	u := startGatedUp(t)
	ran := u.started()
	u.interrupt(`^Interrupted: nothing new will start`)
	u.interrupt(`^Stopping the operations in flight`)
	u.wait()
	out := u.stdout.String()
	if u.exists("done-" + ran) {
		t.Errorf("the command in flight (%s) finished after the second interrupt", ran)
	}
	if !strings.Contains(out, "interrupted, so left pending") {
		t.Errorf("the stopped command is not reported left pending:\n%s", out)
	}
	pending := regexp.MustCompile(`(?s)"pending_operations": \[\s*\{\s*"resource": \{\s*"urn": "[^"]*::command:local:Command::` + ran + `".*"type": "creating"`)
	if state := u.cairn("stack", "export"); !pending.MatchString(state) {
		t.Fatalf("the state does not record the create of %s as pending:\n%s", ran, state)
	}

	u.touch("go")
	next := u.cairn("up", "--yes")
	if !strings.Contains(next, "command:local:Command::"+ran+", interrupted while creating") || !strings.Contains(next, "3 created") {
		t.Errorf("the next update does not warn about the pending create and create everything:\n%s", next)
	}
	if state := u.cairn("stack", "export"); strings.Contains(state, "pending_operations") {
		t.Errorf("the update that created %s again kept its pending create:\n%s", ran, state)
	}
	if again := u.cairn("up", "--yes"); strings.Contains(again, "did not finish") {
		t.Errorf("the update after the recovery still warns about pending operations:\n%s", again)
	}
}

// hanging is a program whose one create never answers (see hangPlugin).
const hanging = `name: hanging
runtime: yaml
resources:
  item:
    type: hang:index:Item
    properties:
      value: stuck
`

// A third Ctrl-C, while an operation ignores the second, exits at once with
// 130, releasing the stack's lock (the next command need not break it) and
// leaving the create pending in the journal.
func TestThirdInterruptExitsAtOnce(t *testing.T) {
	u := startUp(t, hanging, "CAIRN_KV_DIR=.")
	if ran := u.started(); ran != "item" {
		t.Fatalf("started %s", ran)
	}
	u.interrupt(`^Interrupted: nothing new will start`)
	u.interrupt(`^Stopping the operations in flight`)
	u.interrupt(`^Exiting at once`)
	if code := u.wait(); code != 130 {
		t.Errorf("exit code %d, want 130", code)
	}
	out := u.cairn("refresh", "--yes", "--clear-pending-creates")
	if strings.Contains(out, "broke the lock") {
		t.Errorf("the lock was left for the next command to break:\n%s", out)
	}
	if !strings.Contains(out, "hang:index:Item::item, interrupted while creating") {
		t.Errorf("the interrupted create is not reported pending:\n%s", out)
	}
}
