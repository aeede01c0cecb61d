//go:build linux

package par

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTimeID is CLOCK_THREAD_CPUTIME_ID of <time.h>.
const clockThreadCPUTimeID = 3

// ThreadCPU returns the CPU time the calling OS thread has used, or −1
// where it cannot be read. It is only meaningful on a goroutine locked to
// its thread (runtime.LockOSThread).
func ThreadCPU() time.Duration {
	var ts syscall.Timespec
	_, _, e := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	if e != 0 {
		return -1
	}
	return time.Duration(ts.Nano())
}

// threadID names the calling OS thread.
func threadID() int { return syscall.Gettid() }

// Measured reports whether ThreadCPU reads a clock on this system.
const Measured = true
