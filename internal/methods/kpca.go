package methods

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/linalg"
)

// KPCA is a kernel PCA model fitted once per (training data, kernel). It keeps
// every component with a positive eigenvalue, so the number of components q
// (or the energy fraction) is chosen at projection time and one fit serves
// every λ, neighbour count and PC count of a grid. The eigenvalues are
// computed by the fit, the eigenvectors when Alpha asks for them
// (kpca_eigen.go).
//
// A KPCA is safe for concurrent use once fitted.
type KPCA struct {
	// X holds the N×D training inputs, one per row.
	X *mat.Dense
	// Kernel is the kernel the model was fitted with.
	Kernel kernel.Kernel
	// K is the uncentred N×N Gram matrix K_ij = k(x_i, x_j).
	K *mat.SymDense
	// Values holds the eigenvalues of the centred Gram matrix K̃ in
	// decreasing order, positive ones only (Abrahamsen & Hansen eq. 1).
	Values []float64

	// alpha is N×len(Values) where a fit computed every eigenvector;
	// otherwise eig computes them as Alpha asks.
	alpha *mat.Dense
	eig   *kpcaEigen

	colMean []float64 // (1/N) Σ_i K_ij
	allMean float64   // (1/N²) Σ_ij K_ij
	diag    []float64 // K_ii

	pcaOnce sync.Once
	pca     *PCA
	pcaErr  error
}

// FitKPCA computes the Gram matrix of the rows of x, centres it and
// eigendecomposes it. x is not copied and must not be modified afterwards.
func FitKPCA(x *mat.Dense, k kernel.Kernel) (*KPCA, error) {
	n, _ := x.Dims()
	if n < 2 {
		return nil, fmt.Errorf("methods: kernel PCA needs at least 2 training points, have %d", n)
	}
	return FitKPCAGram(x, k, kernel.SelfGram(k, x))
}

// FitKPCAGram is FitKPCA with a precomputed Gram matrix K of x under k.
func FitKPCAGram(x *mat.Dense, k kernel.Kernel, g *mat.SymDense) (*KPCA, error) {
	n := g.SymmetricDim()
	if r, _ := x.Dims(); r != n {
		panic(fmt.Sprintf("methods: %d training points but a %d×%d Gram matrix", r, n, n))
	}
	m := &KPCA{X: x, Kernel: k, K: g, colMean: make([]float64, n), diag: make([]float64, n)}
	c := m.centredGram(g)
	e := new(kpcaEigen)
	t, ok := e.red.reduce(c)
	if !ok {
		// Dsterf did not converge: the full eigensolver on K̃ formed
		// again (the reduction overwrote it), every vector at once.
		return m.eigen(m.centredGram(g))
	}
	// The positive eigenvalues, decreasing, under eigen's threshold for
	// numerically zero ones.
	tol := float64(n) * 1e-12 * math.Max(t.ev[n-1], 0)
	var vals []float64
	for i := n - 1; i >= 0 && t.ev[i] > tol; i-- {
		vals = append(vals, t.ev[i])
	}
	if len(vals) == 0 {
		return nil, errors.New("methods: the centred Gram matrix is zero (all training points coincide in feature space)")
	}
	m.Values = vals
	e.setValues(vals)
	m.eig = e
	return m, nil
}

// Alpha returns the N×q matrix whose column i is the eigenvector of K̃ for
// Values[i] scaled by 1/√λ_i, so that the feature-space eigenvector
// v_i = Σ_n α_in φ̃(x_n) has unit norm, for the q leading components; q
// must be in [1, Rank()]. The matrix is the model's: callers must not
// modify it. Which eigensolver computes the vectors depends on q and the
// spectrum only (FullSolver), so the same q gives the same bits whatever
// was asked before.
func (m *KPCA) Alpha(q int) *mat.Dense {
	if q < 1 || q > m.Rank() {
		panic(fmt.Sprintf("methods: %d components requested, model has %d", q, m.Rank()))
	}
	if m.alpha != nil {
		return m.alpha.Slice(0, m.N(), 0, q).(*mat.Dense)
	}
	if a := m.eig.alpha(q); a != nil {
		return a
	}
	// The full solver did not converge on the reduction: mat.EigenSym on
	// K̃ formed again, once.
	m.eig.mu.Lock()
	defer m.eig.mu.Unlock()
	if m.eig.fallback == nil {
		f := &KPCA{colMean: make([]float64, m.N()), diag: make([]float64, m.N())}
		if _, err := f.eigen(f.centredGram(m.K)); err != nil || len(f.Values) < len(m.Values) {
			panic(fmt.Sprintf("methods: no eigensolver converged on the centred Gram matrix (%d points)", m.N()))
		}
		m.eig.fallback = f.alpha
	}
	return m.eig.fallback.Slice(0, m.N(), 0, q).(*mat.Dense)
}

