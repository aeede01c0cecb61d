package methods

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// PPCA imputes missing entries with probabilistic PCA (Tipping & Bishop,
// JRSS B 1999) fitted by EM on the incomplete data themselves, the "PPCA"
// row of Nguyen & De la Torre Table 1. The model is y = Wt + μ + ε,
// t ~ N(0, I_q), ε ~ N(0, σ²I). With O_n the observed attributes of point n
// the EM steps are (Ilin & Raiko, JMLR 2010, §3.2, "PPCA with missing
// values"):
//
//	E:  Σ_n = σ²(σ²I + W_OᵀW_O)⁻¹,  t_n = Σ_n W_Oᵀ(y_O − μ_O)/σ²
//	M:  μ_j = mean_{n∋j} (y_nj − w_jᵀt_n)
//	    w_j = [Σ_{n∋j} (t_nt_nᵀ + Σ_n)]⁻¹ Σ_{n∋j} t_n (y_nj − μ_j)
//	    σ² = (1/|O|) Σ_{(n,j)∈O} [(y_nj − w_jᵀt_n − μ_j)² + w_jᵀΣ_n w_j]
//
// where w_j is row j of W and n∋j runs over the points observing j. A
// missing entry is imputed by its posterior mean w_jᵀt_n + μ_j. EM starts
// from the mean-imputed data's leading principal directions (deterministic)
// and stops when σ² and W change by less than Tol relative to their size.
// σ² is floored at 1e-12 times the observed variance so that exactly
// low-rank data do not make Σ_n singular. See impute.go for the
// transductive Denoiser convention.
type PPCA struct {
	// Latent is the latent dimension q.
	Latent  int
	MaxIter int
	Tol     float64
}

var _ Denoiser = (*PPCA)(nil)

func init() {
	Register(Spec{
		Name:     "ppca",
		Title:    "PPCA",
		Doc:      "probabilistic PCA fitted by EM with missing values; missing entries imputed by their posterior mean (transductive)",
		Source:   "Tipping & Bishop (1999); Ilin & Raiko (2010) §3.2; Nguyen & De la Torre (2008) Table 1",
		Does:     Denoises | Imputes,
		Requires: NeedsX0,
		Params: []Param{
			IntParam("latent", 2, 1, Inf, "latent dimension q"),
			IntParam("max_iter", 2000, 1, Inf, "maximum EM iterations"),
			FloatParam("tol", 1e-7, 0, Inf, "stop when σ² and W change by ≤ tol relative"),
		},
		New: func(p Params) (any, error) {
			return &PPCA{Latent: p.Int("latent"), MaxIter: p.Int("max_iter"), Tol: p.Float("tol")}, nil
		},
	})
}

