//go:build unix

package runtimes

import (
	"os/exec"
	"syscall"
)

// ownGroup runs cmd in a process group of its own, so that a Ctrl-C at the
// terminal reaches Cairn alone, which decides when the program stops; when
// cmd is cancelled the group is asked to stop, and killed after a grace
// period with what the program started.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = stopGrace
}