// FullSolver reports whether Alpha(q) takes its vectors from the full
// eigensolver rather than the top-q one: when 2q > N, or when two of the
// leading q+1 eigenvalues are closer than 1e-6·λ_1 (kpca_eigen.go).
func (m *KPCA) FullSolver(q int) bool {
	return m.eig == nil || !m.eig.useTop(q)
}

// fitKPCAGramEnergy is FitKPCAGram keeping only the q leading components
// that hold the fraction energy of the positive eigenvalues' sum
// (Components(energy) of the full fit), and returns q. It computes every
// eigenvalue but only q eigenvectors (topEigenSym's reduction, root-free
// QR and inverse iteration), where FitKPCAGram's QR sweeps rotate all N:
// RKPCA's imputation (Algorithm 1) fits 250 models per repetition and
// keeps q ≈ 7 of ≈ 90 components. The eigenpairs agree with FitKPCAGram's
// to rounding, not bit for bit (TestFitKPCAGramEnergy); if the root-free
// QR does not converge it returns FitKPCAGram's fit, truncated alike.
func fitKPCAGramEnergy(x *mat.Dense, k kernel.Kernel, g *mat.SymDense, energy float64) (*KPCA, int, error) {
	var w kpcaWork
	return w.fitEnergy(x, k, g, energy)
}

// kpcaWork holds the scratch of fitKPCAGramEnergy for a caller that fits
// many models (Algorithm 1's partitions): the centred Gram matrix, which
// the tridiagonal reduction then overwrites in place, the positive
// eigenvalues and the eigensolver's arrays (tridiagWork), allocated once
// per size instead of once per fit. A model it fits holds none of them —
// its Values, Alpha, means and diagonal are its own — so a model stays
// valid after the next fit (TestKPCAWorkIsFresh).
type kpcaWork struct {
	c    []float64    // the centred Gram matrix, n×n
	cs   mat.SymDense // c's header
	vals []float64    // the positive eigenvalues, decreasing
	eig  tridiagWork
}

// fitEnergy is fitKPCAGramEnergy with w's scratch: the same arithmetic
// in the same order, bit for bit (TestKPCAWorkIsFresh).
func (w *kpcaWork) fitEnergy(x *mat.Dense, k kernel.Kernel, g *mat.SymDense, energy float64) (*KPCA, int, error) {
	n := g.SymmetricDim()
	if r, _ := x.Dims(); r != n {
		panic(fmt.Sprintf("methods: %d training points but a %d×%d Gram matrix", r, n, n))
	}
	m := &KPCA{X: x, Kernel: k, K: g, colMean: make([]float64, n), diag: make([]float64, n)}
	m.gramMeans(g)
	// K̃'s upper triangle; the reduction fills the lower from it, so
	// what a previous fit left there is never read.
	w.c = grow(w.c, n*n)
	w.cs.SetRawSymmetric(blas64.Symmetric{N: n, Stride: n, Uplo: blas.Upper, Data: w.c})
	m.centreGramTo(&w.cs, g)
	t, ok := w.eig.reduce(&w.cs)
	if !ok {
		// The reduction overwrote K̃; form it again (from the same
		// means, so the same bits) for the full eigensolver.
		clear(w.c)
		m.centreGramTo(&w.cs, g)
		if _, err := m.eigen(&w.cs); err != nil {
			return nil, 0, err
		}
		q := m.Components(energy)
		m.Values, m.alpha = m.Values[:q], mat.DenseCopyOf(m.alpha.Slice(0, n, 0, q))
		return m, q, nil
	}
	// The positive eigenvalues, decreasing, under FitKPCAGram's
	// threshold for numerically zero ones.
	tol := float64(n) * 1e-12 * math.Max(t.ev[n-1], 0)
	vals := w.vals[:0]
	for i := n - 1; i >= 0 && t.ev[i] > tol; i-- {
		vals = append(vals, t.ev[i])
	}
	w.vals = vals
	if len(vals) == 0 {
		return nil, 0, errors.New("methods: the centred Gram matrix is zero (all training points coincide in feature space)")
	}
	q := componentsFor(vals, energy)
	vecs := t.vectors(vals[:q])
	m.Values = append(make([]float64, 0, q), vals[:q]...)
	m.alpha = mat.NewDense(n, q, nil)
	for j, v := range m.Values {
		s := 1 / math.Sqrt(v)
		for r := 0; r < n; r++ {
			m.alpha.Set(r, j, vecs.At(r, j)*s)
		}
	}
	return m, q, nil
}

