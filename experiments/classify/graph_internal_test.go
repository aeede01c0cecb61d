package classify

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

// graphOf builds an undirected graph from an edge list.
func graphOf(n int, edges [][2]int) *methods.Graph {
	g := &methods.Graph{Adj: make([][]int, n)}
	for _, e := range edges {
		g.Adj[e[0]] = append(g.Adj[e[0]], e[1])
		g.Adj[e[1]] = append(g.Adj[e[1]], e[0])
	}
	for _, a := range g.Adj {
		sort.Ints(a)
	}
	return g
}

// λ_max(L) against graphs whose Laplacian spectrum is known in closed form
// (e.g. Chung, Spectral Graph Theory; Brouwer & Haemers, Spectra of
// Graphs §1.4): the path P_n has eigenvalues 2 − 2cos(πj/n), j = 0…n−1,
// so λ_max = 2 + 2cos(π/n); the complete graph K_n has n (multiplicity
// n−1); the star K_{1,n−1} has n; a disjoint union has the largest of its
// parts'; a graph without edges has L = 0.
func TestLaplacianMax(t *testing.T) {
	path := func(n int) *methods.Graph {
		var e [][2]int
		for i := 0; i+1 < n; i++ {
			e = append(e, [2]int{i, i + 1})
		}
		return graphOf(n, e)
	}
	complete := func(n, off int) [][2]int {
		var e [][2]int
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				e = append(e, [2]int{off + i, off + j})
			}
		}
		return e
	}
	star := func(n int) *methods.Graph {
		var e [][2]int
		for i := 1; i < n; i++ {
			e = append(e, [2]int{0, i})
		}
		return graphOf(n, e)
	}
	for _, tc := range []struct {
		name string
		g    *methods.Graph
		want float64
	}{
		{"P2", path(2), 2},
		{"P6", path(6), 2 + math.Sqrt(3)}, // 2 + 2cos(π/6)
		{"P9", path(9), 2 + 2*math.Cos(math.Pi/9)},
		{"K5", graphOf(5, complete(5, 0)), 5},
		{"star of 7", star(7), 7},
		{"K3 ∪ K6", graphOf(9, append(complete(3, 0), complete(6, 3)...)), 6},
		{"no edges", graphOf(4, nil), 0},
	} {
		got, err := laplacianMax(tc.g)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if math.Abs(got-tc.want) > 1e-12*math.Max(1, tc.want) {
			t.Errorf("%s: λ_max(L) = %.15g, want %.15g", tc.name, got, tc.want)
		}
	}
	if _, err := laplacianMax(&methods.Graph{}); err == nil {
		t.Error("empty graph: no error")
	}
}

// Points 0, 1, 10, 11 on a line, labelled a, a, b, b. By hand, k = 1: each
// point's nearest is its partner, edges {0,1} and {2,3}, both same-label:
// fraction 1. k = 2: 0 → {1, 2}, 1 → {0, 2}, 2 → {3, 1}, 3 → {2, 1}, so the
// symmetrised edges are {0,1}, {0,2}, {1,2}, {1,3}, {2,3}, of which {0,1}
// and {2,3} are same-label: 2/5.
func TestSameLabelFractionHand(t *testing.T) {
	x := mat.NewDense(4, 1, []float64{0, 1, 10, 11})
	labels := []int{7, 7, 3, 3}
	for _, tc := range []struct {
		k    int
		want float64
	}{{1, 1}, {2, 0.4}} {
		g, err := methods.KNNGraph(x, tc.k)
		if err != nil {
			t.Fatal(err)
		}
		got, err := sameLabelFraction(g, labels)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("k = %d: fraction %v, want %v", tc.k, got, tc.want)
		}
	}
	if _, err := sameLabelFraction(graphOf(3, nil), []int{1, 2, 3}); err == nil {
		t.Error("a graph without edges: no error")
	}
	if _, err := sameLabelFraction(graphOf(3, nil), []int{1, 2}); err == nil {
		t.Error("3 vertices, 2 labels: no error")
	}
}

