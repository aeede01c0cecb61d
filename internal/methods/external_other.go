//go:build !unix

package methods

import (
	"context"
	"os"
	"os/exec"
)

// newProcessGroup does nothing where there are no Unix process groups.
func newProcessGroup(*exec.Cmd) {}

// killProcessGroup kills cmd's process only: without Unix process groups
// its children may outlive a time-out.
func killProcessGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }

// runBatch runs the command directly: the reaper needs Unix process
// groups.
func runBatch(ctx context.Context, name string, args []string, dir string, stderr *os.File) (batchOutcome, error) {
	return runDirect(ctx, name, args, dir, stderr)
}

// dieWithCaller does nothing where there is no parent-death signal.
func dieWithCaller(*exec.Cmd) (unlock func()) { return func() {} }

// SweepStaleBatches does nothing here: without process ids a later run
// can check, a batch folder's maker cannot be told gone.
func SweepStaleBatches() int { return 0 }
