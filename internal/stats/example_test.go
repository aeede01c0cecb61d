package stats_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/runexp/runexp/internal/stats"
)

// The t-interval of x = 1…5: mean 3, s = √2.5, t₄(0.975) = 2.776 (NIST/
// SEMATECH e-Handbook, Table 1.4.2.6.3), so 3 ± 2.776·√(2.5/5) =
// [1.037, 4.963].
func ExampleTMean() {
	e, err := stats.TMean([]float64{1, 2, 3, 4, 5}, 0.95)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.3f [%.3f, %.3f]\n", e.Mean, e.CI.Lo, e.CI.Hi)
	// Output:
	// 3.000 [1.037, 4.963]
}

// A claim "A is below B" reads the interval of A − B: PASS when it lies
// wholly below 0, FAIL wholly above, INCONCLUSIVE when it covers 0.
func ExampleDecide() {
	for _, iv := range []stats.Interval{{Lo: -3, Hi: -1}, {Lo: -1, Hi: 2}, {Lo: 0.5, Hi: 2}} {
		fmt.Println(iv.Lo, iv.Hi, stats.Decide(iv, stats.Below, 0))
	}
	// Output:
	// -3 -1 PASS
	// -1 2 INCONCLUSIVE
	// 0.5 2 FAIL
}

// PairedDiff bootstraps the mean difference of two methods' scores over
// the same items (rows), each item with its repeats: method a beats b by
// about 1 on every item, and the interval says so.
func ExamplePairedDiff() {
	rng := rand.New(rand.NewPCG(1, 1))
	a := make([][]float64, 40)
	b := make([][]float64, 40)
	for i := range a {
		base := rng.NormFloat64()
		a[i] = []float64{base, base + 0.1*rng.NormFloat64()}
		b[i] = []float64{base + 1 + 0.2*rng.NormFloat64(), base + 1 + 0.2*rng.NormFloat64()}
	}
	e, err := stats.PairedDiff(a, b, 0.95, 2000, rand.New(rand.NewPCG(2, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d items × %d repeats, a − b below 0: %v\n", e.Items, e.Repeats, stats.Decide(e.CI, stats.Below, 0))
	fmt.Println(e.CI.Hi < -0.8 && e.CI.Lo > -1.2)
	// Output:
	// 40 items × 2 repeats, a − b below 0: PASS
	// true
}
