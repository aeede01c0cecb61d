package methods

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/linalg"
)

// LPKPCA is Locality Preserving Kernel PCA (Zheng, Shen, Yang, Ma, Liu &
// Zhang, ICIG 2015, eq. 13–24): feature-space directions u with uᵀu = 1
// that maximise the variance of the centred training images minus λ times
// their locality cost,
//
//	uᵀΦ̃Φ̃ᵀu − λ·uᵀΦ̃LΦ̃ᵀu = uᵀΦ̃(I − λL)Φ̃ᵀu   (eq. 15–17),
//
// where L = D − W is the Laplacian of the symmetrised kNN graph of the
// training inputs (eq. 13–14, Euclidean distance in input space).
//
// The paper's eq. 23 writes the eigenproblem of K̂(λL − I) and keeps its
// largest eigenvalues, which is the minimum of its own objective and gives
// ω_i = v_iᵀ(λL − I)v_i that may be negative (paper-values ambiguity a1);
// we solve the stated objective (15) instead, as REPRODUCTION.md §3 says.
// Every maximiser lies in the range of Φ̃, so with the kernel PCA fit
// K̂ = VΛVᵀ write u = Φ̃VΛ^{-½}b: then uᵀu = bᵀb and Φ̃ᵀu = VΛ^{½}b, and the
// problem becomes the symmetric r×r eigenproblem
//
//	M b = μ b,  M = Λ^{½}Vᵀ(I − λL)VΛ^{½} = Λ − λ·(VΛ^{½})ᵀL(VΛ^{½}),
//
// whose leading eigenvectors give the directions, already orthonormal in
// feature space. The expansion coefficients are α = VΛ^{-½}B = Alpha·B with
// Alpha the fitted KPCA's, so a point's LPKPCA features are its KPCA
// features on all r components rotated by B (eq. 24, with the test kernel
// vector centred as for KPCA; the paper's eq. 24 leaves it uncentred, a3).
// With λ = 0, M = Λ and LPKPCA is KPCA.
//
// An LPKPCA shares the fitted KPCA's eigendecomposition: fitting it for a
// new λ or neighbour count costs one sparse product with L, the upper
// triangle of one r×N×r product, and the d leading eigenpairs of the r×r
// matrix M (tridiagonal reduction and inverse iteration, topEigenSym,
// rather than all r eigenvectors; docs/performance.md).
type LPKPCA struct {
	// Model is the kernel PCA fit the directions are expressed in.
	Model *KPCA
	// Lambda is the weight λ of the locality term.
	Lambda float64
	// Values holds the objective values μ_1 ≥ μ_2 ≥ … of the kept
	// directions (eigenvalues of M).
	Values []float64
	// B is r×d: column i holds the coordinates of direction i on the r
	// kernel principal components of Model.
	B *mat.Dense
}

// Graph is a symmetric unweighted neighbourhood graph on N points, kept as
// adjacency lists so products with its Laplacian cost O(N·k) per column.
type Graph struct {
	// Adj[i] lists the neighbours of i in increasing order.
	Adj [][]int
}

// KNNGraph returns the symmetrised k-nearest-neighbour graph of the rows
// of x under the Euclidean distance: w_ij = 1 when x_j is among the k
// nearest neighbours of x_i or x_i among those of x_j (Zheng et al.
// eq. 13, which defines w_ij from "x_j among the k neighbours of x_i"; the
// symmetrisation makes L = D − W symmetric, as eq. 14 needs). Ties in
// distance go to the lower index, so the graph is deterministic.
func KNNGraph(x mat.Matrix, k int) (*Graph, error) {
	n, _ := x.Dims()
	if k < 1 || k >= n {
		return nil, fmt.Errorf("methods: %d neighbours requested for %d points; want 1 ≤ k < N", k, n)
	}
	b := NewGraphBuilder(n)
	b.AddKNN(x, nil, k)
	return b.Graph(), nil
}

// GraphBuilder accumulates the symmetric edges of a graph on N points,
// for graphs built in parts (a k-NN graph within each subject).
type GraphBuilder struct {
	sets []map[int]bool
}

// NewGraphBuilder returns a builder of a graph on n points with no edges.
func NewGraphBuilder(n int) *GraphBuilder {
	sets := make([]map[int]bool, n)
	for i := range sets {
		sets[i] = map[int]bool{}
	}
	return &GraphBuilder{sets: sets}
}

// AddKNN joins each of the given rows of x (indices of the whole graph, in
// increasing order; nil for every row) to its k nearest among those rows
// under the Euclidean distance, both ways. Ties go to the lower index.
// A row with fewer than k others is joined to all of them.
func (b *GraphBuilder) AddKNN(x mat.Matrix, rows []int, k int) {
	for a, c := range Nearest(x, rows, k) {
		i := a
		if rows != nil {
			i = rows[a]
		}
		for _, j := range c {
			b.Add(i, j)
		}
	}
}

