package linalg

import (
	"fmt"
	"os"
)

// Why one OpenBLAS thread per call: OpenBLAS's threaded routines (dsymv
// inside the tridiagonalisation, dsyevd) split their sums among threads,
// so their last bits depend on the thread count. The runner used to share
// the cores among the cells running at once, which made a cell's bits
// depend on -j and on how many cells were left to compute: huang-fig6's
// Local Gram row at β = 1e-8 read 7.3165762e-4 with one thread,
// 7.3165751e-4 with two and 7.3165755e-4 inside a suite, so a cached cell
// or a shard computed at another -j was not the cell a fresh run computes.
// With one thread per call a cell's bits are fixed by the build; the cores
// are used by runexp's own goroutines (cells, rows, splits, repetitions),
// which is where the suite's parallelism is anyway.
//
// OPENBLAS_NUM_THREADS, if set, is the user's choice and is left alone;
// the thread count then enters Fingerprint, so that cells computed under
// different settings are not mixed in a cache or a merge.

// Threads returns the number of threads the backend uses for one call:
// OpenBLAS's setting, or GOMAXPROCS for the pure-Go backend (whose
// parallel products give the same bits for any number of goroutines).
func Threads() int { return threads() }

// Fingerprint names the backend as far as it decides a result's bits:
// "gonum", or "openblas-1-thread" (the default) or "openblas-N-threads"
// for OpenBLAS with N threads per call. (Before one thread was the rule,
// cache keys said "openblas" whatever the count; those entries no longer
// match.)
func Fingerprint() string {
	if backend != "openblas" {
		return backend
	}
	if n := threads(); n != 1 {
		return fmt.Sprintf("openblas-%d-threads", n)
	}
	return "openblas-1-thread"
}

// userThreads reports whether the user chose OpenBLAS's thread count.
func userThreads() bool {
	_, ok := os.LookupEnv("OPENBLAS_NUM_THREADS")
	return ok
}
