package kernel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// minParallel is the number of matrix elements below which a pass over
// a Gram matrix stays on the calling goroutine: a row of a test point
// against a training set costs less than starting workers.
const minParallel = 1 << 14

// rowChunk is the number of rows a worker takes at a time. Workers take
// chunks from a shared counter, so a triangle's long and short rows and
// a loaded machine's slow cores still finish together.
const rowChunk = 8

// parallelRows calls f on consecutive row ranges [lo, hi) that cover
// [0, n) once, on up to GOMAXPROCS goroutines when the pass touches at
// least minParallel of its elements (elems). Every element is computed by
// f with the same arithmetic whichever goroutine runs it, so results are
// bit-identical for any worker count.
func parallelRows(n, elems int, f func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), (n+rowChunk-1)/rowChunk)
	if workers <= 1 || elems < minParallel {
		f(0, n)
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				lo := int(next.Add(rowChunk)) - rowChunk
				if lo >= n {
					return
				}
				f(lo, min(lo+rowChunk, n))
			}
		})
	}
	wg.Wait()
}
