//go:build unix && !linux

package launch

import "syscall"

func deathSignal() *syscall.SysProcAttr { return nil }
