package methods

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// curveProblem returns a model fitted on 40 points of the curve
// (s, s², s³, sin 2s), 6 other points of it with one or two entries
// missing (filled with 0.5, a rough start), their mask and the truth.
func curveProblem(t *testing.T) (m *KPCA, x0, mask, truth *mat.Dense) {
	t.Helper()
	rng := rand.New(rand.NewPCG(21, 4))
	point := func(s float64) []float64 { return []float64{s, s * s, s * s * s, math.Sin(2 * s)} }
	train := mat.NewDense(40, 4, nil)
	for i := 0; i < 40; i++ {
		train.SetRow(i, point(rng.Float64()))
	}
	m, err := FitKPCA(train, kernel.NewGaussianGamma(1))
	if err != nil {
		t.Fatal(err)
	}
	truth = mat.NewDense(6, 4, nil)
	x0 = mat.NewDense(6, 4, nil)
	mask = mat.NewDense(6, 4, nil)
	for i := 0; i < 6; i++ {
		truth.SetRow(i, point(0.1+0.15*float64(i)))
		x0.SetRow(i, truth.RawRowView(i))
		for j := 0; j < 4; j++ {
			mask.Set(i, j, 1)
		}
		for _, j := range []int{i % 4, (i + 2) % 4}[:1+i%2] {
			mask.Set(i, j, 0)
			x0.Set(i, j, 0.5)
		}
	}
	return m, x0, mask, truth
}

// TestFixedObservedIsTheCLimit: the held-fixed fit is the C → 0 limit of
// eq. 6. RKPCA at C = 1e-9 pulls the observed entries with a_j ≈ e/2C ≈
// 5e8 against S = Σ w_n ≤ 1, so they sit within ~2CS‖·‖ ≈ 1e-9 of x and
// the missing entries, a smooth function of them, agree to about that
// (tolerance 1e-6 for the two stopping rules at tol 1e-12). The observed
// entries of the limit fit are x exactly.
func TestFixedObservedIsTheCLimit(t *testing.T) {
	m, x0, mask, truth := curveProblem(t)
	q := m.Components(0.999)
	in := &DenoiseInput{Model: m, Q: q, X0: x0, Mask: mask}
	var fixed, small mat.Dense
	st, err := (&fixedObservedFit{MaxIter: 20000, Tol: 1e-12, Eps: 1e-12}).Denoise(&fixed, in)
	if err != nil {
		t.Fatal(err)
	}
	st2, err := (&RKPCA{Gamma2: 1, C: 1e-9, E0: E0L2, Start: StartFilled, MaxIter: 20000, Tol: 1e-12, Eps: 1e-12}).Denoise(&small, in)
	if err != nil {
		t.Fatal(err)
	}
	var errFixed, errMean float64
	for i := 0; i < 6; i++ {
		if st[i].Err != nil || st2[i].Err != nil || !st[i].Converged || !st2[i].Converged {
			t.Fatalf("row %d: limit fit %+v, C = 1e-9 fit %+v", i, st[i], st2[i])
		}
		for j := 0; j < 4; j++ {
			if mask.At(i, j) == 1 {
				if fixed.At(i, j) != x0.At(i, j) {
					t.Errorf("row %d entry %d observed %g, held %g", i, j, x0.At(i, j), fixed.At(i, j))
				}
				continue
			}
			if d := math.Abs(fixed.At(i, j) - small.At(i, j)); d > 1e-6 {
				t.Errorf("row %d entry %d: limit %g, C = 1e-9 %.10g (differ by %g)", i, j, fixed.At(i, j), small.At(i, j), d)
			}
			errFixed += math.Pow(fixed.At(i, j)-truth.At(i, j), 2)
			errMean += math.Pow(colMeans(m.X)[j]-truth.At(i, j), 2)
		}
	}
	// The curve is one-dimensional: holding the observed coordinates pins
	// the point, so the imputation must beat the training mean by far.
	t.Logf("missing-entry SSE: held fixed %g, training mean %g", errFixed, errMean)
	if !(errFixed < 0.1*errMean) {
		t.Errorf("held-fixed SSE %g, want < 0.1 × the mean's %g", errFixed, errMean)
	}
}

