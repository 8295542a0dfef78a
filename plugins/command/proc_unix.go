//go:build unix

package command

import (
	"os/exec"
	"syscall"
)

// killGroup runs cmd in a process group of its own and makes cancelling it
// kill the whole group, so that what the interpreter started dies with it.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
