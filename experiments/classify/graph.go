package classify

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/methods"
)

// labelGraph returns the diagnostic neighbourhood graph built from the
// training labels (experiment.graph: labels, not the paper's method): each
// row of x is joined to its k nearest rows (Euclidean, input space) among
// the rows with the same label, or to all of them when its label has at
// most k other rows, and the graph is symmetrised as methods.KNNGraph
// symmetrises the paper's. Every edge therefore joins two images of one
// subject, while the degrees stay those of a k-NN graph, so λ keeps its
// scale and only the graph's purity changes. Ties in distance go to the
// lower index, as in methods.KNNGraph.
func labelGraph(x *mat.Dense, labels []int, k int) (*methods.Graph, error) {
	n, _ := x.Dims()
	if len(labels) != n {
		return nil, fmt.Errorf("label graph: %d labels for %d rows", len(labels), n)
	}
	if k < 1 {
		return nil, fmt.Errorf("label graph: %d neighbours requested; want k ≥ 1", k)
	}
	order, byLabel := datasets.ByClass(labels)
	b := methods.NewGraphBuilder(n)
	for _, l := range order {
		if rows := byLabel[l]; len(rows) >= 2 {
			b.AddKNN(x, rows, k)
		}
	}
	g := b.Graph()
	return g, nil
}

// sameLabelFraction returns the fraction of the graph's undirected edges
// {i, j} whose two ends carry the same label: for a face data set, the
// fraction of neighbourhood links that join two images of one subject.
func sameLabelFraction(g *methods.Graph, labels []int) (float64, error) {
	if len(labels) != g.N() {
		return 0, fmt.Errorf("graph of %d vertices, %d labels", g.N(), len(labels))
	}
	var same, all int
	for i, a := range g.Adj {
		for _, j := range a {
			if j <= i {
				continue // each undirected edge once
			}
			all++
			if labels[i] == labels[j] {
				same++
			}
		}
	}
	if all == 0 {
		return 0, errors.New("the neighbourhood graph has no edges")
	}
	return float64(same) / float64(all), nil
}

// laplacianMax returns the largest eigenvalue of the graph's Laplacian
// L = D − W. It bounds the locality term: uᵀΦ̃LΦ̃ᵀu ≤ λ_max(L)·‖Φ̃ᵀu‖², so
// with λ·λ_max(L) < 1 the LPKPCA objective is at least (1 − λ·λ_max(L))
// times the variance of every direction. The dense symmetric eigensolver
// gives it to rounding (N ≤ a few thousand here).
func laplacianMax(g *methods.Graph) (float64, error) {
	if g.N() == 0 {
		return 0, errors.New("empty graph")
	}
	var eig mat.EigenSym
	if !eig.Factorize(g.Laplacian(), false) {
		return 0, errors.New("the Laplacian's eigendecomposition did not converge")
	}
	v := eig.Values(nil)
	return v[len(v)-1], nil
}

// roughness returns, for the q leading kernel principal components of m,
// the Laplacian quadratic form v_iᵀLv_i of the unit eigenvector v_i of the
// centred Gram matrix (the training projections on component i are
// √λ_i·v_i). On direction i alone LPKPCA's objective is
// λ_i(1 − λ·v_iᵀLv_i): the component is penalised below zero, and so loses
// to near-null directions, exactly when λ·v_iᵀLv_i > 1.
func roughness(m *methods.KPCA, g *methods.Graph, q int) []float64 {
	n := m.N()
	q = min(q, m.Rank())
	// Alpha's columns are v_i/√λ_i.
	v := mat.NewDense(n, q, nil)
	v.Copy(m.Alpha(q))
	for i := 0; i < n; i++ {
		row := v.RawRowView(i)
		for j := range row {
			row[j] *= math.Sqrt(m.Values[j])
		}
	}
	var lv mat.Dense
	g.MulLaplacian(&lv, v)
	out := make([]float64, q)
	for j := range out {
		out[j] = mat.Dot(v.ColView(j), lv.ColView(j))
	}
	return out
}

// varianceKept returns the variance of the training images on the q
// leading LPKPCA directions as a fraction of the variance on the q leading
// kernel principal components (the most any q orthonormal directions can
// keep): Σ_j b_jᵀΛb_j / Σ_{i≤q} λ_i with b_j the j-th column of l.B. It is
// near 1 when LPKPCA keeps KPCA's subspace and falls towards 0 when its
// directions drift to near-null kernel directions.
func varianceKept(l *methods.LPKPCA, q int) float64 {
	vals := l.Model.Values
	r, _ := l.B.Dims()
	var kept, best float64
	for j := 0; j < q; j++ {
		best += vals[j]
		for i := 0; i < r; i++ {
			b := l.B.At(i, j)
			kept += vals[i] * b * b
		}
	}
	return kept / best
}

// subspaceOverlap returns how much of the q leading kernel principal
// components' span the q leading LPKPCA directions keep: ‖B_{1:q,1:q}‖²_F/q,
// the mean squared cosine of the principal angles between the two
// q-dimensional subspaces, 1 when they coincide and 0 when orthogonal. The
// classifier (L2-regularised logistic regression without bias) is
// invariant to rotations of its features, so LPKPCA's accuracy can differ
// from KPCA's only through the part of the subspace that changes.
func subspaceOverlap(l *methods.LPKPCA, q int) float64 {
	var s float64
	for i := 0; i < q; i++ {
		for j := 0; j < q; j++ {
			b := l.B.At(i, j)
			s += b * b
		}
	}
	return s / float64(q)
}