// centredGram returns K̃ = K − 1K/N − K1/N + 1K1/N² (eq. 1) of the Gram
// matrix g and sets m's column means, diagonal and overall mean.
func (m *KPCA) centredGram(g *mat.SymDense) *mat.SymDense {
	m.gramMeans(g)
	c := mat.NewSymDense(g.SymmetricDim(), nil)
	m.centreGramTo(c, g)
	return c
}

// gramMeans sets m's column means, diagonal and overall mean from the
// Gram matrix g; m.colMean must hold zeros.
func (m *KPCA) gramMeans(g *mat.SymDense) {
	n := g.SymmetricDim()
	for i := 0; i < n; i++ {
		m.diag[i] = g.At(i, i)
		for j := 0; j < n; j++ {
			m.colMean[j] += g.At(i, j)
		}
	}
	floats.Scale(1/float64(n), m.colMean)
	m.allMean = floats.Sum(m.colMean) / float64(n)
}

// centreGramTo writes the upper triangle of K̃ (eq. 1) into c from g and
// m's means (gramMeans).
func (m *KPCA) centreGramTo(c, g *mat.SymDense) {
	n := g.SymmetricDim()
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			c.SetSym(i, j, g.At(i, j)-m.colMean[i]-m.colMean[j]+m.allMean)
		}
	}
}

// eigen sets m's components from the centred Gram matrix c: every
// eigenpair with a positive eigenvalue.
func (m *KPCA) eigen(c *mat.SymDense) (*KPCA, error) {
	n := c.SymmetricDim()
	var eig mat.EigenSym
	if !eig.Factorize(c, true) {
		return nil, errors.New("methods: eigendecomposition of the centred Gram matrix did not converge")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)

	// Eigenvalues below this are numerically zero: K̃ always has the constant
	// vector in its null space, and rounding leaves it at ~N·ε·λ_max.
	tol := float64(n) * 1e-12 * math.Max(vals[n-1], 0)
	var keep []int
	for i := n - 1; i >= 0; i-- {
		if vals[i] > tol {
			keep = append(keep, i)
		}
	}
	if len(keep) == 0 {
		return nil, errors.New("methods: the centred Gram matrix is zero (all training points coincide in feature space)")
	}
	m.Values = make([]float64, len(keep))
	m.alpha = mat.NewDense(n, len(keep), nil)
	for j, i := range keep {
		m.Values[j] = vals[i]
		s := 1 / math.Sqrt(vals[i])
		for r := 0; r < n; r++ {
			m.alpha.Set(r, j, vecs.At(r, i)*s)
		}
	}
	return m, nil
}

// N returns the number of training points.
func (m *KPCA) N() int { return len(m.diag) }

// Dim returns the input dimension D.
func (m *KPCA) Dim() int { _, d := m.X.Dims(); return d }

// Rank returns the number of components kept (positive eigenvalues).
func (m *KPCA) Rank() int { return len(m.Values) }

// Components returns the smallest q whose leading eigenvalues hold at least
// the fraction energy of their sum. energy must be in (0, 1].
func (m *KPCA) Components(energy float64) int {
	return componentsFor(m.Values, energy)
}

func componentsFor(vals []float64, energy float64) int {
	if !(energy > 0 && energy <= 1) {
		panic(fmt.Sprintf("methods: energy fraction %g outside (0, 1]", energy))
	}
	total := floats.Sum(vals)
	var s float64
	for i, v := range vals {
		s += v
		// Relative slack so energy = 1 is reached despite rounding.
		if s >= energy*total*(1-1e-12) {
			return i + 1
		}
	}
	return len(vals)
}

// Diag returns k(x_n, x_n) for the training points.
func (m *KPCA) Diag() []float64 { return m.diag }

// Projection holds the projections P_qφ(x_m) of a batch of M inputs onto the
// first q kernel principal components, as expansions over the training
// images (Abrahamsen & Hansen eq. 3 and 10).
type Projection struct {
	// Q is the number of components used.
	Q int
	// Beta is M×q: β_mi = φ̃(x_m)ᵀv_i (eq. 2).
	Beta *mat.Dense
	// Gamma is M×N: P_qφ(x_m) = Σ_n γ_mn φ(x_n), including the mean term
	// γ_n = γ̃_n + (1 − Σ_j γ̃_j)/N (eq. 10).
	Gamma *mat.Dense
	// Kx is M×N: k(x_m, x_n), the kernel values of the projected inputs.
	Kx *mat.Dense
}

