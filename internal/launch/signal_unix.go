//go:build unix

package launch

import (
	"os"
	"syscall"
)

// SysProcAttr runs a plugin in a process group of its own: a Ctrl-C at the
// terminal reaches Cairn alone, which decides when its plugins stop, and
// killing the group stops whatever the plugin started. On Linux the kernel
// also stops the plugin if Cairn dies without closing it.
func SysProcAttr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	deathSignal(a)
	return a
}

// interrupt asks the plugin to exit.
func interrupt(p *os.Process) error { return p.Signal(syscall.SIGTERM) }

// killGroup kills the plugin and every process of its group.
func killGroup(p *os.Process) error { return syscall.Kill(-p.Pid, syscall.SIGKILL) }
