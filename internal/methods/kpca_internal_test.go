package methods

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// TestFitKPCAGramEnergy checks the truncated fit of RKPCA's imputation
// against the full one: the same q, the same leading eigenvalues and the
// same projections Γ (which do not depend on the eigenvectors' signs) to
// rounding. Tolerance 1e-9 relative: both are backward stable
// eigensolvers (LAPACK Users' Guide §4.7), and inverse iteration's vectors
// differ from QR's by ε‖K̃‖/gap, with gaps here far above 1e-6‖K̃‖.
func TestFitKPCAGramEnergy(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, tc := range []struct {
		n, d   int
		energy float64
	}{{90, 12, 0.9}, {90, 12, 0.99}, {40, 5, 1}, {120, 3, 0.5}} {
		x := mat.NewDense(tc.n, tc.d, normals(rng, tc.n*tc.d))
		k := kernel.NewGaussianGamma(0.3)
		g := kernel.SelfGram(k, x)
		full, err := FitKPCAGram(x, k, g)
		if err != nil {
			t.Fatal(err)
		}
		top, q, err := fitKPCAGramEnergy(x, k, mat.NewSymDense(tc.n, append([]float64(nil), g.RawSymmetric().Data...)), tc.energy)
		if err != nil {
			t.Fatal(err)
		}
		if want := full.Components(tc.energy); q != want || top.Rank() != q {
			t.Fatalf("n=%d energy=%v: q %d (rank %d), full fit's Components %d", tc.n, tc.energy, q, top.Rank(), want)
		}
		for i := 0; i < q; i++ {
			if d := math.Abs(top.Values[i] - full.Values[i]); d > 1e-9*full.Values[0] {
				t.Errorf("n=%d: eigenvalue %d: %v, full %v", tc.n, i, top.Values[i], full.Values[i])
			}
		}
		test := mat.NewDense(7, tc.d, normals(rng, 7*tc.d))
		a, b := top.Project(test, q).Gamma, full.Project(test, q).Gamma
		if !mat.EqualApprox(a, b, 1e-9*mat.Norm(b, math.Inf(1))) {
			t.Errorf("n=%d energy=%v: projections differ by %v", tc.n, tc.energy, maxAbsDiff(a, b))
		}
	}
}

func maxAbsDiff(a, b mat.Matrix) float64 {
	var d mat.Dense
	d.Sub(a, b)
	return mat.Norm(&d, math.Inf(1))
}

// normals returns n standard normal draws.
func normals(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.NormFloat64()
	}
	return v
}

// TestKPCAWorkIsFresh checks that a kpcaWork reused across fits of
// different sizes (Algorithm 1 keeps one for all its partitions) gives
// what a new one gives, bit for bit, even when every buffer it holds is
// first filled with NaN (so a value read before it is written shows), and
// that a model it fitted is unchanged by the fits after it (so a model
// holds none of the work's buffers).
func TestKPCAWorkIsFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	type fit struct {
		m    *KPCA
		q    int
		want *KPCA // the same fit with a new work
	}
	var w kpcaWork
	var fits []fit
	for _, tc := range []struct {
		n, d   int
		energy float64
	}{{90, 12, 0.9}, {90, 12, 0.99}, {40, 5, 1}, {120, 3, 0.5}, {2, 4, 1}, {7, 2, 0.9}, {90, 12, 0.9}} {
		x := mat.NewDense(tc.n, tc.d, normals(rng, tc.n*tc.d))
		k := kernel.NewGaussianGamma(0.3)
		g := kernel.SelfGram(k, x)
		want, wq, err := fitKPCAGramEnergy(x, k, mat.NewSymDense(tc.n, append([]float64(nil), g.RawSymmetric().Data...)), tc.energy)
		if err != nil {
			t.Fatal(err)
		}
		poisonFloats(reflect.ValueOf(&w).Elem())
		m, q, err := w.fitEnergy(x, k, g, tc.energy)
		if err != nil {
			t.Fatal(err)
		}
		if q != wq {
			t.Fatalf("n=%d: q %d with a reused work, %d with a new one", tc.n, q, wq)
		}
		fits = append(fits, fit{m, q, want})
		for i, f := range fits {
			if d := sameKPCABits(f.m, f.want); d != "" {
				t.Errorf("fit %d (n=%d), after fit %d: %s", i, f.m.N(), len(fits)-1, d)
			}
		}
	}
}

// sameKPCABits says how a's fitted numbers differ from b's bit for bit,
// or "" if they do not.
func sameKPCABits(a, b *KPCA) string {
	same := func(x, y []float64) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				return false
			}
		}
		return true
	}
	switch {
	case !same(a.Values, b.Values):
		return "eigenvalues differ"
	case !mat.Equal(a.Alpha(a.Rank()), b.Alpha(b.Rank())):
		return "alpha differs"
	case !same(a.colMean, b.colMean) || !same(a.diag, b.diag) || math.Float64bits(a.allMean) != math.Float64bits(b.allMean):
		return "means or diagonal differ"
	}
	return ""
}

// poisonFloats sets every element, up to capacity, of every []float64
// reachable through v's fields (exported or not) to NaN.
func poisonFloats(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			poisonFloats(reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem())
		}
	case reflect.Slice:
		if s, ok := v.Interface().([]float64); ok {
			s = s[:cap(s)]
			for i := range s {
				s[i] = math.NaN()
			}
		}
	}
}
