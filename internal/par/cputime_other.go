//go:build !linux

package par

import "time"

// ThreadCPU returns −1: no per-thread CPU clock is read on this system.
func ThreadCPU() time.Duration { return -1 }

// threadID returns 0: without thread ids Run cannot find the cell that
// calls it, and runs as outside a pool.
func threadID() int { return 0 }

// Measured reports whether ThreadCPU reads a clock on this system.
const Measured = false
