//go:build unix

package launch

import (
	"os"
	"syscall"
)

// sysProcAttr makes the kernel stop the plugin if Cairn dies without
// closing it (on Linux; elsewhere Close is the only way).
func sysProcAttr() *syscall.SysProcAttr { return deathSignal() }

// interrupt asks the plugin to exit.
func interrupt(p *os.Process) error { return p.Signal(syscall.SIGTERM) }