// Denoise returns in.X0 with its missing entries replaced by PPCA's
// posterior means.
func (pp *PPCA) Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error) {
	st, done, err := startImpute("ppca", dst, in)
	if err != nil || done {
		return st, err
	}
	n, d := in.X0.Dims()
	q := pp.Latent
	if q < 1 || q >= d {
		return nil, fmt.Errorf("ppca: latent dimension %d, want 1 ≤ q < %d", q, d)
	}
	y, mask := in.X0, in.Mask
	obs := func(i, j int) bool { return mask.At(i, j) != 0 }
	mu, err := observedMeans(y, mask)
	if err != nil {
		return nil, fmt.Errorf("ppca: %w", err)
	}
	// Start: principal directions of the mean-imputed data.
	filled := mat.NewDense(n, d, nil)
	var vObs float64
	var nObs int
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if obs(i, j) {
				v := y.At(i, j) - mu[j]
				filled.Set(i, j, v)
				vObs += v * v
				nObs++
			}
		}
	}
	vObs /= float64(nObs)
	sv, vt, ok := rightSVD(filled)
	if !ok {
		return nil, fmt.Errorf("ppca: SVD of the mean-imputed data did not converge")
	}
	w := mat.NewDense(d, q, nil)
	for k := 0; k < q; k++ {
		s := sv[k] / math.Sqrt(float64(n))
		for j := 0; j < d; j++ {
			w.Set(j, k, vt.At(j, k)*s)
		}
	}
	var rest float64
	for k := q; k < len(sv); k++ {
		rest += sv[k] * sv[k]
	}
	sigma2 := math.Max(rest/float64(n*(d-q)), 1e-3*vObs)
	floor := 1e-12 * vObs

	t := mat.NewDense(n, q, nil)
	sig := make([]*mat.SymDense, n)
	for i := range sig {
		sig[i] = mat.NewSymDense(q, nil)
	}
	a := mat.NewSymDense(q, nil)
	var ch mat.Cholesky
	converged := false
	iters := 0
	for it := 1; it <= pp.MaxIter; it++ {
		iters = it
		// E-step.
		for i := 0; i < n; i++ {
			for r := 0; r < q; r++ {
				for s := r; s < q; s++ {
					v := 0.0
					if r == s {
						v = sigma2
					}
					for j := 0; j < d; j++ {
						if obs(i, j) {
							v += w.At(j, r) * w.At(j, s)
						}
					}
					a.SetSym(r, s, v)
				}
			}
			if !ch.Factorize(a) {
				return nil, fmt.Errorf("ppca: E-step matrix of point %d is singular", i)
			}
			var inv mat.SymDense
			if err := ch.InverseTo(&inv); err != nil {
				return nil, fmt.Errorf("ppca: %w", err)
			}
			sig[i].ScaleSym(sigma2, &inv)
			b := make([]float64, q)
			for j := 0; j < d; j++ {
				if obs(i, j) {
					e := y.At(i, j) - mu[j]
					for r := range b {
						b[r] += w.At(j, r) * e
					}
				}
			}
			ti := t.RawRowView(i)
			for r := range ti {
				var s float64
				for c := range b {
					s += inv.At(r, c) * b[c]
				}
				ti[r] = s
			}
		}
		// M-step: μ, then each row w_j, then σ².
		for j := 0; j < d; j++ {
			var s float64
			cnt := 0
			for i := 0; i < n; i++ {
				if obs(i, j) {
					s += y.At(i, j) - floats.Dot(w.RawRowView(j), t.RawRowView(i))
					cnt++
				}
			}
			mu[j] = s / float64(cnt)
		}
		wOld := mat.DenseCopyOf(w)
		for j := 0; j < d; j++ {
			for r := 0; r < q; r++ {
				for s := r; s < q; s++ {
					a.SetSym(r, s, 0)
				}
			}
			rhs := make([]float64, q)
			for i := 0; i < n; i++ {
				if !obs(i, j) {
					continue
				}
				ti := t.RawRowView(i)
				e := y.At(i, j) - mu[j]
				for r := 0; r < q; r++ {
					rhs[r] += ti[r] * e
					for s := r; s < q; s++ {
						a.SetSym(r, s, a.At(r, s)+ti[r]*ti[s]+sig[i].At(r, s))
					}
				}
			}
			if !ch.Factorize(a) {
				return nil, fmt.Errorf("ppca: M-step matrix of attribute %d is singular", j)
			}
			wj := mat.NewVecDense(q, nil)
			if err := ch.SolveVecTo(wj, mat.NewVecDense(q, rhs)); err != nil {
				return nil, fmt.Errorf("ppca: %w", err)
			}
			for r := 0; r < q; r++ {
				w.Set(j, r, wj.AtVec(r))
			}
		}
		var s2 float64
		for i := 0; i < n; i++ {
			ti := t.RawRowView(i)
			for j := 0; j < d; j++ {
				if !obs(i, j) {
					continue
				}
				wj := w.RawRowView(j)
				e := y.At(i, j) - floats.Dot(wj, ti) - mu[j]
				s2 += e*e + mat.Inner(mat.NewVecDense(q, wj), sig[i], mat.NewVecDense(q, wj))
			}
		}
		s2 = math.Max(s2/float64(nObs), floor)
		var dw mat.Dense
		dw.Sub(w, wOld)
		change := math.Abs(s2-sigma2) <= pp.Tol*sigma2 && mat.Norm(&dw, math.Inf(1)) <= pp.Tol*math.Max(mat.Norm(w, math.Inf(1)), 1e-300)
		sigma2 = s2
		if change {
			converged = true
			break
		}
	}
	for i := 0; i < n; i++ {
		row := dst.RawRowView(i)
		ti := t.RawRowView(i)
		for j := 0; j < d; j++ {
			if !obs(i, j) {
				row[j] = floats.Dot(w.RawRowView(j), ti) + mu[j]
			}
		}
		st[i].Iterations = iters
		st[i].Converged = converged
	}
	CheckFinite(dst, st)
	return st, nil
}