// Nearest returns, for each of the given rows of x (indices in increasing
// order; nil for every row), its k nearest among those rows under the
// Euclidean distance, nearest first, as indices of x; ties go to the lower
// index, and a row with fewer than k others gets all of them. The k-NN
// graphs are built from these lists.
func Nearest(x mat.Matrix, rows []int, k int) [][]int {
	sub := x
	if rows != nil {
		_, d := x.Dims()
		m := mat.NewDense(len(rows), d, nil)
		for a, r := range rows {
			for c := 0; c < d; c++ {
				m.Set(a, c, x.At(r, c))
			}
		}
		sub = m
	}
	n, _ := sub.Dims()
	id := func(a int) int {
		if rows == nil {
			return a
		}
		return rows[a]
	}
	var d2 mat.Dense
	kernel.SqDist(&d2, sub, sub)
	out := make([][]int, n)
	idx := make([]int, n)
	for i := range out {
		row := d2.RawRowView(i)
		for j := range idx {
			idx[j] = j
		}
		sort.SliceStable(idx, func(a, b int) bool { return row[idx[a]] < row[idx[b]] })
		for _, j := range idx {
			if len(out[i]) == k {
				break
			}
			if j != i {
				out[i] = append(out[i], id(j))
			}
		}
	}
	return out
}

// Add joins points i and j (i ≠ j) both ways.
func (b *GraphBuilder) Add(i, j int) {
	b.sets[i][j] = true
	b.sets[j][i] = true
}

// Graph returns the graph built so far, neighbours in increasing order.
func (b *GraphBuilder) Graph() *Graph {
	g := &Graph{Adj: make([][]int, len(b.sets))}
	for i, s := range b.sets {
		for j := range s {
			g.Adj[i] = append(g.Adj[i], j)
		}
		sort.Ints(g.Adj[i])
	}
	return g
}

// N returns the number of vertices.
func (g *Graph) N() int { return len(g.Adj) }

// Laplacian returns L = D − W as a dense symmetric matrix.
func (g *Graph) Laplacian() *mat.SymDense {
	n := g.N()
	l := mat.NewSymDense(n, nil)
	for i, a := range g.Adj {
		l.SetSym(i, i, float64(len(a)))
		for _, j := range a {
			l.SetSym(i, j, -1)
		}
	}
	return l
}

// MulLaplacian writes L·P into dst (N×c) for P (N×c), with L = D − W:
// row i of LP is deg(i)·p_i − Σ_{j~i} p_j.
func (g *Graph) MulLaplacian(dst, p *mat.Dense) {
	n, c := p.Dims()
	if n != g.N() {
		panic(fmt.Sprintf("methods: %d rows, graph has %d vertices", n, g.N()))
	}
	useDst(dst, n, c)
	for i, a := range g.Adj {
		out := dst.RawRowView(i)
		src := p.RawRowView(i)
		deg := float64(len(a))
		for t, v := range src {
			out[t] = deg * v
		}
		for _, j := range a {
			pj := p.RawRowView(j)
			for t, v := range pj {
				out[t] -= v
			}
		}
	}
}

// FitLPKPCA returns the d leading LPKPCA directions of the training set of
// m for the neighbourhood graph g (on the same N training points) and the
// locality weight lambda ≥ 0. d must be in [1, m.Rank()].
func FitLPKPCA(m *KPCA, g *Graph, lambda float64, d int) (*LPKPCA, error) {
	n, r := m.N(), m.Rank()
	if g.N() != n {
		return nil, fmt.Errorf("methods: the graph has %d vertices, the model %d training points", g.N(), n)
	}
	if d < 1 || d > r {
		return nil, fmt.Errorf("methods: %d LPKPCA directions requested, the kernel matrix has numerical rank %d", d, r)
	}
	if !(lambda >= 0) || math.IsInf(lambda, 0) {
		return nil, fmt.Errorf("methods: LPKPCA weight λ = %g; want a finite λ ≥ 0", lambda)
	}
	// P = VΛ^{½} = Alpha·Λ: Alpha's columns are v_i/√λ_i.
	p := mat.NewDense(n, r, nil)
	p.Copy(m.Alpha(r))
	for i := 0; i < n; i++ {
		row := p.RawRowView(i)
		for j := range row {
			row[j] *= m.Values[j]
		}
	}
	vals, vecs, err := lpkpcaSolve(m, g, p, lambda, d)
	if err != nil {
		return nil, err
	}
	out := &LPKPCA{Model: m, Lambda: lambda, Values: vals, B: mat.NewDense(r, d, nil)}
	for k := 0; k < d; k++ {
		// Fix the sign so the largest-magnitude coordinate is positive:
		// eigenvectors are defined up to sign, and a fixed choice keeps
		// features comparable across runs.
		var big float64
		for i := 0; i < r; i++ {
			if v := vecs.At(i, k); math.Abs(v) > math.Abs(big) {
				big = v
			}
		}
		s := 1.0
		if big < 0 {
			s = -1
		}
		for i := 0; i < r; i++ {
			out.B.Set(i, k, s*vecs.At(i, k))
		}
	}
	return out, nil
}