// Project projects the rows of x onto the first q components, with one Gram
// matrix product for the whole batch. q must be in [1, Rank()].
func (m *KPCA) Project(x mat.Matrix, q int) *Projection {
	var kx mat.Dense
	kernel.Gram(&kx, m.Kernel, x, m.X)
	return m.ProjectGram(&kx, q)
}

// ProjectGram is Project given kx = k(x_m, x_n) (M×N). kx is kept, not
// copied.
func (m *KPCA) ProjectGram(kx *mat.Dense, q int) *Projection {
	r, n := m.checkGram(kx, q)
	beta := mat.NewDense(r, q, nil)
	gamma := mat.NewDense(r, n, nil)
	m.projectGramTo(gamma, beta, mat.NewDense(r, n, nil), kx, q)
	return &Projection{Q: q, Beta: beta, Gamma: gamma, Kx: kx}
}

// projectGramTo is ProjectGram writing Γ into gamma (M×N) and β into beta
// (M×q), with kc (M×N) as scratch for the centred kernel rows, all owned
// by the caller: fixed-point methods project a batch at every step and
// reuse their buffers instead of allocating three matrices per step. q
// and the sizes are the caller's to check.
func (m *KPCA) projectGramTo(gamma, beta, kc, kx *mat.Dense, q int) {
	aq := m.Alpha(q)
	m.projectAlphaTo(gamma, beta, kc, kx, operand{m: aq}, operand{m: aq.T()})
}

// projectAlphaTo is projectGramTo with the leading columns aq of Alpha
// and their transpose aqT formed by the caller, who may keep them across
// calls (packed, for a caller that projects at every step).
func (m *KPCA) projectAlphaTo(gamma, beta, kc, kx *mat.Dense, aq, aqT operand) {
	r, n := kx.Dims()
	m.centreTo(kc, kx)
	aq.mulTo(beta, kc)
	aqT.mulTo(gamma, beta)
	for i := 0; i < r; i++ {
		row := gamma.RawRowView(i)
		shift := (1 - floats.Sum(row)) / float64(n)
		floats.AddConst(shift, row)
	}
}

// operand is the right operand of products a caller repeats: the
// matrix, and where the pure-Go backend computes the products, the same
// matrix packed once (linalg.PackB), which gives the same bits.
type operand struct {
	m mat.Matrix
	p *linalg.PackedB
	// spare is the storage of a matrix packed earlier (reset), which
	// set packs the next one into: a caller fitting one model after
	// another allocates it once.
	spare *linalg.PackedB
}

// set makes o the right operand b, packed when pack is true and the
// backend is the pure-Go one (b a *mat.Dense or its transpose), into the
// storage of o's previous packed matrix, which nothing else may hold.
func (o *operand) set(b mat.Matrix, pack bool) {
	into := o.p
	if into == nil {
		into = o.spare
	}
	*o = operand{m: b, spare: into}
	if !pack || !linalg.PureGo() {
		return
	}
	k, n := b.Dims()
	switch b := b.(type) {
	case *mat.Dense:
		raw := b.RawMatrix()
		o.p = linalg.PackBTo(into, false, k, n, raw.Data, raw.Stride)
	case mat.Transpose:
		if d, ok := b.Matrix.(*mat.Dense); ok {
			raw := d.RawMatrix()
			o.p = linalg.PackBTo(into, true, k, n, raw.Data, raw.Stride)
		}
	}
}

// reset empties o (its matrix m is nil), keeping its packed storage for
// the next set.
func (o *operand) reset() {
	if o.p != nil {
		o.spare = o.p
	}
	o.m, o.p = nil, nil
}

// mulTo sets dst = a·o (dst already sized, its elements overwritten).
func (o operand) mulTo(dst, a *mat.Dense) {
	if o.p == nil {
		dst.Mul(a, o.m)
		return
	}
	ra, da := a.RawMatrix(), dst.RawMatrix()
	linalg.GemmPacked(false, ra.Rows, 1, ra.Data, ra.Stride, o.p, 0, da.Data, da.Stride)
}

// centre returns the centred kernel rows k̃(x_m, x_n) = k(x_m, x_n) −
// mean_j k(x_m, x_j) − mean_i K_in + mean K (eq. 2) of kx (M×N).
func (m *KPCA) centre(kx *mat.Dense) *mat.Dense {
	r, n := kx.Dims()
	kc := mat.NewDense(r, n, nil)
	m.centreTo(kc, kx)
	return kc
}

