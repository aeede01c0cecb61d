package linalg

import (
	"os"
	"runtime"
)

// ShareCores tells the backend that callers goroutines will call it at
// the same time (runexp's cell workers), so that it uses
// max(1, GOMAXPROCS/callers) threads per call and the process no more
// threads than cores.
//
// Why: OpenBLAS (pthreads build) starts its own threads for every large
// call, and they spin while they wait for work. With two cell workers on
// two cores, each calling OpenBLAS with two threads, four spinning threads
// share two cores; on the RKPCA fits' many small products this ran more
// than 1.7 times slower than the pure-Go build (docs/performance.md).
//
// If OPENBLAS_NUM_THREADS is set, the user chose and ShareCores leaves it.
// The pure-Go backend is not affected: gonum's parallel Dgemm schedules
// goroutines, which the Go scheduler multiplexes onto GOMAXPROCS threads.
// Call it when no BLAS call is running: OpenBLAS's thread count is global.
func ShareCores(callers int) {
	if _, ok := os.LookupEnv("OPENBLAS_NUM_THREADS"); ok {
		return
	}
	setThreads(threadsFor(callers, runtime.GOMAXPROCS(0)))
}

// threadsFor is the number of backend threads per call when callers
// goroutines share procs cores.
func threadsFor(callers, procs int) int {
	if callers < 1 {
		callers = 1
	}
	return max(1, procs/callers)
}

// Threads returns the number of threads the backend uses for one call:
// OpenBLAS's setting, or GOMAXPROCS for the pure-Go backend.
func Threads() int { return threads() }