// useTopEigen reports whether FitLPKPCA computes only its d leading
// eigenvectors (topEigenSym) rather than all r (mat.EigenSym): when d is
// at most half of r, on the pure-Go backend. Under OpenBLAS, mat.EigenSym
// is LAPACK's divide and conquer, which took less CPU than topEigenSym
// (whose Dsytrd makes one cgo call per column) in both measurements of
// BenchmarkFitLPKPCA1500 (1.4 vs 1.6 and 2.5 vs 3.8 CPU-seconds). A
// variable so tests can force either path.
var useTopEigen = func(r, d int) bool { return 2*d <= r && linalg.Backend() != "openblas" }

// lpkpcaStrip is the number of rows of PᵀLP computed by one matrix
// product in lpkpcaSolve.
const lpkpcaStrip = 256

// lpkpcaSolve forms M = Λ − λ·PᵀLP and returns its d largest eigenpairs
// (decreasing).
func lpkpcaSolve(m *KPCA, g *Graph, p *mat.Dense, lambda float64, d int) ([]float64, *mat.Dense, error) {
	r := m.Rank()
	var lp mat.Dense
	g.MulLaplacian(&lp, p)
	// PᵀLP is symmetric: compute its upper triangle only, a strip of
	// lpkpcaStrip rows at a time from the diagonal rightwards (about half
	// the r×N×r product).
	n := m.N()
	ptlp := mat.NewDense(r, r, nil)
	for i0 := 0; i0 < r; i0 += lpkpcaStrip {
		i1 := min(i0+lpkpcaStrip, r)
		ptlp.Slice(i0, i1, i0, r).(*mat.Dense).Mul(p.Slice(0, n, i0, i1).T(), lp.Slice(0, n, i0, r))
	}
	msym := mat.NewSymDense(r, nil)
	for i := 0; i < r; i++ {
		for j := i; j < r; j++ {
			v := -lambda * ptlp.At(i, j)
			if i == j {
				v += m.Values[i]
			}
			msym.SetSym(i, j, v)
		}
	}
	if useTopEigen(r, d) {
		if vals, vecs, ok := topEigenSym(mat.NewSymDense(r, append([]float64(nil), msym.RawSymmetric().Data...)), d); ok {
			return vals, vecs, nil
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(msym, true) {
		return nil, nil, errors.New("methods: LPKPCA eigendecomposition did not converge")
	}
	ev := eig.Values(nil)
	var all mat.Dense
	eig.VectorsTo(&all)
	vals := make([]float64, d)
	vecs := mat.NewDense(r, d, nil)
	for k := 0; k < d; k++ {
		src := r - 1 - k // EigenSym orders eigenvalues increasingly.
		vals[k] = ev[src]
		for i := 0; i < r; i++ {
			vecs.Set(i, k, all.At(i, src))
		}
	}
	return vals, vecs, nil
}

// Dims returns the number of directions d.
func (p *LPKPCA) Dims() int { _, d := p.B.Dims(); return d }

// Alpha returns the N×d expansion coefficients α = Alpha·B of the
// directions: u_i = Σ_n α_ni φ̃(x_n).
func (p *LPKPCA) Alpha() *mat.Dense {
	var a mat.Dense
	a.Mul(p.Model.Alpha(p.Model.Rank()), p.B)
	return &a
}

// Rotate maps full KPCA projections β (M×r, on every component of Model,
// as in Projection.Beta with q = Rank()) to the first q ≤ d LPKPCA features
// y = βB (eq. 24).
func (p *LPKPCA) Rotate(beta *mat.Dense, q int) *mat.Dense {
	rows, r := beta.Dims()
	if r != p.Model.Rank() {
		panic(fmt.Sprintf("methods: projections on %d components, the model has %d", r, p.Model.Rank()))
	}
	if q < 1 || q > p.Dims() {
		panic(fmt.Sprintf("methods: %d LPKPCA features requested, %d fitted", q, p.Dims()))
	}
	y := mat.NewDense(rows, q, nil)
	y.Mul(beta, p.B.Slice(0, r, 0, q))
	return y
}

// Project returns the LPKPCA features (M×d) of the rows of x, with one Gram
// matrix product for the batch.
func (p *LPKPCA) Project(x mat.Matrix) *mat.Dense {
	var kx mat.Dense
	kernel.Gram(&kx, p.Model.Kernel, x, p.Model.X)
	return p.Rotate(p.Model.BetaGram(&kx, p.Model.Rank()), p.Dims())
}
