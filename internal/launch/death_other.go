//go:build unix && !linux

package launch

import "syscall"

// deathSignal does nothing: only Linux stops children when their parent dies.
func deathSignal(*syscall.SysProcAttr) {}
