package methods_test

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

// TestEq23Hand: three points −1, 0, 1 on a line, linear kernel, the path
// graph 0–1–2 (L = [1 −1 0; −1 2 −1; 0 −1 1]), λ = 1/4. By hand: K̂ = xxᵀ
// (x is centred), so K̂(I − λL) has the one nonzero eigenpair
// K̂(I − λL)x = x(xᵀx − λxᵀLx) = (2 − 2λ)x, hence v = x, ω = xᵀ(I − λL)x =
// 2 − 2λ = 3/2, α = x/√(3/2), and a point t gets y = αᵀκ̃(X, t) = αᵀx·t =
// 2t/√(3/2) = 1.63299…·t (Algorithm 1 with the sign of eq. 17). The stated
// objective's unit direction in ℝ¹ gives y = t. At λ = 1 and λ = 2,
// μ = 2 − 2λ is 0 and −2: ω ≤ 0 and Algorithm 1 is undefined.
func TestEq23Hand(t *testing.T) {
	x := mat.NewDense(3, 1, []float64{-1, 0, 1})
	m, err := methods.FitKPCA(x, kernel.Linear{})
	checkNoErr(t, "FitKPCA", err)
	if m.Rank() != 1 {
		t.Fatalf("rank %d, want 1", m.Rank())
	}
	g := &methods.Graph{Adj: [][]int{{1}, {0, 2}, {1}}}
	lp, err := methods.FitLPKPCA(m, g, 0.25, 1)
	checkNoErr(t, "FitLPKPCA", err)
	if math.Abs(lp.Values[0]-1.5) > 1e-12 {
		t.Errorf("μ = %.15g, want 3/2 by hand", lp.Values[0])
	}
	tp := mat.NewDense(2, 1, []float64{2, -0.5})
	var kx mat.Dense
	kernel.Gram(&kx, kernel.Linear{}, tp, x)
	beta := m.BetaGram(&kx, 1)
	y15 := lp.Rotate(beta, 1)
	y23, err := lp.RotateEq23(beta, 1)
	checkNoErr(t, "RotateEq23", err)
	for i, tv := range []float64{2, -0.5} {
		if want := tv; math.Abs(math.Abs(y15.At(i, 0))-math.Abs(want)) > 1e-12 {
			t.Errorf("eq. 15 feature of %g = %.15g, want ±%g", tv, y15.At(i, 0), want)
		}
		if want := 2 * tv / math.Sqrt(1.5); math.Abs(math.Abs(y23.At(i, 0))-math.Abs(want)) > 1e-12 {
			t.Errorf("Algorithm 1 feature of %g = %.15g, want ±%.15g", tv, y23.At(i, 0), want)
		}
	}
	for _, lambda := range []float64{1, 2} {
		bad, err := methods.FitLPKPCA(m, g, lambda, 1)
		checkNoErr(t, "FitLPKPCA", err)
		if _, err := bad.RotateEq23(beta, 1); err == nil {
			t.Errorf("λ = %g: μ = %g ≤ 0 accepted; √ω is undefined", lambda, bad.Values[0])
		}
	}
}

// TestEq23MatchesAlgorithm1: on 25 Gaussian-kernel points and a 3-NN
// graph, RotateEq23 gives the features of Algorithm 1 computed the long
// way: the eigenvectors of the non-symmetric N×N matrix K̂(I − λL) with
// the 3 largest eigenvalues (mat.Eigen), ω_i = v_iᵀ(I − λL)v_i,
// α_i = v_i/√ω_i and y = Qᵀκ̃(X, x) for 6 test points, each column up to
// its sign, to 1e-8 relative.
func TestEq23MatchesAlgorithm1(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	const n, dim, d, lambda = 25, 4, 3, 0.05
	x := randn(rng, n, dim)
	k := medianGaussian(x)
	m, err := methods.FitKPCA(x, k)
	checkNoErr(t, "FitKPCA", err)
	g, err := methods.KNNGraph(x, 3)
	checkNoErr(t, "KNNGraph", err)
	lp, err := methods.FitLPKPCA(m, g, lambda, d)
	checkNoErr(t, "FitLPKPCA", err)
	xt := randn(rng, 6, dim)
	var kx mat.Dense
	kernel.Gram(&kx, k, xt, x)
	got, err := lp.RotateEq23(m.BetaGram(&kx, m.Rank()), d)
	checkNoErr(t, "RotateEq23", err)

	// The long way.
	kc := centredGram(k, x)
	il := mat.NewDense(n, n, nil)
	il.Scale(-lambda, g.Laplacian())
	for i := 0; i < n; i++ {
		il.Set(i, i, il.At(i, i)+1)
	}
	var a mat.Dense
	a.Mul(kc, il)
	var eig mat.Eigen
	if !eig.Factorize(&a, mat.EigenRight) {
		t.Fatal("reference eigendecomposition failed")
	}
	vals := eig.Values(nil)
	var vecs mat.CDense
	eig.VectorsTo(&vecs)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(i, j int) bool { return real(vals[order[i]]) > real(vals[order[j]]) })
	kt := centredTest(&kx, kernel.SelfGram(k, x))
	for c := 0; c < d; c++ {
		j := order[c]
		if math.Abs(imag(vals[j])) > 1e-10 {
			t.Fatalf("eigenvalue %d is complex: %v", c, vals[j])
		}
		if rel := math.Abs(real(vals[j])-lp.Values[c]) / lp.Values[0]; rel > 1e-9 {
			t.Errorf("μ_%d = %.12g, K̂(I − λL) has %.12g", c, lp.Values[c], real(vals[j]))
		}
		v := make([]float64, n)
		for i := range v {
			v[i] = real(vecs.At(i, j))
		}
		vv := mat.NewVecDense(n, v)
		var iv mat.VecDense
		iv.MulVec(il, vv)
		omega := mat.Dot(vv, &iv)
		var want mat.VecDense
		want.MulVec(kt, vv)
		want.ScaleVec(1/math.Sqrt(omega), &want)
		sign := 1.0
		if want.AtVec(0)*got.At(0, c) < 0 {
			sign = -1
		}
		for i := 0; i < 6; i++ {
			if diff := math.Abs(sign*want.AtVec(i) - got.At(i, c)); diff > 1e-8*math.Max(1, math.Abs(got.At(i, c))) {
				t.Errorf("point %d, feature %d: RotateEq23 %.12g, Algorithm 1 %.12g", i, c, got.At(i, c), sign*want.AtVec(i))
			}
		}
	}
}

// centredTest centres test kernel rows kx (M×N) against the training Gram
// matrix g (eq. 10 for a test point): κ̃_j = κ_j − (1/N)Σ_l κ_l −
// (1/N)Σ_i g_ij + (1/N²)Σ_il g_il.
func centredTest(kx *mat.Dense, g *mat.SymDense) *mat.Dense {
	r, n := kx.Dims()
	col := make([]float64, n)
	var all float64
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			col[j] += g.At(i, j) / float64(n)
			all += g.At(i, j) / float64(n*n)
		}
	}
	out := mat.NewDense(r, n, nil)
	for i := 0; i < r; i++ {
		var mu float64
		for j := 0; j < n; j++ {
			mu += kx.At(i, j) / float64(n)
		}
		for j := 0; j < n; j++ {
			out.Set(i, j, kx.At(i, j)-mu-col[j]+all)
		}
	}
	return out
}
