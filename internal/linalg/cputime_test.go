package linalg_test

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the process's user+system CPU time. The benchmark
// machine is shared, so besides wall-clock GFLOPS the benchmarks report
// flops per CPU-second, which other processes disturb less.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
