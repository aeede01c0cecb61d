package suite_test

import (
	"fmt"

	"github.com/runexp/runexp/internal/suite"
)

// The wall time of two configs on 1, 2 and 8 workers, from their recorded
// times: a's five cells of 3, 3, 2, 2 and 2 s, b's one 10 s cell. On two
// workers b's cell runs beside four of a's (3 + 3 + 2 + 2 = 10 s) and a's
// last cell follows: 12 s, where the work alone would allow 11.
func ExampleWorkload_Predict() {
	w := suite.Workload{
		{Config: "a", Cells: []float64{3, 3, 2, 2, 2}, Keys: []string{"1", "2", "3", "4", "5"}},
		{Config: "b", Cells: []float64{10}, Keys: []string{"x"}},
	}
	for _, n := range []int{1, 2, 8} {
		p := w.Predict(n)
		fmt.Printf("%d workers: %g s (work / workers %g s, critical chain %g s)\n", n, p.Seconds, p.Even, p.Chain)
	}
	// Output:
	// 1 workers: 22 s (work / workers 22 s, critical chain 10 s)
	// 2 workers: 12 s (work / workers 11 s, critical chain 10 s)
	// 8 workers: 10 s (work / workers 2.75 s, critical chain 10 s)
}
