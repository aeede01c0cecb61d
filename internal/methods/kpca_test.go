package methods_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

// kpcaFixture is a seeded training set of N = 20 points in D = 5 and six
// test points, with the median-width Gaussian kernel.
func kpcaFixture() (x, test *mat.Dense, g kernel.Gaussian) {
	rng := rand.New(rand.NewPCG(1, 1))
	x = randn(rng, 20, 5)
	test = randn(rng, 6, 5)
	return x, test, medianGaussian(x)
}

// centred returns K̃ = (I − 11ᵀ/N) K (I − 11ᵀ/N), computed independently of
// FitKPCA's formula (Abrahamsen & Hansen eq. 1).
func centred(k mat.Symmetric) *mat.Dense {
	n := k.SymmetricDim()
	h := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			h.Set(i, j, -1/float64(n))
		}
		h.Set(i, i, 1-1/float64(n))
	}
	var kc mat.Dense
	kc.Mul(h, k)
	kc.Mul(&kc, h)
	return &kc
}

// TestKPCAOrthonormal checks that the feature-space eigenvectors
// v_i = Σ_n α_in φ̃(x_n) are orthonormal: v_iᵀv_j = α_iᵀK̃α_j = δ_ij (the
// normalisation of α stated in KPCA.Alpha, eq. 1–2).
func TestKPCAOrthonormal(t *testing.T) {
	x, _, g := kpcaFixture()
	for _, k := range []kernel.Kernel{g, kernel.Linear{}} {
		m, err := methods.FitKPCA(x, k)
		checkNoErr(t, "FitKPCA", err)
		// Both eigensolvers: the top-q one for a few components, the
		// full one for all of them (KPCA.FullSolver).
		for _, r := range []int{min(3, m.Rank()), m.Rank()} {
			a := m.Alpha(r)
			var akt, gram mat.Dense
			akt.Mul(a.T(), centred(m.K))
			gram.Mul(&akt, a)
			// Tolerance: α_i carries 1/√λ_i, so rounding of order ε·λ_max in K̃
			// is amplified by λ_max/λ_min (about 130 for the Gaussian here, to
			// 3e-14): 1e-12 absolute.
			const tol = 1e-12
			for i := 0; i < r; i++ {
				for j := 0; j < r; j++ {
					want := 0.0
					if i == j {
						want = 1
					}
					if got := gram.At(i, j); !scalar.EqualWithinAbs(got, want, tol) {
						t.Errorf("%v, %d components (full solver %v): v_%dᵀv_%d = %v, want %v", k, r, m.FullSolver(r), i, j, got, want)
					}
				}
			}
		}
	}
}

// TestKPCACentring checks that the kernel principal components are centred:
// K̃1 = 0, so eigenvectors with λ > 0 are orthogonal to 1 (Σ_n α_in = 0) and
// the coordinates β of the training points sum to zero over the training
// set (eq. 2).
func TestKPCACentring(t *testing.T) {
	x, _, g := kpcaFixture()
	m, err := methods.FitKPCA(x, g)
	checkNoErr(t, "FitKPCA", err)
	n := m.N()
	p := m.Project(x, m.Rank())
	for i := 0; i < m.Rank(); i++ {
		// Tolerance: N·ε times the size of the summands (|α| ≤ 1/√λ_min,
		// |β| ≤ √λ_max), rounded up to 1e-10.
		if s := floats.Sum(mat.Col(nil, i, m.Alpha(m.Rank()))); math.Abs(s) > 1e-10 {
			t.Errorf("Σ_n α_n%d = %v, want 0", i, s)
		}
		if s := floats.Sum(mat.Col(nil, i, p.Beta)); math.Abs(s) > 1e-10 {
			t.Errorf("Σ_m β_m%d over the %d training points = %v, want 0", i, n, s)
		}
	}
}

