package metrics_test

import (
	"fmt"

	"github.com/runexp/runexp/internal/metrics"
)

// Tied values share the mean of the ranks they span, as R's rank() does
// with ties.method = "average".
func ExampleRanks() {
	fmt.Println(metrics.Ranks([]float64{10, 30, 20, 30}))
	// Output:
	// [1 3.5 2 3.5]
}

// Spearman's ρ is Pearson's correlation of the ranks: 1 for any
// increasing relation, −1 for a decreasing one, whatever the shape.
func ExampleSpearman() {
	x := []float64{1, 2, 3, 4, 5}
	fmt.Printf("%.3f\n", metrics.Spearman(x, []float64{1, 4, 9, 16, 25}))
	fmt.Printf("%.3f\n", metrics.Spearman(x, []float64{5, 4, 3, 2, 1}))
	// With a tie the ranks of y are 1, 3, 2, 4.5, 4.5, and Pearson's r of
	// those with 1…5 is 8.5/√95 = 0.8720816 (by hand).
	fmt.Printf("%.7f\n", metrics.Spearman(x, []float64{1, 3, 2, 5, 5}))
	// Output:
	// 1.000
	// -1.000
	// 0.8720816
}

// Percentile interpolates linearly between order statistics (R's
// quantile type 7): the 5–95% bands of Abrahamsen & Hansen's Fig. 4.
func ExamplePercentile() {
	x := []float64{4, 1, 3, 2, 5}
	fmt.Println(metrics.Percentile(x, 0.05), metrics.Percentile(x, 0.5), metrics.Percentile(x, 0.95))
	// Output:
	// 1.2 3 4.8
}

// MSE is the mean of squared differences, per element.
func ExampleMSE() {
	fmt.Println(metrics.MSE([]float64{1, 2, 3}, []float64{1, 2, 6}))
	// Output:
	// 3
}

// The mean class accuracy averages each class's accuracy, so a large class
// cannot hide a small one's errors.
func ExampleMeanClassAccuracy() {
	pred := []int{0, 0, 0, 0, 1, 0}
	truth := []int{0, 0, 0, 0, 1, 1}
	fmt.Printf("%.2f\n", metrics.MeanClassAccuracy(pred, truth))
	// Output:
	// 0.75
}

// RegionMAE splits the mean absolute error into the occluded region and
// the rest (Nguyen & De la Torre's Fig. 5 table).
func ExampleRegionMAE() {
	z := []float64{1, 1, 0, 0}
	ref := []float64{0, 0, 0, 2}
	occluded := []bool{true, true, false, false}
	whole, in, out := metrics.RegionMAE(z, ref, occluded)
	fmt.Println(whole, in, out)
	// Output:
	// 1 1 1
}
