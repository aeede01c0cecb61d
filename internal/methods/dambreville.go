package methods

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Dambreville is the direct pre-image of Dambreville, Rathi & Tannenbaum,
// "Statistical shape analysis using kernel PCA" (Proc. SPIE 6064, Image
// Processing: Algorithms and Systems, 2006), for the Gaussian kernel
// k(x, y) = exp(−‖x−y‖²/c), as described by Abrahamsen & Hansen (2011,
// §3.1 and §4): a weighted mean of the training inputs whose weights fall
// linearly with the feature-space squared distance,
//
//	z = Σ_i w_i x_i / Σ_i w_i,   w_i = ½(2 − ‖Ψ − φ(x_i)‖²).
//
// For the Gaussian kernel ‖φ(z) − φ(x_i)‖² = 2 − 2k(z, x_i), so w_i is the
// kernel value k(z, x_i) a pre-image z would have if its image were at Ψ's
// distance from φ(x_i). Mika's fixed point (eq. 13) weighs x_i by
// γ_i k(z_t, x_i) and must iterate; Dambreville et al. replace those weights
// by ones known from Ψ alone, which makes the estimate non-iterative. The
// distances are ‖Ψ − φ(x_i)‖² = k(x_i, x_i) − 2(ΓK)_i + ‖Ψ‖²
// (CostTerms.TrainDist2), for every row of the batch at once.
//
// Interpretations (ambiguity a6 of the paper's transcription: Abrahamsen &
// Hansen give no settings):
//
//   - A feature distance above 2 gives a negative weight, which no kernel
//     value can be; such weights are clipped to 0, so z stays in the convex
//     hull of the training inputs. A row with every weight 0 (Ψ at least
//     √2 from every φ(x_i)) fails with ErrDistanceRange and is set to NaN.
//   - Neighbors = 0 uses all N training points; Neighbors = n > 0 only the
//     n nearest Ψ in feature space (ties to the lower index), capped at N.
//   - GammaWeights multiplies each weight by the expansion coefficient
//     γ_i of Ψ = Σ γ_i φ(x_i), as implementations of Rathi and
//     Dambreville's method do (a reading a reviewer of this code gave, not
//     the formula Abrahamsen & Hansen print); products that are not
//     positive are clipped to 0 as above. Off by default, which is the
//     printed, unweighted form.
//
// Kernels other than the Gaussian are refused: the weight formula needs
// k(x, x) = 1.
type Dambreville struct {
	// Neighbors is the number of nearest training points used; 0 for all.
	Neighbors int
	// GammaWeights multiplies the weights by γ_i (see the reading above).
	GammaWeights bool
}

var _ PreImager = (*Dambreville)(nil)

func init() {
	Register(Spec{
		Name:    "dambreville",
		Title:   "Dambreville et al.",
		Doc:     "direct pre-image: training inputs weighted by ½(2 − feature-space squared distance), weights below 0 set to 0",
		Source:  "Dambreville, Rathi & Tannenbaum (2006), Proc. SPIE 6064; Abrahamsen & Hansen (2011) §3.1",
		Does:    PreImages,
		Kernels: GaussianKernel,
		Params: []Param{
			IntParam("neighbors", 0, 0, Inf, "use only the n nearest training points in feature space; 0 for all").As(NeighborsRole).ZeroMeans("every training point"),
			BoolParam("gamma_weights", false, "multiply each weight by the expansion coefficient γ_i (implementations' reading; the paper's form is unweighted); a product ½(2 − d²)·γ_i ≤ 0 is set to 0, which drops every point with γ_i ≤ 0 (about half the training points on USPS at c = 500, q = 100)"),
		},
		New: func(p Params) (any, error) {
			return &Dambreville{Neighbors: p.Int("neighbors"), GammaWeights: p.Bool("gamma_weights")}, nil
		},
	})
}

// PreImage computes the weighted-mean pre-image of every row of p.
func (db *Dambreville) PreImage(dst *mat.Dense, p *Problem) ([]Status, error) {
	if _, err := gaussianProblem("dambreville", p); err != nil {
		return nil, err
	}
	if db.Neighbors < 0 {
		return nil, fmt.Errorf("dambreville: %d neighbours, want 0 (all) or more", db.Neighbors)
	}
	x := p.Basis.X
	n, _ := x.Dims()
	m := p.M()
	// The weights overwrite the feature distances, row by row.
	w, st, nb := neighbourStart(dst, p, db.Neighbors)
	if nb == 0 { // all
		nb = n
	}
	var idx []int
	keep := make([]bool, n)
	for i := 0; i < m; i++ {
		row := w.RawRowView(i)
		if nb < n {
			idx = nearestK(idx[:0], row, nb)
			for j := range keep {
				keep[j] = false
			}
			for _, j := range idx {
				keep[j] = true
			}
		}
		var sum float64
		nan := false
		for j, f := range row {
			nan = nan || math.IsNaN(f)
			wj := 1 - f/2 // ½(2 − ‖Ψ − φ(x_j)‖²)
			if db.GammaWeights && wj > 0 {
				// A clipped distance weight stays clipped whatever γ_j's sign.
				wj *= p.Gamma.At(i, j)
			}
			if (nb < n && !keep[j]) || !(wj > 0) {
				wj = 0
			}
			row[j] = wj
			sum += wj
		}
		switch {
		case nan:
			st[i].Err = ErrNotFinite
			continue
		case !(sum > 0):
			st[i].Err = ErrDistanceRange
			continue
		}
		floats.Scale(1/sum, row)
	}
	dst.Mul(w, x)
	for i := range st {
		if st[i].Err != nil {
			out := dst.RawRowView(i)
			for c := range out {
				out[c] = math.NaN()
			}
		}
	}
	CheckFinite(dst, st)
	return st, nil
}
