//go:build !unix

package methods

import "os/exec"

// newProcessGroup does nothing where there are no Unix process groups.
func newProcessGroup(*exec.Cmd) {}

// killProcessGroup kills cmd's process only: without Unix process groups
// its children may outlive a time-out.
func killProcessGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }
