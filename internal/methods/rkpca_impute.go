package methods

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/linalg"
)

// RKPCAImpute is Nguyen & De la Torre's Algorithm 1, "RKPCA for missing
// attribute values in training data" (§3.4):
//
//	initialise the missing values by the means of the known values
//	for iter = 1..m:
//	    randomly divide D into k equal partitions D_1..D_k
//	    for i = 1..k:
//	        train (K)PCA on D \ D_i
//	        run RKPCA fitting (§3.2, W = the mask) for D_i
//	    update the missing values of D
//
// Within an outer iteration every partition is fitted against the values of
// the previous iteration, and the missing values are updated together at
// its end ("Update missing values of D" follows the inner loop). The model
// of D \ D_i is kernel PCA with k(x, y) = exp(−γ‖x−y‖²) keeping the
// smallest number of components holding the fraction Energy of the
// eigenvalue sum (the paper does not say how many components it keeps).
// RKPCA starts from the current estimates (start "filled") and only the
// missing entries of its result are used; the observed entries are kept.
// Partitions are drawn from DenoiseInput.Rand. A point whose RKPCA fit
// fails keeps its previous estimates for that outer iteration (counted in
// its Status.Diag["failed_fits"]); fits that reach MaxIter are counted
// in Diag["nonconverged_fits"] and their last iterate is used. See impute.go for the transductive
// Denoiser convention.
//
// # What C does to the pull towards the observed entries
//
// The masked fit iterates eq. 6 coordinate by coordinate (rkpca.go):
//
//	z_j ← (a_j x_j + Σ_n w_n d_nj) / (a_j + Σ_n w_n),   a_j = (γ₂ e / 2Cγ)·W_jj²,
//
// with e = exp(−γ₂‖W(x − z)‖²) ∈ (0, 1], W_jj = 1 at an observed entry and
// 0 at a missing one, and S = Σ_n w_n = Σ_n Γ_n(z) k(z, d_n) = ⟨Pφ(z), φ(z)⟩,
// which for a point near the data is of the order of the kernel values
// (at most 1 for the Gaussian kernel). With γ₂ = γ, as in the paper's
// Table 1 (γ = γ₂ = 0.0375), a_j = e/2C, so the weight of the observed
// value x_j in its own update is
//
//	a_j/(a_j + S) = e/(e + 2CS) ≈ 1/(2CS)   for 2CS ≫ 1.
//
// At the paper's C = 1e7 that is about 5e-8/S: the observed entries are
// pulled towards x by a few parts in 10⁸ per step, so the fit is in effect
// the C → ∞ limit, z a fixed point of Mika's iteration for its own
// projection Pφ(z), which forgets the observed entries except through the
// starting point; it moves slowly away from that start (most fits reach
// max_iter, Table 1 notes). The missing entries, whose a_j = 0 at every C,
// are the weighted combination Σ_n w_n d_nj/S at a z whose observed
// entries have drifted from x. A hard constraint is the opposite limit:
// C → 0 sends a_j → ∞ at the observed entries (z_j = x_j) and leaves the
// missing ones' update unchanged, i.e. Eproj minimised over the missing
// entries with the observed ones held fixed (fixedObservedFit). C = 0
// selects that limit here — the reading "the observed entries are kept",
// which Algorithm 1's "update the missing values" suggests — beside the
// printed C = 1e7 (Nguyen & De la Torre ambiguity a6).
type RKPCAImpute struct {
	Gamma, Gamma2, C float64
	Energy           float64
	Iterations       int // m
	Partitions       int // k
	MaxIter          int
	Tol              float64
}

var _ Denoiser = (*RKPCAImpute)(nil)

