package metrics

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// BlockContrast returns (mean within-label − mean between-label
// off-diagonal entry of k) / (mean off-diagonal entry of k): how blocky a
// kernel matrix looks when its rows and columns are ordered by label, the
// property Huang, Tian & De la Torre (2011) Fig. 4 shows only as an image.
// It is 0 when the labels say nothing about k, positive when points of one
// label are more similar to each other than to the rest. It is NaN when
// every pair shares a label or none does (one of the two means is empty).
func BlockContrast(k mat.Symmetric, labels []int) float64 {
	n := k.SymmetricDim()
	if len(labels) != n {
		panic(fmt.Sprintf("metrics: BlockContrast of %d labels for a %d×%d matrix", len(labels), n, n))
	}
	var win, btw, all float64
	var nw, nb int
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			v := k.At(i, j)
			all += v
			if labels[i] == labels[j] {
				win += v
				nw++
			} else {
				btw += v
				nb++
			}
		}
	}
	if nw == 0 || nb == 0 {
		return math.NaN()
	}
	return (win/float64(nw) - btw/float64(nb)) / (all / float64(nw+nb))
}