// centreTo is centre writing into kc (M×N).
func (m *KPCA) centreTo(kc, kx *mat.Dense) {
	r, n := kx.Dims()
	for i := 0; i < r; i++ {
		row := kx.RawRowView(i)
		mu := floats.Sum(row) / float64(n)
		dst := kc.RawRowView(i)
		for j, v := range row {
			dst[j] = v - mu - m.colMean[j] + m.allMean
		}
	}
}

// checkGram returns kx's dimensions after checking, as ProjectGram and
// BetaGram need, that q is in [1, Rank()] and kx has a column per
// training point; either mismatch is a programmer error and panics.
func (m *KPCA) checkGram(kx *mat.Dense, q int) (r, n int) {
	if q < 1 || q > m.Rank() {
		panic(fmt.Sprintf("methods: %d components requested, model has %d", q, m.Rank()))
	}
	r, n = kx.Dims()
	if n != m.N() {
		panic(fmt.Sprintf("methods: kernel rows have %d columns, model has %d training points", n, m.N()))
	}
	return r, n
}

// BetaGram returns only the coordinates β (M×q) of ProjectGram, given
// kx = k(x_m, x_n) (M×N), without the M×N expansion Γ that pre-image
// methods need and feature extraction does not. q must be in [1, Rank()].
func (m *KPCA) BetaGram(kx *mat.Dense, q int) *mat.Dense {
	r, _ := m.checkGram(kx, q)
	beta := mat.NewDense(r, q, nil)
	beta.Mul(m.centre(kx), m.Alpha(q))
	return beta
}

// CostTerms holds, for a batch of feature-space points Ψ_m = Σ_n γ_mn φ(x_n),
// the quantities every distance-based pre-image method needs.
type CostTerms struct {
	// GK is M×N: (ΓK)_mn = ⟨Ψ_m, φ(x_n)⟩.
	GK *mat.Dense
	// Norm2 holds ‖Ψ_m‖² = γ_mᵀKγ_m (Ω of eq. 11 before centring terms cancel).
	Norm2 []float64
}

// NewCostTerms computes ΓK and ‖Ψ_m‖² with one matrix product.
func NewCostTerms(k *mat.SymDense, gamma *mat.Dense) *CostTerms {
	r, n := gamma.Dims()
	if n != k.SymmetricDim() {
		panic(fmt.Sprintf("methods: Γ has %d columns, Gram matrix is %d×%d", n, k.SymmetricDim(), k.SymmetricDim()))
	}
	gk := mat.NewDense(r, n, nil)
	gk.Mul(gamma, k)
	nrm := make([]float64, r)
	for i := range nrm {
		nrm[i] = floats.Dot(gk.RawRowView(i), gamma.RawRowView(i))
	}
	return &CostTerms{GK: gk, Norm2: nrm}
}

// TrainDist2 writes into dst (empty or M×N) the feature-space squared
// distances ‖Ψ_m − φ(x_n)‖² = k(x_n, x_n) − 2⟨Ψ_m, φ(x_n)⟩ + ‖Ψ_m‖².
func (c *CostTerms) TrainDist2(dst *mat.Dense, diag []float64) {
	r, n := c.GK.Dims()
	useDst(dst, r, n)
	for i := 0; i < r; i++ {
		g := c.GK.RawRowView(i)
		d := dst.RawRowView(i)
		for j := range d {
			d[j] = diag[j] - 2*g[j] + c.Norm2[i]
		}
	}
}

// FeatureDist2 returns R(z_m) = ‖φ(z_m) − Ψ_m‖² = k(z,z) − 2Σ_n γ_mn k(z, x_n)
// + ‖Ψ_m‖² (Abrahamsen & Hansen eq. 11) for each row z_m of z, batched.
func FeatureDist2(b *Basis, z mat.Matrix, gamma *mat.Dense, norm2 []float64) []float64 {
	r, _ := z.Dims()
	var kz mat.Dense
	kernel.Gram(&kz, b.Kernel, z, b.X)
	self := kernel.Diag(b.Kernel, z)
	out := make([]float64, r)
	for i := range out {
		out[i] = self[i] - 2*floats.Dot(kz.RawRowView(i), gamma.RawRowView(i)) + norm2[i]
	}
	return out
}

// Basis returns the training inputs, kernel and Gram matrix of m: what a
// pre-image estimator may use.
func (m *KPCA) Basis() *Basis {
	return &Basis{X: m.X, Kernel: m.Kernel, K: m.K, Diag: m.diag}
}

// LinearPCA returns linear PCA fitted on the same training inputs, computed
// once and shared by every caller.
func (m *KPCA) LinearPCA() (*PCA, error) {
	m.pcaOnce.Do(func() { m.pca, m.pcaErr = FitPCA(m.X) })
	return m.pca, m.pcaErr
}
