package methods

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// TestKPCATopMatchesFull: on problems of the shapes the suite fits (a
// USPS-like 400×256 and 600×64 of U(0, 1) pixels at narrow, median and
// wide Gaussian widths, and 2-D rings), every q for which Alpha takes
// the top-q solver gives the full solver's eigenvectors (Dorgtr and
// Dsteqr on the same reduction), column by column up to sign, to 1e-9
// relative to the column's largest entry: both solvers are backward
// stable (LAPACK Users' Guide §4.7) and their vectors differ by about
// ε·λ_1/gap (Davis–Kahan), at most 2.2e-16/1e-6 ≈ 2e-10 under the gap
// rule; α's scaling by 1/√λ_i is common to both. The components are the
// same ones: the q leading eigenvalues, one set of Values for both.
func TestKPCATopMatchesFull(t *testing.T) {
	rng := rand.New(rand.NewPCG(52, 7))
	uniform := func(r, c int) *mat.Dense {
		x := mat.NewDense(r, c, nil)
		for i := range x.RawMatrix().Data {
			x.RawMatrix().Data[i] = rng.Float64()
		}
		return x
	}
	rings := mat.NewDense(300, 2, nil)
	for i := range 300 {
		r, a := 1+float64(i%2), rng.Float64()*2*math.Pi
		rings.Set(i, 0, r*math.Cos(a)+0.05*rng.NormFloat64())
		rings.Set(i, 1, r*math.Sin(a)+0.05*rng.NormFloat64())
	}
	for _, tc := range []struct {
		name string
		x    *mat.Dense
		cs   []float64
	}{
		{"usps-like 400×256", uniform(400, 256), []float64{256.0 / 60, 256.0 / 6, 2560.0 / 6}},
		{"600×64", uniform(600, 64), []float64{64.0 / 6}},
		{"rings", rings, []float64{0.2, 1}},
	} {
		for _, c := range tc.cs {
			name := fmt.Sprintf("%s c=%.3g", tc.name, c)
			m, err := FitKPCA(tc.x, kernel.Gaussian{C: c})
			if err != nil {
				t.Fatal(err)
			}
			full := m.eig.fullSolve()
			checked := 0
			for _, q := range []int{1, 2, 5, 10, 20, 50, 100, 150} {
				if q > m.Rank() || m.FullSolver(q) {
					continue
				}
				checked++
				top := m.Alpha(q)
				for j := range q {
					a, b := mat.Col(nil, j, top), mat.Col(nil, j, full)
					sign, scale := 1.0, 0.0
					for i, v := range b {
						if math.Abs(v) > scale {
							scale = math.Abs(v)
							if a[i]*v < 0 {
								sign = -1
							} else {
								sign = 1
							}
						}
					}
					var diff float64
					for i := range a {
						diff = math.Max(diff, math.Abs(sign*a[i]-b[i]))
					}
					if diff > 1e-9*scale {
						t.Errorf("%s, q=%d: column %d differs from the full solver's by %.3g (largest entry %.3g)", name, q, j, diff, scale)
					}
				}
			}
			if checked == 0 {
				t.Errorf("%s: no q took the top-q solver", name)
			}
		}
	}
}

// TestKPCAAlphaExtends: the top-q vectors are the same bits whether a
// model is asked for 40 components at once or for 10, then 25, then 40,
// from concurrent callers too; and asking the full solver in between
// changes nothing.
func TestKPCAAlphaExtends(t *testing.T) {
	rng := rand.New(rand.NewPCG(52, 8))
	x := mat.NewDense(300, 30, nil)
	for i := range x.RawMatrix().Data {
		x.RawMatrix().Data[i] = rng.Float64()
	}
	k := kernel.Gaussian{C: 5}
	once, err := FitKPCA(x, k)
	if err != nil {
		t.Fatal(err)
	}
	if once.FullSolver(40) {
		t.Fatal("the fixture must take the top-q solver at q = 40")
	}
	want := mat.DenseCopyOf(once.Alpha(40))
	steps, err := FitKPCA(x, k)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, q := range []int{10, 25, 299, 40, 25} {
		wg.Go(func() { steps.Alpha(q) })
	}
	wg.Wait()
	if got := steps.Alpha(40); !mat.Equal(got, want) {
		t.Error("Alpha(40) after Alpha(10), Alpha(25) and the full solver differs from Alpha(40) asked first")
	}
}

// TestKPCANearDegenerate: points evenly spaced on a circle have a
// circulant Gram matrix, whose eigenvalues come in equal pairs (the cosine
// and sine of each frequency): a q that ends inside a pair, or any q
// beyond the first pair, has a gap below kpcaGapTol, so Alpha takes the
// full solver's vectors, bit for bit, and FullSolver says so; q = 1 (the
// constant is centred away, so the leading eigenvalue is a pair's) too.
func TestKPCANearDegenerate(t *testing.T) {
	const n = 64
	x := mat.NewDense(n, 2, nil)
	for i := range n {
		a := 2 * math.Pi * float64(i) / n
		x.Set(i, 0, math.Cos(a))
		x.Set(i, 1, math.Sin(a))
	}
	m, err := FitKPCA(x, kernel.Gaussian{C: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rel := (m.Values[0] - m.Values[1]) / m.Values[0]; rel > 1e-12 {
		t.Fatalf("the leading eigenvalues %v, %v are not a pair (relative gap %g)", m.Values[0], m.Values[1], rel)
	}
	full := m.eig.fullSolve()
	for _, q := range []int{1, 2, 3, 5} {
		if !m.FullSolver(q) {
			t.Errorf("q=%d: the top-q solver is used with a degenerate pair among the leading eigenvalues", q)
		}
		if !mat.Equal(m.Alpha(q), full.Slice(0, n, 0, q)) {
			t.Errorf("q=%d: Alpha differs from the full solver's vectors", q)
		}
	}
}