func init() {
	Register(Spec{
		Name:     "rkpca-impute",
		Title:    "RKPCA (Algorithm 1)",
		Doc:      "Algorithm 1: alternate kernel PCA on the other partitions and masked RKPCA fits of the missing entries (transductive)",
		Source:   "Nguyen & De la Torre (2008) §3.2, §3.4 Algorithm 1, §4.2",
		Does:     Denoises | Imputes,
		Requires: NeedsX0 | NeedsRand,
		Params: []Param{
			FloatParam("gamma", 1, 0, Inf, "kernel width γ of exp(−γ‖x−y‖²), > 0"),
			FloatParam("gamma2", 1, 0, Inf, "γ₂ of the masked E0, > 0"),
			FloatParam("C", 1, 0, Inf, "weight of Eproj against E0; 0: the C → 0 limit, observed entries held fixed").ZeroMeans("the C → 0 limit: observed entries held fixed"),
			FloatParam("energy", 0.9, 0, 1, "eigenvalue fraction kept by each kernel PCA of D \\ D_i, > 0"),
			IntParam("iterations", 25, 1, Inf, "outer iterations m"),
			IntParam("partitions", 10, 2, Inf, "partitions k"),
			IntParam("max_iter", 1000, 1, Inf, "maximum RKPCA fixed-point steps per fit"),
			FloatParam("tol", 1e-8, 0, Inf, "RKPCA stopping tolerance"),
		},
		New: func(p Params) (any, error) {
			return &RKPCAImpute{Gamma: p.Float("gamma"), Gamma2: p.Float("gamma2"), C: p.Float("C"), Energy: p.Float("energy"),
				Iterations: p.Int("iterations"), Partitions: p.Int("partitions"), MaxIter: p.Int("max_iter"), Tol: p.Float("tol")}, nil
		},
	})
}

