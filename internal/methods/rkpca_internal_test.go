package methods

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/linalg"
)

// The Geman–McClure scale of Nguyen & De la Torre §3.3 is
// σ = 1.4826·median|z_i − x_i|. Hand-worked: residuals z − x =
// (3, −1, 4, −1, 5) have |·| = (3, 1, 4, 1, 5), sorted (1, 1, 3, 4, 5),
// median 3, σ = 4.4478. Masking the 4 (entry 2) leaves (1, 1, 3, 5), an even
// count, median (1 + 3)/2 = 2, σ = 2.9652.
func TestGemanMcClureScale(t *testing.T) {
	z := []float64{3, 0, 4, 1, 5}
	x := []float64{0, 1, 0, 2, 0}
	res := make([]float64, len(z))
	if got, want := gemanMcClureScale(res, z, x, nil), 4.4478; math.Abs(got-want) > 1e-12 {
		t.Errorf("σ = %v, want %v", got, want)
	}
	obs := []float64{1, 1, 0, 1, 1}
	if got, want := gemanMcClureScale(res, z, x, obs), 2.9652; math.Abs(got-want) > 1e-12 {
		t.Errorf("masked σ = %v, want %v", got, want)
	}
	if got := gemanMcClureScale(res, z, x, []float64{0, 0, 0, 0, 0}); got != 0 {
		t.Errorf("σ with nothing observed = %v, want 0", got)
	}
}

// TestSelectKthMatchesSort: selectKth returns the order statistic sorting
// gives, on seeded random data with many ties, every k, lengths 1–40.
func TestSelectKthMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for n := 1; n <= 40; n++ {
		for trial := 0; trial < 20; trial++ {
			a := make([]float64, n)
			for i := range a {
				a[i] = float64(rng.IntN(7)) * 0.25
			}
			sorted := slices.Clone(a)
			slices.Sort(sorted)
			for k := 0; k < n; k++ {
				b := slices.Clone(a)
				if got := selectKth(b, k); got != sorted[k] {
					t.Fatalf("n=%d k=%d: %v, want %v (input %v)", n, k, got, sorted[k], a)
				}
				if k > 0 && slices.Max(b[:k]) != sorted[k-1] {
					t.Fatalf("n=%d k=%d: max below k is %v, want %v", n, k, slices.Max(b[:k]), sorted[k-1])
				}
			}
		}
	}
}

// TestSelfGramSubBlock checks what RKPCAImpute relies on when it takes each
// partition's Gram matrix from the one of all the current estimates: under
// the pure-Go backend, the Gram matrix of a subset of rows (in their
// order) is the sub-block of the full one bit for bit, at any size
// (sharedGramExact says so). Sizes: Table 1's (100 points in 12-D, 90
// kept), subsets on both sides of the packed product's blocks and of its
// threshold for going parallel, and d > 64 (which gonum's blocked Dgemm,
// used before, summed in 64-wide pieces and rounded differently in a
// serial subset of a parallel whole). Tolerance: none.
func TestSelfGramSubBlock(t *testing.T) {
	if !linalg.PureGo() {
		t.Skip("another BLAS implementation may round a sub-block differently")
	}
	rng := rand.New(rand.NewPCG(8, 3))
	k := kernel.NewGaussianGamma(0.0375)
	for _, c := range []struct {
		n, d, keep int
		exact      bool
	}{{100, 12, 90, true}, {100, 12, 40, true}, {400, 20, 300, true}, {200, 100, 180, true}, {100, 100, 60, true}, {700, 300, 100, true}} {
		if got := sharedGramExact(c.n, c.d, c.keep); got != c.exact {
			t.Fatalf("sharedGramExact(%d, %d, %d) = %v, want %v", c.n, c.d, c.keep, got, c.exact)
		}
		x := mat.NewDense(c.n, c.d, nil)
		for i := range x.RawMatrix().Data {
			x.RawMatrix().Data[i] = rng.Float64()
		}
		rows := rng.Perm(c.n)[:c.keep]
		slices.Sort(rows)
		sub := mat.NewDense(c.keep, c.d, nil)
		for a, i := range rows {
			sub.SetRow(a, x.RawRowView(i))
		}
		full, want := kernel.SelfGram(k, x), kernel.SelfGram(k, sub)
		same := true
		for a, i := range rows {
			for b, j := range rows {
				if math.Float64bits(full.At(i, j)) != math.Float64bits(want.At(a, b)) {
					same = false
				}
			}
		}
		if same != c.exact {
			t.Errorf("%d of %d points in %d-D: sub-block bit-identical %v, want %v", c.keep, c.n, c.d, same, c.exact)
		}
	}
}

