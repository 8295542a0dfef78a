//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hangScript is a command that hangs (until the file "go" exists): its
// shell writes its pid to sh.pid and that of the sleep it waits for to
// sleep.pid.
const hangScript = `touch started-web
if [ -e go ]; then echo fine; exit 0; fi
echo $$ > sh.pid
sleep 300 &
echo $! > sleep.pid
wait
touch done-web
`

// A second Ctrl-C kills a hung local-exec command, or command of the
// command provider (in Cairn's process or in a plugin process), with what
// it started (its process group): no process of it outlives cairn. The
// state records the step's create as pending, and the next update runs
// the command again.
func TestSecondInterruptKillsTheCommandsGroup(t *testing.T) {
	const hungCommand = `name: hung
runtime: yaml
resources:
  web:
    type: command:local:Command
    properties:
      create: sh hang.sh
`
	const hungProvisioner = `resource "terraform_data" "web" {
  provisioner "local-exec" {
    command = "sh hang.sh"
  }
}
`
	for _, tc := range []struct {
		name, file, text string
		env              []string
		typ              string // the type of the resource whose create is left pending
	}{
		{"local-exec", "main.tf", hungProvisioner, nil, "terraform:index:Provisioners"},
		{"command", "Pulumi.yaml", hungCommand, nil, "command:local:Command"},
		{"command plugin", "Pulumi.yaml", hungCommand, []string{"CAIRN_ISOLATE_PROVIDERS=command"}, "command:local:Command"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{tc.file: tc.text, "hang.sh": hangScript}
			u := startProject(t, files, tc.env...)
			if ran := u.started(); ran != "web" {
				t.Fatalf("started %s", ran)
			}
			pids := []int{u.pid("sh.pid"), u.pid("sleep.pid")}
			u.interrupt(`^Interrupted: nothing new will start`)
			u.interrupt(`^Stopping the operations in flight`)
			u.wait()
			for _, pid := range pids {
				if !gone(pid) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
					t.Errorf("process %d of the command outlived cairn", pid)
				}
			}
			out := u.stdout.String()
			if u.exists("done-web") {
				t.Errorf("the command finished after the second interrupt")
			}
			if !strings.Contains(out, "interrupted, so left pending") || !strings.Contains(out, "command was cancelled and killed") {
				t.Errorf("the killed command is not reported killed and left pending:\n%s", out)
			}
			state := u.cairn("stack", "export")
			pending := regexp.MustCompile(`(?s)"pending_operations": \[\s*\{\s*"resource": \{\s*"urn": "[^"]*` + tc.typ + `::web".*"type": "creating"`)
			if !pending.MatchString(state) {
				t.Fatalf("the state does not record the create as pending:\n%s", state)
			}

			u.touch("go")
			if err := os.Remove(filepath.Join(u.dir, "started-web")); err != nil {
				t.Fatal(err)
			}
			next := u.cairn("up", "--yes")
			if !strings.Contains(next, tc.typ+"::web, interrupted while creating") {
				t.Errorf("the next update does not warn about the pending create:\n%s", next)
			}
			if state := u.cairn("stack", "export"); strings.Contains(state, "pending_operations") {
				t.Errorf("the update that ran the command again kept its pending create:\n%s", state)
			}
			if !u.exists("started-web") {
				t.Errorf("the next update did not run the command again")
			}
		})
	}
}

// pid waits for the command to write a pid to the file name, and returns it.
func (u *interruptedUp) pid(name string) int {
	u.t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		data, err := os.ReadFile(filepath.Join(u.dir, name))
		if pid, err2 := strconv.Atoi(string(bytes.TrimSpace(data))); err == nil && err2 == nil {
			return pid
		}
	}
	u.t.Fatalf("the command did not write %s", name)
	return 0
}

// gone reports whether the process pid has ended, waiting a while for a
// process that was killed to die. A zombie, which has ended but whose
// parent has not reaped it (a container's init may never), counts as
// gone.
func gone(pid int) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		err := syscall.Kill(pid, 0)
		if errors.Is(err, syscall.ESRCH) {
			return true
		}
		if stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat")); err == nil {
			// The state follows the command's name in parentheses.
			if i := bytes.LastIndexByte(stat, ')'); i > 0 && bytes.HasPrefix(stat[i+1:], []byte(" Z")) {
				return true
			}
		}
	}
	return false
}
