//go:build unix

package report

import (
	"runtime"
	"syscall"
)

// peakRSS returns the process's peak resident memory in bytes
// (getrusage's ru_maxrss: kilobytes on Linux, bytes on Darwin).
func peakRSS() uint64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil || ru.Maxrss <= 0 {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return uint64(ru.Maxrss)
	}
	return uint64(ru.Maxrss) << 10
}
