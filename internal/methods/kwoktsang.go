package methods

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// KwokTsang is the distance-constraint pre-image of Kwok & Tsang (2004),
// called "D-C(n)" by Zheng & Lai, where n is the number of neighbours.
//
// For each Ψ it takes the Neighbors training images nearest Ψ in feature
// space, turns their feature-space distances f_i = ‖Ψ − φ(x_i)‖² into
// input-space distances d_i² through the kernel's distance relation (for the
// Gaussian, d² = −c log(1 − f/2); kernel.DistanceInverter), and finds the
// point whose distances to the neighbours best match d_i², in the manner of
// multidimensional scaling: with the neighbours
// centred at their mean x̄, H = [x_1−x̄, …, x_n−x̄] = UΣVᵀ (thin SVD),
// Z = ΣVᵀ the neighbours' coordinates in the basis U and d0_i² = ‖z_i‖²,
//
//	z = −½ Σ⁻¹ Vᵀ (d² − d0²)    (Kwok & Tsang eq. 16),
//
// and the pre-image is U z + x̄. Only the numerically nonzero singular
// values enter Σ⁻¹ (σ > max(n, D)·ε·σ_max), so the pre-image lies in the
// affine span of the neighbours.
//
// Interpretations:
//
//   - Neighbors larger than the number of training points N uses all N, so
//     a sweep over n (Zheng & Lai sweep 3…30) runs on any training set.
//   - A neighbour whose feature distance lies outside the kernel's range
//     (for the Gaussian kernel, ‖Ψ−φ(x_i)‖² ≥ 2) maps to an infinite input
//     distance, a constraint no point satisfies. Such neighbours are
//     dropped; as neighbours are taken nearest first, this uses the nearest
//     neighbours whose distance is in range. A row with none fails with
//     ErrDistanceRange and is set to NaN.
//   - With a single usable neighbour the pre-image is that neighbour.
//
// Kernels that do not implement kernel.DistanceInverter are refused.
type KwokTsang struct {
	// Neighbors is the number n of nearest training points used (≥ 1).
	Neighbors int
}

var _ PreImager = (*KwokTsang)(nil)

// ErrDistanceRange is the status of a Kwok–Tsang row none of whose
// neighbours' feature-space distances the kernel can map to an input-space
// distance.
var ErrDistanceRange = errors.New("feature-space distances outside the kernel's range")

func init() {
	Register(Spec{
		Name:    "kwok-tsang",
		Title:   "Kwok–Tsang",
		Doc:     "distance-constraint pre-image from the n nearest training points (D-C(n))",
		Source:  "Kwok & Tsang (2004), IEEE Trans. Neural Netw. 15(6), eq. 16",
		Does:    PreImages,
		Kernels: DistanceKernel,
		Params: []Param{
			IntParam("neighbors", 10, 1, Inf, "number of nearest training points in feature space (capped at N)").As(NeighborsRole),
		},
		New: func(p Params) (any, error) {
			return &KwokTsang{Neighbors: p.Int("neighbors")}, nil
		},
	})
}

