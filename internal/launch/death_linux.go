package launch

import "syscall"

// deathSignal makes the kernel stop the plugin when Cairn dies.
func deathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGTERM }
