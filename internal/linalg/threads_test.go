package linalg

import (
	"os"
	"runtime"
	"testing"
)

// TestThreadsFor: cores are divided among the callers, at least one
// thread each.
func TestThreadsFor(t *testing.T) {
	for _, c := range []struct{ callers, procs, want int }{
		{1, 2, 2}, {2, 2, 1}, {3, 2, 1}, {0, 4, 4}, {2, 8, 4}, {3, 8, 2},
	} {
		if got := threadsFor(c.callers, c.procs); got != c.want {
			t.Errorf("threadsFor(%d, %d) = %d, want %d", c.callers, c.procs, got, c.want)
		}
	}
}

// TestShareCores: under OpenBLAS the library's own thread count follows
// ShareCores; the pure-Go backend always reports GOMAXPROCS.
func TestShareCores(t *testing.T) {
	if _, ok := os.LookupEnv("OPENBLAS_NUM_THREADS"); ok {
		t.Skip("OPENBLAS_NUM_THREADS is set: ShareCores leaves the user's choice")
	}
	procs := runtime.GOMAXPROCS(0)
	defer ShareCores(1)
	ShareCores(procs)
	if Backend() == "openblas" {
		if got := Threads(); got != 1 {
			t.Errorf("after ShareCores(%d) OpenBLAS uses %d threads, want 1", procs, got)
		}
		ShareCores(1)
		if got := Threads(); got != procs {
			t.Errorf("after ShareCores(1) OpenBLAS uses %d threads, want %d", got, procs)
		}
		return
	}
	if got := Threads(); got != procs {
		t.Errorf("pure Go: Threads() = %d, want GOMAXPROCS %d", got, procs)
	}
}
