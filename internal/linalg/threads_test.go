package linalg

import (
	"runtime"
	"strconv"
	"testing"
)

// TestOneThreadPerCall: the OpenBLAS build runs every call on one thread
// unless the user set OPENBLAS_NUM_THREADS, and its fingerprint then
// names the thread count; the pure-Go backend reports GOMAXPROCS and is
// "gonum" whatever it is.
func TestOneThreadPerCall(t *testing.T) {
	switch {
	case Backend() == "gonum":
		if got := Threads(); got != runtime.GOMAXPROCS(0) {
			t.Errorf("pure Go: Threads() = %d, want GOMAXPROCS %d", got, runtime.GOMAXPROCS(0))
		}
		if got := Fingerprint(); got != "gonum" {
			t.Errorf("pure Go: Fingerprint() = %q, want gonum", got)
		}
	case !userThreads():
		if got := Threads(); got != 1 {
			t.Errorf("OpenBLAS uses %d threads per call, want 1", got)
		}
		if got := Fingerprint(); got != "openblas-1-thread" {
			t.Errorf("Fingerprint() = %q, want openblas-1-thread", got)
		}
	default:
		n := Threads()
		want := "openblas-1-thread"
		if n != 1 {
			want = "openblas-" + strconv.Itoa(n) + "-threads"
		}
		if got := Fingerprint(); got != want {
			t.Errorf("OPENBLAS_NUM_THREADS set, %d threads: Fingerprint() = %q, want %q", n, got, want)
		}
	}
}
