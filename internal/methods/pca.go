package methods

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// PCA is linear principal component analysis of the rows of a training
// matrix: the baseline every kernel method is compared against.
type PCA struct {
	// Mean is the D-vector of column means.
	Mean []float64
	// Values holds the eigenvalues of the (unnormalised) scatter matrix
	// XcᵀXc in decreasing order, positive ones only.
	Values []float64
	// Vectors is D×len(Values); column i is the i-th principal direction.
	Vectors *mat.Dense
}

// FitPCA computes the principal directions of the rows of x by a thin SVD of
// the centred data, so D ≫ N (face images) costs O(N²D), not O(D³).
func FitPCA(x mat.Matrix) (*PCA, error) {
	n, d := x.Dims()
	if n < 2 {
		return nil, fmt.Errorf("methods: PCA needs at least 2 points, have %d", n)
	}
	mean := make([]float64, d)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			mean[j] += x.At(i, j)
		}
	}
	floats.Scale(1/float64(n), mean)
	xc := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			xc.Set(i, j, x.At(i, j)-mean[j])
		}
	}
	sv, v, ok := rightSVD(xc)
	if !ok {
		return nil, errors.New("methods: SVD of the centred data did not converge")
	}
	tol := float64(max(n, d)) * 1e-14 * sv[0]
	k := 0
	for k < len(sv) && sv[k] > tol {
		k++
	}
	if k == 0 {
		return nil, errors.New("methods: all training points coincide")
	}
	p := &PCA{Mean: mean, Values: make([]float64, k), Vectors: mat.NewDense(d, k, nil)}
	for i := 0; i < k; i++ {
		p.Values[i] = sv[i] * sv[i]
	}
	p.Vectors.Copy(v.Slice(0, d, 0, k))
	return p, nil
}

// rightSVD returns the singular values of x in decreasing order and its
// right singular vectors (the columns of v), by a thin SVD; ok is false
// when the SVD did not converge.
func rightSVD(x mat.Matrix) (sv []float64, v *mat.Dense, ok bool) {
	var svd mat.SVD
	if !svd.Factorize(x, mat.SVDThin) {
		return nil, nil, false
	}
	v = &mat.Dense{}
	svd.VTo(v)
	return svd.Values(nil), v, true
}

// Rank returns the number of directions kept.
func (p *PCA) Rank() int { return len(p.Values) }

// Components returns the smallest q holding at least the fraction energy of
// the variance.
func (p *PCA) Components(energy float64) int { return componentsFor(p.Values, energy) }

// Reconstruct writes into dst (empty or the shape of x) the projections of
// the rows of x onto the mean plus the first q principal directions:
// x̂ = μ + V_qV_qᵀ(x − μ).
func (p *PCA) Reconstruct(dst *mat.Dense, x mat.Matrix, q int) {
	if q < 1 || q > p.Rank() {
		panic(fmt.Sprintf("methods: %d components requested, PCA has %d", q, p.Rank()))
	}
	r, d := x.Dims()
	if d != len(p.Mean) {
		panic(fmt.Sprintf("methods: input dimension %d, PCA fitted on %d", d, len(p.Mean)))
	}
	xc := mat.NewDense(r, d, nil)
	for i := 0; i < r; i++ {
		row := xc.RawRowView(i)
		mat.Row(row, i, x)
		floats.Sub(row, p.Mean)
	}
	vq := p.Vectors.Slice(0, d, 0, q)
	var s mat.Dense
	s.Mul(xc, vq)
	useDst(dst, r, d)
	dst.Mul(&s, vq.T())
	for i := 0; i < r; i++ {
		floats.Add(dst.RawRowView(i), p.Mean)
	}
}

// linearPCA returns the linear PCA of in's model (KPCA.LinearPCA) and the
// number of components a linear PCA estimator keeps of it: enough for the
// variance fraction energy if it is positive, else components if
// positive, else the experiment's count in.Q; capped at the rank.
func linearPCA(in *DenoiseInput, energy float64, components int) (*PCA, int, error) {
	p, err := in.Model.LinearPCA()
	if err != nil {
		return nil, 0, err
	}
	var q int
	switch {
	case energy > 0:
		q = p.Components(energy)
	case components > 0:
		q = components
	default:
		q = in.Q
		if q < 1 {
			return nil, 0, fmt.Errorf("%d components requested", q)
		}
	}
	return p, min(q, p.Rank()), nil
}
