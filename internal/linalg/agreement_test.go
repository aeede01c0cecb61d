//go:build openblas

package linalg_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	blasgonum "gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/lapack"
	lapackgonum "gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/linalg"
)

// TestBackendAgreement compares OpenBLAS (registered by the openblas
// build) with gonum's pure-Go BLAS and LAPACK called directly, on seeded
// random matrices:
//   - Dgemm 300×200 by 200×250: 1e-12 relative to max|C| (sums of 200
//     products; the orders of summation differ, so ≈ 200·ε at worst);
//   - Dsyev with vectors of a 300×300 symmetric matrix: eigenvalues to
//     1e-10 relative to the largest magnitude, eigenvectors up to sign to
//     1e-8 (rounding ε·‖A‖ over the smallest gap, ≈ 1e-3·‖A‖ here);
//   - the mat.EigenSym path end to end (it calls lapack64, hence
//     OpenBLAS's dsyevd): A·V = V·diag(w) to 1e-10·‖A‖.
func TestBackendAgreement(t *testing.T) {
	if linalg.Backend() != "openblas" {
		t.Fatalf("Backend() = %q under the openblas tag", linalg.Backend())
	}
	if _, ok := blas64.Implementation().(blasgonum.Implementation); ok {
		t.Fatal("blas64 still uses gonum's pure-Go BLAS")
	}
	rng := rand.New(rand.NewPCG(1, 1))
	const m, k, n = 300, 200, 250
	a, b := randDense(rng, m, k), randDense(rng, k, n)
	ra, rb := a.RawMatrix(), b.RawMatrix()
	want := make([]float64, m*n)
	blasgonum.Implementation{}.Dgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, ra.Data, ra.Stride, rb.Data, rb.Stride, 0, want, n)
	var got mat.Dense
	got.Mul(a, b)
	var scale, diff float64
	for i, v := range want {
		scale = math.Max(scale, math.Abs(v))
		diff = math.Max(diff, math.Abs(got.RawMatrix().Data[i]-v))
	}
	t.Logf("Dgemm: max difference %.2g, max |C| %.2g", diff, scale)
	if diff > 1e-12*scale {
		t.Errorf("Dgemm: OpenBLAS and gonum differ by %g (max |C| %g)", diff, scale)
	}

	const ns = 300
	s := randSym(rng, ns)
	raw := s.RawSymmetric()
	ag := append([]float64(nil), raw.Data...)
	wg := make([]float64, ns)
	work := make([]float64, 1)
	impl := lapackgonum.Implementation{}
	impl.Dsyev(lapack.EVCompute, raw.Uplo, ns, ag, raw.Stride, wg, work, -1)
	work = make([]float64, int(work[0]))
	if !impl.Dsyev(lapack.EVCompute, raw.Uplo, ns, ag, raw.Stride, wg, work, len(work)) {
		t.Fatal("gonum Dsyev did not converge")
	}
	var eig mat.EigenSym
	if !eig.Factorize(s, true) {
		t.Fatal("OpenBLAS dsyevd did not converge")
	}
	wo := eig.Values(nil)
	var vo mat.Dense
	eig.VectorsTo(&vo)
	norm := math.Max(math.Abs(wg[0]), math.Abs(wg[ns-1]))
	var dw, dv float64
	for j := 0; j < ns; j++ {
		dw = math.Max(dw, math.Abs(wo[j]-wg[j]))
		// Align signs on the largest coordinate.
		sg := 1.0
		var big float64
		for i := 0; i < ns; i++ {
			if v := ag[i*raw.Stride+j]; math.Abs(v) > math.Abs(big) {
				big = v
			}
		}
		for i := 0; i < ns; i++ {
			if math.Abs(ag[i*raw.Stride+j]-big) == 0 {
				if vo.At(i, j)*big < 0 {
					sg = -1
				}
				break
			}
		}
		for i := 0; i < ns; i++ {
			dv = math.Max(dv, math.Abs(sg*vo.At(i, j)-ag[i*raw.Stride+j]))
		}
	}
	t.Logf("Dsyev: eigenvalues differ by %.2g (‖A‖ %.2g), eigenvectors by %.2g", dw, norm, dv)
	if dw > 1e-10*norm || dv > 1e-8 {
		t.Errorf("Dsyev: eigenvalues differ by %g (‖A‖ = %g), eigenvectors by %g", dw, norm, dv)
	}
	var av, vw mat.Dense
	av.Mul(s, &vo)
	vw.Mul(&vo, mat.NewDiagDense(ns, wo))
	av.Sub(&av, &vw)
	if r := mat.Norm(&av, math.Inf(1)); r > 1e-10*norm {
		t.Errorf("‖AV − VW‖∞ = %g, want ≤ 1e-10·%g", r, norm)
	}
}