// bruteSameLabel recomputes the same-label fraction of the symmetrised k-NN
// graph from scratch: every pairwise distance by a double loop, each
// point's k nearest (ties to the lower index), the undirected edge set,
// and the count of same-label edges.
func bruteSameLabel(x *mat.Dense, labels []int, k int) float64 {
	n, d := x.Dims()
	edges := map[[2]int]bool{}
	for i := 0; i < n; i++ {
		type nd struct {
			j    int
			dist float64
		}
		var all []nd
		for j := 0; j < n; j++ {
			if j == i {
				continue
			}
			var s float64
			for c := 0; c < d; c++ {
				v := x.At(i, c) - x.At(j, c)
				s += v * v
			}
			all = append(all, nd{j, s})
		}
		sort.SliceStable(all, func(a, b int) bool { return all[a].dist < all[b].dist })
		for _, e := range all[:k] {
			a, b := min(i, e.j), max(i, e.j)
			edges[[2]int{a, b}] = true
		}
	}
	var same int
	for e := range edges {
		if labels[e[0]] == labels[e[1]] {
			same++
		}
	}
	return float64(same) / float64(len(edges))
}

// The k-NN graph's same-label fraction on a tiny synthetic-images set
// equals the brute-force count, and is 1 on well-separated classes; the
// label graph's is exactly 1 and every class of at most k+1 images is a
// complete graph.
func TestSameLabelFractionSynthetic(t *testing.T) {
	// Well separated: one lighting, classes differ only by their blobs,
	// pixel noise 0.02. Mixed: two lightings and pixel noise 0.6, where
	// neighbours cross classes (the brute-force check still applies).
	for _, tc := range []struct {
		groups, perCell int
		noise           float64
	}{{1, 6, 0.02}, {2, 3, 0.6}} {
		noise := tc.noise
		set, _, err := datasets.SyntheticImages(datasets.SyntheticImagesOptions{Classes: 3, Groups: tc.groups, PerCell: tc.perCell, Width: 6, Height: 5, Noise: noise}, rand.New(rand.NewPCG(2, 3)))
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{1, 2, 4, 7} {
			g, err := methods.KNNGraph(set.X, k)
			if err != nil {
				t.Fatal(err)
			}
			got, err := sameLabelFraction(g, set.Labels)
			if err != nil {
				t.Fatal(err)
			}
			want := bruteSameLabel(set.X, set.Labels, k)
			t.Logf("%d lighting(s), noise %v, k = %d: k-NN same-label fraction %v", tc.groups, noise, k, got)
			if got != want {
				t.Errorf("noise %v, k = %d: fraction %v, brute force %v", noise, k, got, want)
			}
			if noise == 0.02 && k <= 4 && got < 0.95 {
				t.Errorf("well-separated classes, k = %d: fraction %v, want near 1", k, got)
			}
			lg, err := labelGraph(set.X, set.Labels, k)
			if err != nil {
				t.Fatal(err)
			}
			if f, err := sameLabelFraction(lg, set.Labels); err != nil || f != 1 {
				t.Errorf("label graph, k = %d: fraction %v (%v), want exactly 1", k, f, err)
			}
			// 6 images per class: with k ≥ 5 each class is K_6 (degree 5);
			// below, every degree is at least k (symmetrisation adds).
			for i, a := range lg.Adj {
				if k >= 5 && len(a) != 5 || len(a) < min(k, 5) {
					t.Errorf("label graph, k = %d: vertex %d has degree %d", k, i, len(a))
				}
			}
			if k >= 5 {
				if lmax, _ := laplacianMax(lg); math.Abs(lmax-6) > 1e-12 {
					t.Errorf("label graph = 3 × K_6: λ_max(L) = %v, want 6", lmax)
				}
			}
		}
	}
}