// TestFixedObservedTrainingPoint: with every component, φ(d_k) of a
// training point is its own projection (Γ = e_k), so w = e_k and the
// update returns z_j = d_kj at the missing entries: d_k is a fixed point
// of the held-fixed fit, and a start near it (missing entries off by
// 0.05) converges back to it.
func TestFixedObservedTrainingPoint(t *testing.T) {
	m, _, _, _ := curveProblem(t)
	k := 7
	x0 := mat.NewDense(1, 4, nil)
	x0.SetRow(0, m.X.RawRowView(k))
	mask := mat.NewDense(1, 4, []float64{1, 0, 1, 0})
	x0.Set(0, 1, x0.At(0, 1)+0.05)
	x0.Set(0, 3, x0.At(0, 3)-0.05)
	var z mat.Dense
	st, err := (&fixedObservedFit{MaxIter: 20000, Tol: 1e-13, Eps: 1e-12}).Denoise(&z, &DenoiseInput{Model: m, Q: m.Rank(), X0: x0, Mask: mask})
	if err != nil || st[0].Err != nil {
		t.Fatalf("%v %+v", err, st[0])
	}
	for j := 0; j < 4; j++ {
		if d := math.Abs(z.At(0, j) - m.X.At(k, j)); d > 1e-6 {
			t.Errorf("entry %d: %g, want the training point's %g", j, z.At(0, j), m.X.At(k, j))
		}
	}
}

// TestRKPCAImputeZeroC: rkpca-impute with C = 0 runs the held-fixed fit
// (RKPCA itself refuses C = 0) and leaves every observed entry as given.
func TestRKPCAImputeZeroC(t *testing.T) {
	_, x0, mask, truth := curveProblem(t)
	rng := rand.New(rand.NewPCG(3, 3))
	x := mat.NewDense(60, 4, nil)
	for i := 0; i < 60; i++ {
		s := rng.Float64()
		x.SetRow(i, []float64{s, s * s, s * s * s, math.Sin(2 * s)})
	}
	full := mat.NewDense(66, 4, nil)
	fm := mat.NewDense(66, 4, nil)
	for i := 0; i < 60; i++ {
		full.SetRow(i, x.RawRowView(i))
		fm.SetRow(i, []float64{1, 1, 1, 1})
	}
	for i := 0; i < 6; i++ {
		full.SetRow(60+i, x0.RawRowView(i))
		fm.SetRow(60+i, mask.RawRowView(i))
	}
	est := &RKPCAImpute{Gamma: 1, Gamma2: 1, C: 0, Energy: 0.999, Iterations: 3, Partitions: 5, MaxIter: 2000, Tol: 1e-10}
	var z mat.Dense
	st, err := est.Denoise(&z, &DenoiseInput{X0: full, Mask: fm, Rand: rand.New(rand.NewPCG(1, 1))})
	if err != nil {
		t.Fatal(err)
	}
	var sse float64
	for i := 0; i < 66; i++ {
		if st[i].Err != nil || st[i].Diag["failed_fits"] != 0 {
			t.Errorf("row %d: %+v", i, st[i])
		}
		for j := 0; j < 4; j++ {
			if fm.At(i, j) == 1 {
				if z.At(i, j) != full.At(i, j) {
					t.Errorf("row %d entry %d: observed %g changed to %g", i, j, full.At(i, j), z.At(i, j))
				}
			} else {
				sse += math.Pow(z.At(i, j)-truth.At(i-60, j), 2)
			}
		}
	}
	t.Logf("missing-entry SSE with C = 0: %g", sse)
	if !(sse < 0.05) {
		t.Errorf("missing-entry SSE %g on a noiseless curve, want < 0.05", sse)
	}
}
