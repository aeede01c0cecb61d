package par_test

import (
	"fmt"

	"github.com/runexp/runexp/internal/par"
)

// A cell's inner loop: each item's result is stored by its index, so the
// output does not depend on which goroutine ran which item, nor on how
// many ran (outside a pool, GOMAXPROCS; inside one, the caller and the
// helpers the pool's idle workers allow).
func ExampleRun() {
	squares := make([]int, 10)
	par.Run(len(squares), func(next func() (int, bool)) {
		for i, ok := next(); ok; i, ok = next() {
			squares[i] = i * i
		}
	})
	fmt.Println(squares)
	// Output: [0 1 4 9 16 25 36 49 64 81]
}