// TestGramWorkIsGram checks that the fixed points' kernel rows (gramWork)
// are kernel.Gram's bit for bit: serial (below kernel.Gram's 16 384
// entries) and parallel sizes, rows scaled by 0.1 to 10, a
// batch shrinking across calls as the fixed points' does (the buffer
// reused), and a kernel that is not a kernel.Gaussian value (passed on
// to kernel.Gram).
func TestGramWorkIsGram(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 2))
	fill := func(r, c int) *mat.Dense {
		m := mat.NewDense(r, c, nil)
		for i := 0; i < r; i++ {
			s := math.Pow(10, 2*rng.Float64()-1)
			for j := 0; j < c; j++ {
				m.Set(i, j, s*rng.NormFloat64())
			}
		}
		return m
	}
	for _, tc := range []struct {
		n, d int
		k    kernel.Kernel
	}{
		{90, 12, kernel.Gaussian{C: 1 / 0.0375}},
		{700, 40, kernel.Gaussian{C: 30}},
		{50, 8, &kernel.Gaussian{C: 3}},
	} {
		x := fill(tc.n, tc.d)
		w := newGramWork(tc.k, x)
		for _, m := range []int{40, 25, 3} {
			z := fill(m, tc.d)
			got := w.gram(z)
			var want mat.Dense
			kernel.Gram(&want, tc.k, z, x)
			r, c := want.Dims()
			if gr, gc := got.Dims(); gr != r || gc != c {
				t.Fatalf("n=%d m=%d: %d×%d, want %d×%d", tc.n, m, gr, gc, r, c)
			}
			for i := 0; i < r; i++ {
				for j := 0; j < c; j++ {
					if math.Float64bits(got.At(i, j)) != math.Float64bits(want.At(i, j)) {
						t.Fatalf("n=%d m=%d (%d, %d): %v, kernel.Gram %v", tc.n, m, i, j, got.At(i, j), want.At(i, j))
					}
				}
			}
		}
	}
}

// TestProjWorkIsProjectGram checks that the fixed points' projections
// (projWork, whose headers and Alpha view are kept across calls) are
// KPCA.ProjectGram's exactly (mat.Equal) as the batch shrinks, the number of
// components changes and the model changes, so a view kept from an
// earlier model or q would show.
func TestProjWorkIsProjectGram(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 3))
	k := kernel.Gaussian{C: 5}
	var models []*KPCA
	for _, n := range []int{60, 45} {
		m, err := FitKPCA(mat.NewDense(n, 4, normals(rng, n*4)), k)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, m)
	}
	var w projWork
	for _, tc := range []struct{ model, q, r int }{
		{0, 5, 30}, {0, 5, 20}, {0, 3, 20}, {1, 3, 20}, {1, 7, 2}, {0, 7, 25},
	} {
		m := models[tc.model]
		var kx mat.Dense
		kernel.Gram(&kx, k, mat.NewDense(tc.r, 4, normals(rng, tc.r*4)), m.X)
		got := w.gamma(m, &kx, tc.q)
		want := m.ProjectGram(&kx, tc.q).Gamma
		if !mat.Equal(got, want) {
			t.Fatalf("model %d, q=%d, %d rows: Γ differs from ProjectGram's by %v", tc.model, tc.q, tc.r, maxAbsDiff(got, want))
		}
	}
}

// TestFixedWorkIsFresh checks that RKPCA's and the C → 0 fit's steps
// with one fixedWork kept across fits, as Algorithm 1 keeps it across
// partitions, give what Denoise gives with its own, bit for bit (z and
// every status), with the work's buffers filled with NaN before each fit
// and the training set, its size, the number of inputs and q changing
// from fit to fit.
func TestFixedWorkIsFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 4))
	const d = 5
	k := kernel.NewGaussianGamma(0.2)
	var fw fixedWork
	for i, tc := range []struct{ n, m, q int }{{60, 12, 4}, {60, 7, 4}, {30, 20, 6}, {80, 3, 2}, {60, 12, 5}} {
		m, err := FitKPCA(mat.NewDense(tc.n, d, normals(rng, tc.n*d)), k)
		if err != nil {
			t.Fatal(err)
		}
		x := mat.NewDense(tc.m, d, normals(rng, tc.m*d))
		mask := mat.NewDense(tc.m, d, nil)
		for j := range mask.RawMatrix().Data {
			if rng.Float64() < 0.7 {
				mask.RawMatrix().Data[j] = 1
			}
		}
		in := &DenoiseInput{Model: m, Q: tc.q, X0: x, Mask: mask}
		for _, f := range []struct {
			name string
			fit  interface {
				Denoiser
				denoiseWith(*mat.Dense, *DenoiseInput, *fixedWork) ([]Status, error)
			}
		}{
			{"rkpca", &RKPCA{Gamma2: 0.2, C: 1, E0: E0L2, Start: StartFilled, MaxIter: 50, Tol: 1e-6, Eps: 1e-12}},
			{"C → 0", &fixedObservedFit{MaxIter: 50, Tol: 1e-6, Eps: 1e-12}},
		} {
			var want, got mat.Dense
			wst, err := f.fit.Denoise(&want, in)
			if err != nil {
				t.Fatal(err)
			}
			poisonFloats(reflect.ValueOf(&fw).Elem())
			gst, err := f.fit.denoiseWith(&got, in, &fw)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(gst, wst) {
				t.Errorf("fit %d, %s: statuses differ with a kept work", i, f.name)
			}
			for j, v := range got.RawMatrix().Data {
				if math.Float64bits(v) != math.Float64bits(want.RawMatrix().Data[j]) {
					t.Fatalf("fit %d, %s: z differs with a kept work at %d: %v, %v", i, f.name, j, v, want.RawMatrix().Data[j])
				}
			}
		}
	}
}
