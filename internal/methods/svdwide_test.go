package methods

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestWideSVD: the SVD through the LQ factorisation has mat.SVD's
// singular values to 1e-13 of the largest (both backward stable: errors
// of ε·‖H‖ times a small multiple, LAPACK Users' Guide §4.9), reproduces
// H = U·Σ·Vᵀ to 1e-13·‖H‖, and U and V have orthonormal columns to 1e-13,
// on wide matrices of Kwok–Tsang's shapes (3–30 neighbours of 256 and
// 1024 pixels), rank-deficient ones (repeated rows) included.
func TestWideSVD(t *testing.T) {
	rng := rand.New(rand.NewPCG(52, 15))
	var w wideSVD
	for _, sz := range [][2]int{{1, 5}, {3, 256}, {10, 256}, {30, 1024}, {12, 12}} {
		for rep := range 3 {
			k, d := sz[0], sz[1]
			h := mat.NewDense(k, d, nil)
			for i := range h.RawMatrix().Data {
				h.RawMatrix().Data[i] = rng.NormFloat64()
			}
			if rep == 2 && k > 2 {
				h.SetRow(1, h.RawRowView(0)) // rank deficient
			}
			if !w.factorize(h) {
				t.Fatalf("%d×%d: no convergence", k, d)
			}
			var ref mat.SVD
			if !ref.Factorize(h, mat.SVDThin) {
				t.Fatal("mat.SVD did not converge")
			}
			want := ref.Values(nil)
			for i := range want {
				if math.Abs(w.s[i]-want[i]) > 1e-13*want[0] {
					t.Errorf("%d×%d: σ_%d = %v, mat.SVD %v", k, d, i, w.s[i], want[i])
				}
			}
			var us, usv mat.Dense
			us.Mul(&w.u, mat.NewDiagDense(k, w.s))
			usv.Mul(&us, w.v.T())
			usv.Sub(&usv, h)
			if e := mat.Norm(&usv, math.Inf(1)); e > 1e-13*mat.Norm(h, math.Inf(1)) {
				t.Errorf("%d×%d: ‖UΣVᵀ − H‖∞ = %g", k, d, e)
			}
			for _, q := range []*mat.Dense{&w.u, &w.v} {
				var g mat.Dense
				g.Mul(q.T(), q)
				for i := range k {
					g.Set(i, i, g.At(i, i)-1)
				}
				if e := mat.Norm(&g, math.Inf(1)); e > 1e-13 {
					t.Errorf("%d×%d: columns off orthonormal by %g", k, d, e)
				}
			}
		}
	}
}
