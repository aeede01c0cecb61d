package datasets

import (
	"runtime"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// hashEntries counts the matrices Hash remembers.
func hashEntries() int {
	n := 0
	hashes.Range(func(any, any) bool { n++; return true })
	return n
}

// TestHashReleased: Hash does not keep a matrix alive; its entry goes when
// the matrix is collected.
func TestHashReleased(t *testing.T) {
	before := hashEntries()
	x := mat.NewDense(100, 100, nil)
	Hash(x)
	if got := hashEntries(); got != before+1 {
		t.Fatalf("%d entries after hashing one matrix, want %d", got, before+1)
	}
	x = nil
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		runtime.GC()
		if hashEntries() == before {
			return
		}
	}
	t.Errorf("%d entries after the matrix was collected, want %d", hashEntries(), before)
}
