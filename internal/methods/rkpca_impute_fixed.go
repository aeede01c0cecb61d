package methods

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// fixedObservedFit is the C → 0 limit of the masked RKPCA fit (eq. 6 with
// W the mask), the fit RKPCAImpute uses when C = 0.
//
// In eq. 6, z_j ← (a_j x_j + Σ_n w_n d_nj)/(a_j + Σ_n w_n) with
// a_j = (γ₂e/2Cγ)·W_jj² (rkpca.go). As C → 0 the pull a_j of an observed
// entry grows without bound, so z_j = x_j there, while a missing entry has
// a_j = 0 for every C and keeps its update. In the limit the fit is
// therefore
//
//	minimise Eproj(z) = ‖φ(z) − Pφ(z)‖² over the missing entries of z,
//	with the observed entries held at x,
//
// whose fixed point, from ∇Eproj = 4γ Σ_n w_n (z − d_n) restricted to the
// missing coordinates, is
//
//	z_j ← Σ_n w_n d_nj / Σ_n w_n   (j missing),  z_j = x_j  (j observed),
//
// with w_n = Γ_n(z)·k(z, d_n) as in RKPCA. Rows start from in.X0 as given
// (RKPCAImpute's current estimates), iterate together in batches of
// Gram products, converge by acceptStep's rule (the one of Mika and RKPCA)
// and fail with ErrDenominator when |Σ w_n| ≤ eps·Σ|w_n|.
type fixedObservedFit struct {
	MaxIter int
	Tol     float64
	Eps     float64
}

// Denoise runs the limit fit; in.Mask must not be nil (without a mask
// every entry is observed and z = x).
func (f *fixedObservedFit) Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error) {
	return f.denoiseWith(dst, in, new(fixedWork))
}

// denoiseWith is Denoise with the step buffers in fw (RKPCA.denoiseWith).
func (f *fixedObservedFit) denoiseWith(dst *mat.Dense, in *DenoiseInput, fw *fixedWork) ([]Status, error) {
	if err := checkDenoiseInput(in); err != nil {
		return nil, fmt.Errorf("rkpca (C → 0): %w", err)
	}
	if _, ok := gaussianWidth(in.Model.Kernel); !ok {
		return nil, fmt.Errorf("rkpca (C → 0): needs a Gaussian kernel, got %v", in.Model.Kernel)
	}
	if f.MaxIter < 1 {
		return nil, fmt.Errorf("rkpca (C → 0): max_iter %d, want at least 1", f.MaxIter)
	}
	m, d := in.X0.Dims()
	if err := checkMask(in.Mask, m, d); err != nil {
		return nil, fmt.Errorf("rkpca (C → 0): %w", err)
	}
	useDst(dst, m, d)
	dst.Copy(in.X0)
	st := make([]Status, m)
	var act []int // rows with a missing entry, still iterating
	for i := 0; i < m; i++ {
		if in.Mask == nil || floats.Min(in.Mask.RawRowView(i)) == 1 {
			st[i].Converged = true // nothing to fit: z = x
			continue
		}
		if !allFinite(in.X0.RawRowView(i)) {
			st[i].Err = ErrNotFinite
			continue
		}
		act = append(act, i)
	}
	x := in.Model.X
	tol2 := f.Tol * f.Tol
	next := make([]float64, d)
	gw, pw := fw.start(in.Model.Kernel, x)
	// The batch and the products W·D in buffers kept across steps,
	// sliced to the shrinking batch.
	zbuf := make([]float64, len(act)*d)
	nbuf := make([]float64, len(act)*d)
	var za, num mat.Dense // their headers
	for it := 1; it <= f.MaxIter && len(act) > 0; it++ {
		za.SetRawMatrix(blas64.General{Rows: len(act), Cols: d, Stride: d, Data: zbuf[:len(act)*d]})
		for a, i := range act {
			za.SetRow(a, dst.RawRowView(i))
		}
		kz := gw.gram(&za)
		w := pw.gamma(in.Model, kz, in.Q)
		w.MulElem(w, kz) // w_n = Γ_n(z)·k(z, d_n)
		num.SetRawMatrix(blas64.General{Rows: len(act), Cols: d, Stride: d, Data: nbuf[:len(act)*d]})
		gw.combine(&num, w)
		keep := act[:0]
		for a, i := range act {
			wi := w.RawRowView(a)
			s := floats.Sum(wi)
			abs := 0.0
			for _, v := range wi {
				abs += math.Abs(v)
			}
			if !(math.Abs(s) > f.Eps*abs) {
				st[i].Err = ErrDenominator
				continue
			}
			zi := dst.RawRowView(i)
			copy(next, zi)
			for j, o := range in.Mask.RawRowView(i) {
				if o == 0 {
					next[j] = num.At(a, j) / s
				}
			}
			if !acceptStep(&st[i], zi, next, it, tol2) {
				keep = append(keep, i)
			}
		}
		act = keep
	}
	CheckFinite(dst, st)
	return st, nil
}
