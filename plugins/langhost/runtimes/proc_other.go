//go:build !unix

package runtimes

import "os/exec"

// ownGroup lets cmd be killed when it is cancelled, after a grace period
// for its output.
func ownGroup(cmd *exec.Cmd) {
	cmd.WaitDelay = stopGrace
}
