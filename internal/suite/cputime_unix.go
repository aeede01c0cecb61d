//go:build linux || darwin || freebsd || netbsd || openbsd

package suite

import "syscall"

// ProcessCPU returns the CPU seconds (user and system) the process has
// used so far, so the suite can report how well each config used the
// cores: CPU seconds over wall seconds.
func ProcessCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}