// Denoise returns in.X0 with its missing entries imputed by Algorithm 1.
func (ri *RKPCAImpute) Denoise(dst *mat.Dense, in *DenoiseInput) ([]Status, error) {
	st, done, err := startImpute("rkpca-impute", dst, in)
	if err != nil || done {
		return st, err
	}
	n, d := in.X0.Dims()
	if !(ri.Gamma > 0) || !(ri.Energy > 0 && ri.Energy <= 1) || ri.Partitions < 2 || ri.Partitions > n {
		return nil, fmt.Errorf("rkpca-impute: gamma %g, energy %g, partitions %d (of %d points) out of range", ri.Gamma, ri.Energy, ri.Partitions, n)
	}
	if in.Rand == nil {
		return nil, errors.New("rkpca-impute: needs a random stream for the partitions")
	}
	mu, err := observedMeans(in.X0, in.Mask)
	if err != nil {
		return nil, fmt.Errorf("rkpca-impute: %w", err)
	}
	mask := in.Mask
	hasMissing := make([]bool, n)
	for i := 0; i < n; i++ {
		row := dst.RawRowView(i)
		for j, o := range mask.RawRowView(i) {
			if o == 0 {
				row[j] = mu[j]
				hasMissing[i] = true
			}
		}
	}
	k := kernel.NewGaussianGamma(ri.Gamma)
	// The fit of each partition, with its step buffers kept across
	// partitions.
	var fit interface {
		denoiseWith(dst *mat.Dense, in *DenoiseInput, fw *fixedWork) ([]Status, error)
	} = &RKPCA{Gamma2: ri.Gamma2, C: ri.C, E0: E0L2, Start: StartFilled, MaxIter: ri.MaxIter, Tol: ri.Tol, Eps: 1e-12}
	if ri.C == 0 {
		fit = &fixedObservedFit{MaxIter: ri.MaxIter, Tol: ri.Tol, Eps: 1e-12}
	}
	failed := make([]float64, n)
	nonconv := make([]float64, n)
	cur := mat.DenseCopyOf(dst)
	inPart := make([]bool, n)
	var train []int // rows of cur in the partition's training set
	// Buffers kept across partitions and outer iterations: a partition's
	// training set, its Gram matrix, and its rows with missing entries
	// with their mask rows. The model fitted to them, which holds the
	// first two, is dropped before the next partition. kw is the kernel
	// PCA fits' scratch, which the models do not hold, and fw the fixed
	// points' step buffers.
	var xtBuf, gtBuf, xBuf, mkBuf []float64
	var kw kpcaWork
	var fw fixedWork
	var z mat.Dense
	for it := 0; it < ri.Iterations; it++ {
		perm := in.Rand.Perm(n)
		// The k training sets of this iteration are all drawn from
		// cur, so their Gram matrices are sub-blocks of cur's: one
		// n×n kernel pass instead of k of (n − n/k)². Entry (i, j)
		// depends on rows i and j only (a dot product over the D
		// coordinates, the two squared norms, one exp), so under
		// the pure-Go backend a sub-block is bit for bit the Gram
		// matrix FitKPCA would form (TestSelfGramSubBlock,
		// sharedGramExact); another BLAS may round the two
		// differently.
		var gram *mat.SymDense
		if sharedGramExact(n, d, n-(n+ri.Partitions-1)/ri.Partitions) {
			gram = kernel.SelfGram(k, cur)
		}
		for p := 0; p < ri.Partitions; p++ {
			lo, hi := p*n/ri.Partitions, (p+1)*n/ri.Partitions
			part := perm[lo:hi]
			for i := range inPart {
				inPart[i] = false
			}
			for _, i := range part {
				inPart[i] = true
			}
			train = train[:0]
			for i := 0; i < n; i++ {
				if !inPart[i] {
					train = append(train, i)
				}
			}
			var rows []int
			for _, i := range part {
				if hasMissing[i] {
					rows = append(rows, i)
				}
			}
			if len(rows) == 0 {
				continue
			}
			nt := len(train)
			xtBuf = grow(xtBuf, nt*d)
			xt := mat.NewDense(nt, d, xtBuf)
			for a, i := range train {
				xt.SetRow(a, cur.RawRowView(i))
			}
			var gt *mat.SymDense
			if gram != nil {
				// The sub-block's upper triangle, and zeros below
				// as in a new SymDense.
				gtBuf = grow(gtBuf, nt*nt)
				gr := gram.RawSymmetric()
				for a, i := range train {
					row := gtBuf[a*nt : (a+1)*nt]
					clear(row[:a])
					for b := a; b < nt; b++ {
						if j := train[b]; i <= j {
							row[b] = gr.Data[i*gr.Stride+j]
						} else {
							row[b] = gr.Data[j*gr.Stride+i]
						}
					}
				}
				gt = mat.NewSymDense(nt, gtBuf)
			} else {
				gt = kernel.SelfGram(k, xt)
			}
			// Only the q components the energy rule keeps are used.
			model, q, err := kw.fitEnergy(xt, k, gt, ri.Energy)
			if err != nil {
				for _, i := range rows {
					failed[i]++
				}
				continue
			}
			xBuf, mkBuf = grow(xBuf, len(rows)*d), grow(mkBuf, len(rows)*d)
			x := mat.NewDense(len(rows), d, xBuf)
			mk := mat.NewDense(len(rows), d, mkBuf)
			for a, i := range rows {
				x.SetRow(a, cur.RawRowView(i))
				mk.SetRow(a, mask.RawRowView(i))
			}
			z.Reset()
			zst, err := fit.denoiseWith(&z, &DenoiseInput{Model: model, Q: q, X0: x, Mask: mk}, &fw)
			if err != nil {
				return nil, fmt.Errorf("rkpca-impute: %w", err)
			}
			for a, i := range rows {
				if zst[a].Err != nil {
					failed[i]++
					continue
				}
				row := dst.RawRowView(i)
				for j, o := range mask.RawRowView(i) {
					if o == 0 {
						row[j] = z.At(a, j)
					}
				}
				st[i].Iterations += zst[a].Iterations
				if !zst[a].Converged {
					nonconv[i]++
				}
			}
		}
		cur.Copy(dst)
	}
	for i := range st {
		st[i].Converged = true
		st[i].Diag = map[string]float64{"failed_fits": failed[i], "nonconverged_fits": nonconv[i]}
	}
	CheckFinite(dst, st)
	return st, nil
}

// grow returns buf resliced to length n, reallocated if its capacity is
// smaller.
func grow(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	return buf[:n]
}

// sharedGramExact reports whether the Gram matrix of n points in d
// dimensions holds, bit for bit, that of any subset of at least minSub of
// them (in their order). Under the pure-Go backend it always does: the
// product XXᵀ is the packed product, whose entry (i, j) is one chain of
// fused multiply-adds over the d coordinates of rows i and j whatever
// the matrix's size (package linalg's rounding contract). For another
// BLAS the rule is gonum's blocked Dgemm's, kept as the best guess: one
// dot product per entry for d ≤ 64, and the same path for both sizes
// above 64 points; such a BLAS may round the two differently anyway.
func sharedGramExact(n, d, minSub int) bool {
	if linalg.PureGo() {
		return true
	}
	const block = 64
	return d <= block || (n > block && minSub > block)
}