// roughness v_iᵀLv_i equals the edge sum Σ_{i~j} (v_a − v_b)² of the unit
// eigenvector (the Laplacian's quadratic form written independently), and
// LPKPCA at λ = 0 keeps all of KPCA's variance while λ > 0 keeps at most
// all of it.
func TestRoughnessAndVarianceKept(t *testing.T) {
	set, _, err := datasets.SyntheticImages(datasets.SyntheticImagesOptions{Classes: 4, Groups: 2, PerCell: 4, Width: 6, Height: 6, Noise: 0.1}, rand.New(rand.NewPCG(9, 1)))
	if err != nil {
		t.Fatal(err)
	}
	md, _, err := kernel.MeanDistance(set.X)
	if err != nil {
		t.Fatal(err)
	}
	m, err := methods.FitKPCA(set.X, kernel.NewGaussianSigma(md))
	if err != nil {
		t.Fatal(err)
	}
	g, err := methods.KNNGraph(set.X, 3)
	if err != nil {
		t.Fatal(err)
	}
	const q = 6
	rough := roughness(m, g, q)
	n := m.N()
	for i := 0; i < q; i++ {
		v := make([]float64, n)
		var norm float64
		for a := 0; a < n; a++ {
			v[a] = m.Alpha(m.Rank()).At(a, i) * math.Sqrt(m.Values[i])
			norm += v[a] * v[a]
		}
		var want float64
		for a, adj := range g.Adj {
			for _, b := range adj {
				if b > a {
					want += (v[a] - v[b]) * (v[a] - v[b])
				}
			}
		}
		if math.Abs(norm-1) > 1e-9 {
			t.Fatalf("component %d: ‖v‖² = %v, want 1", i, norm)
		}
		if math.Abs(rough[i]-want) > 1e-10*math.Max(1, want) {
			t.Errorf("component %d: vᵀLv = %v, edge sum %v", i, rough[i], want)
		}
		lmax, _ := laplacianMax(g)
		if rough[i] < -1e-12 || rough[i] > lmax+1e-9 {
			t.Errorf("component %d: vᵀLv = %v outside [0, λ_max = %v]", i, rough[i], lmax)
		}
	}
	for _, lambda := range []float64{0, 0.05, 5} {
		l, err := methods.FitLPKPCA(m, g, lambda, q)
		if err != nil {
			t.Fatal(err)
		}
		vk := varianceKept(l, q)
		if lambda == 0 && math.Abs(vk-1) > 1e-10 {
			t.Errorf("λ = 0: variance kept %v, want 1", vk)
		}
		if vk > 1+1e-10 || vk < 0 {
			t.Errorf("λ = %v: variance kept %v outside [0, 1]", lambda, vk)
		}
		ov := subspaceOverlap(l, q)
		if lambda == 0 && math.Abs(ov-1) > 1e-10 {
			t.Errorf("λ = 0: subspace overlap %v, want 1", ov)
		}
		if ov > 1+1e-10 || ov < 0 {
			t.Errorf("λ = %v: subspace overlap %v outside [0, 1]", lambda, ov)
		}
		t.Logf("λ = %v: variance kept %.4f, subspace overlap %.4f", lambda, vk, ov)
		// The Courant–Fischer bound: the q-th objective value is at
		// least (1 − λ·λ_max)·λ_q, and each kept direction's variance is
		// at least its objective value.
		lmax, _ := laplacianMax(g)
		if lo := (1 - lambda*lmax) * m.Values[q-1]; l.Values[q-1] < lo-1e-9 {
			t.Errorf("λ = %v: μ_q = %v below (1 − λλ_max)λ_q = %v", lambda, l.Values[q-1], lo)
		}
	}
}

// subspaceOverlap by hand: with q = 2 and B's leading 2×2 block
// [[cos θ, ·], [·, ·]] of a rotation by θ in the plane of components 2 and
// 3, the overlap is (1 + cos²θ)/2.
func TestSubspaceOverlapHand(t *testing.T) {
	const th = 0.3
	c, s := math.Cos(th), math.Sin(th)
	// Columns: direction 1 = component 1; direction 2 = cos θ·e2 + sin θ·e3.
	b := mat.NewDense(3, 2, []float64{
		1, 0,
		0, c,
		0, s,
	})
	l := &methods.LPKPCA{B: b}
	want := (1 + c*c) / 2
	if got := subspaceOverlap(l, 2); math.Abs(got-want) > 1e-15 {
		t.Errorf("overlap %v, want (1 + cos²θ)/2 = %v", got, want)
	}
}
