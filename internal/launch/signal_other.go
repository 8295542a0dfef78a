//go:build !unix

package launch

import (
	"os"
	"syscall"
)

// SysProcAttr is nil: without process groups, a plugin runs as started.
func SysProcAttr() *syscall.SysProcAttr { return nil }

// interrupt stops the plugin: without signals, killing is the only way.
func interrupt(p *os.Process) error { return p.Kill() }

// killGroup kills the plugin; without process groups, what it started lives on.
func killGroup(p *os.Process) error { return p.Kill() }
