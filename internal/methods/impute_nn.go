package methods

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// ImputeNN fills the missing entries of each point from its nearest
// neighbour, the "1-NN" heuristic of Nguyen & De la Torre Table 1: "the
// missing values are replaced by the values of the nearest point, where
// the pairwise distance is calculated using only the attributes with known
// values". Distances are the mean squared difference over the attributes
// observed in both points (a mean, so that a pair sharing fewer attributes
// is not favoured by a shorter sum). Each missing attribute is copied from
// the nearest other point that observes it; ties go to the lower index. A
// point sharing no observed attribute with any other keeps the attribute's
// observed mean. See impute.go for the transductive Denoiser convention.
type ImputeNN struct{}

var _ Denoiser = ImputeNN{}

func init() {
	Register(Spec{
		Name:     "impute-nn",
		Title:    "1-NN",
		Doc:      "fill missing entries from the nearest point over commonly observed attributes (transductive)",
		Source:   "Nguyen & De la Torre (2008) §4.2 Table 1, 1-NN heuristic",
		Does:     Denoises | Imputes,
		Requires: NeedsX0,
		New:      func(Params) (any, error) { return ImputeNN{}, nil },
	})
}

// Denoise returns in.X0 with its missing entries copied from neighbours.
func (ImputeNN) Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error) {
	st, done, err := startImpute("impute-nn", dst, in)
	if err != nil || done {
		return st, err
	}
	m, _ := in.X0.Dims()
	x, mask := in.X0, in.Mask
	dist := make([]float64, m)
	order := make([]int, 0, m)
	for i := 0; i < m; i++ {
		oi := mask.RawRowView(i)
		missing := false
		for _, o := range oi {
			if o == 0 {
				missing = true
				break
			}
		}
		if !missing {
			continue
		}
		xi := x.RawRowView(i)
		for k := 0; k < m; k++ {
			dist[k] = math.Inf(1)
			if k == i {
				continue
			}
			ok, xk := mask.RawRowView(k), x.RawRowView(k)
			var s float64
			n := 0
			for j := range xi {
				if oi[j] != 0 && ok[j] != 0 {
					e := xi[j] - xk[j]
					s += e * e
					n++
				}
			}
			if n > 0 {
				dist[k] = s / float64(n)
			}
		}
		order = order[:0]
		for k := 0; k < m; k++ {
			if !math.IsInf(dist[k], 1) {
				order = append(order, k)
			}
		}
		// Stable by index for ties.
		sortByKey(order, dist)
		row := dst.RawRowView(i)
		for j, o := range oi {
			if o != 0 {
				continue
			}
			filled := false
			for _, k := range order {
				if mask.At(k, j) != 0 {
					row[j] = x.At(k, j)
					filled = true
					break
				}
			}
			if !filled {
				mu, err := observedMeans(x, mask)
				if err != nil {
					st[i].Err = errNoObserved
					row[j] = math.NaN()
					continue
				}
				row[j] = mu[j]
			}
		}
	}
	CheckFinite(dst, st)
	return st, nil
}

// sortByKey sorts idx by key[idx], ties by index (insertion sort is enough
// for the ~100 points of the Oil Flow protocol, and stable).
func sortByKey(idx []int, key []float64) {
	for a := 1; a < len(idx); a++ {
		v := idx[a]
		b := a - 1
		for b >= 0 && key[idx[b]] > key[v] {
			idx[b+1] = idx[b]
			b--
		}
		idx[b+1] = v
	}
}
