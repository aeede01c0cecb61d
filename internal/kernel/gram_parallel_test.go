package kernel

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/linalg"
	"github.com/runexp/runexp/internal/vecmath"
)

// serialGaussianGram is the Gaussian Gram matrix as Gram computed it
// before its pass went parallel: the product, the row norms, then
// distances and exponentials row by row on one goroutine.
func serialGaussianGram(k Gaussian, a, b *mat.Dense) *mat.Dense {
	ra, _ := a.Dims()
	rb, _ := b.Dims()
	var g mat.Dense
	g.Mul(a, b.T())
	norms := func(m *mat.Dense) []float64 {
		r, _ := m.Dims()
		n := make([]float64, r)
		for i := range n {
			n[i] = floats.Dot(m.RawRowView(i), m.RawRowView(i))
		}
		return n
	}
	na, nb := norms(a), norms(b)
	for i := 0; i < ra; i++ {
		for j := 0; j < rb; j++ {
			v := na[i] + nb[j] - 2*g.At(i, j)
			if v < 0 {
				v = 0
			}
			g.Set(i, j, vecmath.Exp(-v/k.C))
		}
	}
	return &g
}

// TestGramParallelBitIdentical: the parallel pass changes which
// goroutine computes an element, never how, so Gram matches the serial
// computation bit for bit, under every worker count. The sizes exceed
// minParallel (so the pass does split) and gonum's Dgemm block of 64 in
// every dimension.
func TestGramParallelBitIdentical(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 5))
	a, b := randDense(rnd, 301, 97), randDense(rnd, 203, 97)
	k := Gaussian{C: 97.0 / 6}
	if 301*203 < minParallel {
		t.Fatalf("test sizes %d elements do not reach minParallel %d", 301*203, minParallel)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var ref, refD mat.Dense
	runtime.GOMAXPROCS(1)
	Gram(&ref, k, a, b)
	SqDist(&refD, a, b)
	for _, procs := range []int{2, 3, 8} {
		runtime.GOMAXPROCS(procs)
		var g, d mat.Dense
		Gram(&g, k, a, b)
		SqDist(&d, a, b)
		if !mat.Equal(&g, &ref) {
			t.Errorf("Gram with GOMAXPROCS=%d differs from GOMAXPROCS=1", procs)
		}
		if !mat.Equal(&d, &refD) {
			t.Errorf("SqDist with GOMAXPROCS=%d differs from GOMAXPROCS=1", procs)
		}
	}
	if want := serialGaussianGram(k, a, b); !mat.Equal(&ref, want) {
		t.Errorf("Gram differs from the serial computation")
	}
	// An input other than *mat.Dense (a transposed view) takes another
	// product and norm loop, so other rounding: 1e-12 as in
	// TestGramMatchesEval. A matrix with itself shares its norms, which
	// are the same numbers as a copy's.
	var tv, self, selfRef mat.Dense
	Gram(&tv, k, a, mat.DenseCopyOf(b.T()).T())
	if !mat.EqualApprox(&tv, &ref, 1e-12) {
		t.Error("Gram with a transposed view differs by more than 1e-12")
	}
	Gram(&self, k, a, a)
	Gram(&selfRef, k, a, mat.DenseCopyOf(a))
	if !mat.Equal(&self, &selfRef) {
		t.Error("Gram of a with itself differs from Gram with a copy of a")
	}
}

// TestSelfGramGaussian checks the Gaussian SelfGram (one triangle of the
// product and of the exponentials) against the general path, Gram then
// the average of K and Kᵀ. Under gonum's pure-Go BLAS both use Dgemm
// and the result must match bit for bit. Under another BLAS SelfGram
// uses Dsyrk, whose summation order differs from Dgemm's: an entry's
// product xᵢᵀxⱼ (D = 97 products of unit normals, |xᵢᵀxⱼ| ≲ 3·√97
// off the diagonal, ‖xᵢ‖² ≈ 97 on it) moves by at most a few ε·97·4,
// ≈ 1e-13, so the distance by 2e-13 and k = exp(−d²/C) by at most
// 2e-13/C·k ≤ 2e-14: the bound is 1e-13, absolute.
func TestSelfGramGaussian(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 11))
	const n, d = 257, 97
	x := randDense(rnd, n, d)
	k := Gaussian{C: d / 6.0}
	var g mat.Dense
	Gram(&g, k, x, x)
	want := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			want.SetSym(i, j, 0.5*(g.At(i, j)+g.At(j, i)))
		}
	}
	pure := linalg.PureGo()
	// A transposed view is not a *mat.Dense: SelfGram copies it.
	for _, in := range []mat.Matrix{x, mat.DenseCopyOf(x.T()).T()} {
		got := SelfGram(k, in)
		var diff float64
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				diff = math.Max(diff, math.Abs(got.At(i, j)-want.At(i, j)))
			}
		}
		t.Logf("pure-Go BLAS %v: max |SelfGram − averaged Gram| = %.3g", pure, diff)
		if pure {
			if !mat.Equal(got, want) {
				t.Errorf("%T input: SelfGram differs from the averaged Gram (max %g) under pure-Go BLAS, want bit-identical", in, diff)
			}
			// The lower triangle of the backing array stays zero, as
			// SetSym leaves it.
			raw := got.RawSymmetric()
			for i := 1; i < n; i++ {
				for j := 0; j < i; j++ {
					if v := raw.Data[i*raw.Stride+j]; v != 0 {
						t.Fatalf("lower triangle [%d,%d] = %v, want 0", i, j, v)
					}
				}
			}
		} else if diff > 1e-13 {
			t.Errorf("%T input: SelfGram differs from the averaged Gram by %g, want ≤ 1e-13", in, diff)
		}
	}
}
