//go:build unix

package methods

import (
	"os/exec"
	"syscall"
)

// newProcessGroup makes cmd the leader of a new process group, so that
// killProcessGroup reaches every process it starts.
func newProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcessGroup sends SIGKILL to cmd's process group.
func killProcessGroup(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