// PreImage computes the distance-constraint pre-image of every row of p.
func (kt *KwokTsang) PreImage(dst *mat.Dense, p *Problem) ([]Status, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	inv, ok := p.Basis.Kernel.(kernel.DistanceInverter)
	if !ok {
		return nil, fmt.Errorf("kwok-tsang: needs a kernel that maps feature-space to input-space distances, got %v", p.Basis.Kernel)
	}
	if kt.Neighbors < 1 {
		return nil, fmt.Errorf("kwok-tsang: %d neighbours, want at least 1", kt.Neighbors)
	}
	x := p.Basis.X
	_, d := x.Dims()
	m := p.M()
	f, st, nb := neighbourStart(dst, p, kt.Neighbors)
	idx := make([]int, 0, nb)
	d2 := make([]float64, nb)
	ht := mat.NewDense(nb, d, nil) // Hᵀ: centred neighbours, one per row
	var svd mat.SVD
	var ws wideSVD
	var a, b mat.Dense
	for i := 0; i < m; i++ {
		out := dst.RawRowView(i)
		idx = nearestK(idx[:0], f.RawRowView(i), nb)
		k := 0
		for _, j := range idx {
			v, ok := inv.InputDist2(f.At(i, j))
			if !ok {
				break // the rest are farther still
			}
			d2[k] = v
			k++
		}
		if k == 0 {
			st[i].Err = ErrDistanceRange
			for c := range out {
				out[c] = math.NaN()
			}
			continue
		}
		// x̄ and H for the k usable neighbours.
		for c := range out {
			out[c] = 0
		}
		for _, j := range idx[:k] {
			floats.Add(out, x.RawRowView(j))
		}
		floats.Scale(1/float64(k), out)
		if k == 1 {
			continue
		}
		h := ht.Slice(0, k, 0, d).(*mat.Dense)
		for r, j := range idx[:k] {
			floats.SubTo(h.RawRowView(r), x.RawRowView(j), out)
		}
		// Hᵀ = A S Bᵀ, so H = B S Aᵀ: Kwok & Tsang's U is B and V is A.
		// Hᵀ is wide (k ≤ 30 neighbours, D pixels): through its LQ
		// factorisation (wideSVD), else mat.SVD.
		var s []float64
		a.Reset()
		b.Reset()
		if k <= d {
			if !ws.factorize(h) {
				st[i].Err = errors.New("kwok-tsang: SVD of the neighbours did not converge")
				continue
			}
			s = ws.s
			a.CloneFrom(&ws.u) // k×k
			b.CloneFrom(&ws.v) // D×k
		} else {
			if !svd.Factorize(h, mat.SVDThin) {
				st[i].Err = errors.New("kwok-tsang: SVD of the neighbours did not converge")
				continue
			}
			s = svd.Values(nil)
			svd.UTo(&a) // k×r
			svd.VTo(&b) // D×r
		}
		// Keep the numerically nonzero singular values (LAPACK's rank rule).
		tol := float64(max(k, d)) * 0x1p-52 * s[0]
		r := 0
		for r < len(s) && s[r] > tol {
			r++
		}
		if r == 0 {
			continue // all neighbours coincide: x̄
		}
		// d0_j² = ‖z_j‖², z_j the j-th column of Z = ΣVᵀ.
		for j := 0; j < k; j++ {
			var d0 float64
			for l := 0; l < r; l++ {
				zl := s[l] * a.At(j, l)
				d0 += zl * zl
			}
			d2[j] -= d0
		}
		// z_l = −½ σ_l⁻¹ Σ_j V_jl (d_j² − d0_j²); pre-image x̄ + Σ_l z_l U_{:,l}.
		for l := 0; l < r; l++ {
			var vd float64
			for j := 0; j < k; j++ {
				vd += a.At(j, l) * d2[j]
			}
			zl := -0.5 * vd / s[l]
			for c := range out {
				out[c] += zl * b.At(c, l)
			}
		}
	}
	CheckFinite(dst, st)
	return st, nil
}

// neighbourStart begins a pre-imager that works from each row's k nearest
// training points (Kwok & Tsang, RLPL, Dambreville): it sizes dst for p's
// batch (M×D) and returns the feature-space squared distances of every
// Ψ_i to every φ(x_j) (M×N: one product, already done by NewCostTerms),
// the rows' statuses to fill in, and k capped at N.
func neighbourStart(dst *mat.Dense, p *Problem, k int) (*mat.Dense, []Status, int) {
	n, d := p.Basis.X.Dims()
	m := p.M()
	useDst(dst, m, d)
	var f mat.Dense
	p.Terms.TrainDist2(&f, p.Basis.Diag)
	return &f, make([]Status, m), min(k, n)
}

// nearestK appends to dst the indices of the k smallest values of f in
// increasing order, ties going to the lower index. NaNs are never chosen.
func nearestK(dst []int, f []float64, k int) []int {
	for j, v := range f {
		if !(v == v) {
			continue
		}
		if len(dst) == k && !(v < f[dst[k-1]]) {
			continue
		}
		if len(dst) < k {
			dst = append(dst, j)
		} else {
			dst[k-1] = j
		}
		// Insertion step: strict < keeps earlier indices first among ties.
		for p := len(dst) - 1; p > 0 && v < f[dst[p-1]]; p-- {
			dst[p], dst[p-1] = dst[p-1], dst[p]
		}
	}
	return dst
}