// TestKPCATrainingPointsReproduced checks that projecting a training point
// onto all components leaves its image unchanged: φ(x_j) lies in
// φ̄ + span{φ̃(x_n)}, so R(x_j) = ‖φ(x_j) − P_Nφ(x_j)‖² = 0 (eq. 11).
func TestKPCATrainingPointsReproduced(t *testing.T) {
	x, _, g := kpcaFixture()
	for _, k := range []kernel.Kernel{g, kernel.Linear{}} {
		m, err := methods.FitKPCA(x, k)
		checkNoErr(t, "FitKPCA", err)
		p := m.Project(x, m.Rank())
		terms := methods.NewCostTerms(m.K, p.Gamma)
		r := methods.FeatureDist2(m.Basis(), x, p.Gamma, terms.Norm2)
		for j, v := range r {
			// Tolerance: R is a difference of O(‖φ‖²) terms (1 for the
			// Gaussian, ~5 for the linear kernel here): 1e-10 absolute.
			if math.Abs(v) > 1e-10 {
				t.Errorf("%v: R(x_%d) = %v, want 0", k, j, v)
			}
		}
	}
}

// TestKPCAGammaSumsToOne checks the mean term of eq. 10:
// Σ_n γ_n = Σ_n γ̃_n + (1 − Σ_j γ̃_j) = 1 for any input and q.
func TestKPCAGammaSumsToOne(t *testing.T) {
	x, test, g := kpcaFixture()
	m, err := methods.FitKPCA(x, g)
	checkNoErr(t, "FitKPCA", err)
	for _, q := range []int{1, 3, m.Rank()} {
		p := m.Project(test, q)
		for i := 0; i < 6; i++ {
			// Tolerance: N = 20 additions of O(1) terms, 1e-12.
			if s := floats.Sum(p.Gamma.RawRowView(i)); !scalar.EqualWithinAbs(s, 1, 1e-12) {
				t.Errorf("q=%d: Σ_n γ_%dn = %v, want 1", q, i, s)
			}
		}
	}
}

// TestKPCAComponents checks the energy rule on a data set whose eigenvalues
// are known by hand: the four points (±√3, 0), (0, ±1) have mean 0 and
// scatter diag(2·3, 2·1), so the linear-kernel eigenvalues are 6 and 2, and
// the leading component holds 6/8 = 0.75 of the energy.
func TestKPCAComponents(t *testing.T) {
	s3 := math.Sqrt(3)
	x := mat.NewDense(4, 2, []float64{s3, 0, -s3, 0, 0, 1, 0, -1})
	m, err := methods.FitKPCA(x, kernel.Linear{})
	checkNoErr(t, "FitKPCA", err)
	if m.Rank() != 2 || !scalar.EqualWithinRel(m.Values[0], 6, 1e-14) || !scalar.EqualWithinRel(m.Values[1], 2, 1e-14) {
		t.Fatalf("eigenvalues %v, want [6 2] (hand-derived)", m.Values)
	}
	for _, tc := range []struct {
		energy float64
		want   int
	}{
		{0.1, 1}, {0.5, 1}, {0.75, 1}, {0.76, 2}, {1, 2},
	} {
		if got := m.Components(tc.energy); got != tc.want {
			t.Errorf("Components(%v) = %d, want %d", tc.energy, got, tc.want)
		}
	}
}

// TestKPCALinearIsPCA checks that kernel PCA with the linear kernel is
// linear PCA: the nonzero eigenvalues of K̃ = XcXcᵀ are those of the
// scatter XcᵀXc.
func TestKPCALinearIsPCA(t *testing.T) {
	x, _, _ := kpcaFixture()
	m, err := methods.FitKPCA(x, kernel.Linear{})
	checkNoErr(t, "FitKPCA", err)
	pca, err := m.LinearPCA()
	checkNoErr(t, "LinearPCA", err)
	if m.Rank() != pca.Rank() {
		t.Fatalf("kernel PCA rank %d, PCA rank %d", m.Rank(), pca.Rank())
	}
	for i, v := range m.Values {
		// Tolerance: eigen- and singular-value solvers agree to a few
		// hundred ε relative.
		if !scalar.EqualWithinRel(v, pca.Values[i], 1e-12) {
			t.Errorf("eigenvalue %d: kernel PCA %v, PCA %v", i, v, pca.Values[i])
		}
	}
}

// TestKPCALinearClosedForm checks the closed form of the linear kernel:
// φ is the identity, so P_qφ(x) = Σ_n γ_n x_n = ΓX must be the PCA
// reconstruction μ + V_qV_qᵀ(x − μ) for every q below the rank.
func TestKPCALinearClosedForm(t *testing.T) {
	x, test, _ := kpcaFixture()
	m, err := methods.FitKPCA(x, kernel.Linear{})
	checkNoErr(t, "FitKPCA", err)
	pca, err := m.LinearPCA()
	checkNoErr(t, "LinearPCA", err)
	for q := 1; q < pca.Rank(); q++ {
		p := m.Project(test, q)
		var gx, want mat.Dense
		gx.Mul(p.Gamma, x)
		pca.Reconstruct(&want, test, q)
		// Tolerance: both sides are O(1) sums of 20 terms; 1e-10 relative.
		if d := maxRelDiff(&gx, &want); d > 1e-10 {
			t.Errorf("q=%d: ΓX differs from the PCA reconstruction by %.3g", q, d)
		}
	}
}

// TestCostTermsLinear checks TrainDist2 and FeatureDist2 against their
// closed forms for the linear kernel, where Ψ = ΓX is a point of input
// space: ‖Ψ − x_n‖² and ‖z − Ψ‖².
func TestCostTermsLinear(t *testing.T) {
	x, test, _ := kpcaFixture()
	m, err := methods.FitKPCA(x, kernel.Linear{})
	checkNoErr(t, "FitKPCA", err)
	p := m.Project(test, 2)
	terms := methods.NewCostTerms(m.K, p.Gamma)
	var psi, want mat.Dense
	psi.Mul(p.Gamma, x)
	kernel.SqDist(&want, &psi, x)
	// A pre-sized destination is accepted (empty or M×N).
	got := mat.NewDense(6, 20, nil)
	terms.TrainDist2(got, m.Diag())
	// Tolerance: distances of O(10) from differences of O(10) terms.
	if d := maxRelDiff(got, &want); d > 1e-12 {
		t.Errorf("TrainDist2 differs from ‖ΓX − x_n‖² by %.3g", d)
	}
	z := randn(rand.New(rand.NewPCG(3, 3)), 6, 5)
	r := methods.FeatureDist2(m.Basis(), z, p.Gamma, terms.Norm2)
	for i, v := range r {
		zi, pi := z.RawRowView(i), psi.RawRowView(i)
		w := floats.Distance(zi, pi, 2)
		if !scalar.EqualWithinAbsOrRel(v, w*w, 1e-12, 1e-12) {
			t.Errorf("R(z_%d) = %v, want ‖z − ΓX‖² = %v", i, v, w*w)
		}
	}
}

// TestPCAReconstructDestination checks that Reconstruct accepts a
// pre-sized destination and that all components reproduce the training
// data (the centred data lie in the span of V).
func TestPCAReconstructDestination(t *testing.T) {
	x, _, _ := kpcaFixture()
	pca, err := methods.FitPCA(x)
	checkNoErr(t, "FitPCA", err)
	var empty mat.Dense
	pca.Reconstruct(&empty, x, pca.Rank())
	sized := mat.NewDense(20, 5, nil)
	pca.Reconstruct(sized, x, pca.Rank())
	if !mat.Equal(&empty, sized) {
		t.Error("Reconstruct into a pre-sized destination differs from an empty one")
	}
	// Tolerance: O(1) data, 1e-12 relative.
	if d := maxRelDiff(sized, x); d > 1e-12 {
		t.Errorf("full-rank reconstruction differs from the data by %.3g", d)
	}
}
