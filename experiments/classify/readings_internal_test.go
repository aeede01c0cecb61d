package classify

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

// mixedFixture is 6 subjects × 8 images in 5 dimensions: each subject a
// cluster of spread 1 around a centre drawn with spread 1.2, so the k-NN
// graph mixes subjects (about half of its choices join two subjects at
// k = 4), with 7 others per subject, more than k.
func mixedFixture() (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(44, 2))
	const subjects, per, dim = 6, 8, 5
	x := mat.NewDense(subjects*per, dim, nil)
	labels := make([]int, subjects*per)
	for s := 0; s < subjects; s++ {
		c := make([]float64, dim)
		for j := range c {
			c[j] = 1.2 * rng.NormFloat64()
		}
		for i := 0; i < per; i++ {
			// Interleave the subjects so rows of one subject are not
			// contiguous.
			row := i*subjects + s
			labels[row] = s
			for j := range c {
				x.Set(row, j, c[j]+rng.NormFloat64())
			}
		}
	}
	return x, labels
}

// choiceRate is the fraction of the nodes' choices that join one label.
func choiceRate(choices [][]int, labels []int) float64 {
	var same, all int
	for i, c := range choices {
		for _, j := range c {
			all++
			if labels[i] == labels[j] {
				same++
			}
		}
	}
	return float64(same) / float64(all)
}

// TestMixedGraphEnds: rate 1 gives exactly the label graph (every choice
// within the subject, the subject's k nearest: the same graph as
// labelGraph, edge for edge) and a rate at or below the k-NN graph's own
// gives exactly the k-NN graph (methods.KNNGraph), on the fixture at
// k = 4 and k = 9 (more than a subject's 7 others: the label graph joins
// all of them, and so must rate 1).
func TestMixedGraphEnds(t *testing.T) {
	x, labels := mixedFixture()
	for _, k := range []int{4, 9} {
		lg, err := labelGraph(x, labels, k)
		if err != nil {
			t.Fatal(err)
		}
		g1, err := mixedGraph(x, labels, k, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !sameGraph(g1, lg) {
			t.Errorf("k = %d: rate 1 differs from the label graph", k)
		}
		kg, err := methods.KNNGraph(x, k)
		if err != nil {
			t.Fatal(err)
		}
		g0, err := mixedGraph(x, labels, k, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !sameGraph(g0, kg) {
			t.Errorf("k = %d: rate 0 differs from the k-NN graph", k)
		}
		// Negative control: a rate between differs from both.
		gh, err := mixedGraph(x, labels, k, 0.8)
		if err != nil {
			t.Fatal(err)
		}
		if sameGraph(gh, kg) || sameGraph(gh, lg) {
			t.Errorf("k = %d: rate 0.8 equals one of the ends", k)
		}
	}
}

// TestMixedGraphRate: on the fixture at k = 4 (no subject runs out: 7
// others each), the fraction of the N·k choices within one subject is the
// target to 1/(Nk) for targets above the k-NN graph's own rate, and the
// graph built is the symmetrisation of exactly those choices; every node
// keeps k choices (degrees kept). Building it twice gives the same graph.
func TestMixedGraphRate(t *testing.T) {
	x, labels := mixedFixture()
	const k = 4
	n := len(labels)
	base := choiceRate(methods.Nearest(x, nil, k), labels)
	if !(base > 0.2 && base < 0.7) {
		t.Fatalf("fixture's k-NN choice rate %v: want a mixed graph", base)
	}
	for _, rate := range []float64{0.75, 0.8, 0.9, 1} {
		ch, err := mixedChoices(x, labels, k, rate)
		if err != nil {
			t.Fatal(err)
		}
		knn := methods.Nearest(x, nil, k)
		for i, c := range ch {
			if len(c) != k {
				t.Errorf("rate %v: node %d has %d choices, want %d", rate, i, len(c), k)
			}
			// Its k-NN choices within its subject are all kept.
			for _, j := range knn[i] {
				if labels[j] == labels[i] && !slices.Contains(c, j) {
					t.Errorf("rate %v: node %d lost its same-subject neighbour %d", rate, i, j)
				}
			}
		}
		if got := choiceRate(ch, labels); math.Abs(got-rate) > 1/float64(n*k)+1e-12 {
			t.Errorf("rate %v: achieved %v (k-NN graph %v)", rate, got, base)
		}
		b := methods.NewGraphBuilder(n)
		for i, c := range ch {
			for _, j := range c {
				b.Add(i, j)
			}
		}
		g, err := mixedGraph(x, labels, k, rate)
		if err != nil {
			t.Fatal(err)
		}
		if !sameGraph(g, b.Graph()) {
			t.Errorf("rate %v: the graph is not the symmetrisation of the choices", rate)
		}
		again, _ := mixedGraph(x, labels, k, rate)
		if !sameGraph(g, again) {
			t.Errorf("rate %v: two builds differ", rate)
		}
		// The symmetrised graph's same-subject edge rate rises with the
		// target (the quantity graph_stats reports).
		if f, _ := sameLabelFraction(g, labels); rate == 1 && f != 1 {
			t.Errorf("rate 1: same-subject edge fraction %v, want 1", f)
		}
	}
	if _, err := mixedGraph(x, labels, k, 1.5); err == nil {
		t.Error("rate 1.5 accepted")
	}
}

func sameGraph(a, b *methods.Graph) bool {
	if a.N() != b.N() {
		return false
	}
	for i := range a.Adj {
		if !slices.Equal(a.Adj[i], b.Adj[i]) {
			return false
		}
	}
	return true
}

// TestRawBeta: uncentred projections are Alphaᵀκ(X, x) with the raw
// kernel row, computed here one dot product at a time, and differ from
// the centred ones by the one vector Alphaᵀ(K1/N) for every point (Alpha's
// columns are orthogonal to the constant vector), so they are not the
// centred ones (negative control).
func TestRawBeta(t *testing.T) {
	x, _ := mixedFixture()
	xt := mat.NewDense(3, 5, []float64{1, 0, 0, 0, 0, 0, 2, 0, 1, 0, -1, -1, 0, 0, 3})
	k := kernel.NewGaussianSigma(3)
	m, err := methods.FitKPCA(x, k)
	if err != nil {
		t.Fatal(err)
	}
	r := m.Rank()
	var kx mat.Dense
	kernel.Gram(&kx, k, xt, x)
	raw := rawBeta(m, &kx, r)
	cen := m.BetaGram(&kx, r)
	n := m.N()
	shift := make([]float64, r)
	for c := 0; c < r; c++ {
		for i := 0; i < n; i++ {
			var col float64
			for j := 0; j < n; j++ {
				col += m.K.At(i, j) / float64(n)
			}
			shift[c] += m.Alpha(m.Rank()).At(i, c) * col
		}
	}
	var moved float64
	for p := 0; p < 3; p++ {
		for c := 0; c < r; c++ {
			var want float64
			for i := 0; i < n; i++ {
				want += m.Alpha(m.Rank()).At(i, c) * k.Eval(xt.RawRowView(p), x.RawRowView(i))
			}
			if math.Abs(raw.At(p, c)-want) > 1e-10 {
				t.Errorf("point %d, component %d: %v, want Alphaᵀκ = %v", p, c, raw.At(p, c), want)
			}
			if math.Abs(raw.At(p, c)-cen.At(p, c)-shift[c]) > 1e-9 {
				t.Errorf("point %d, component %d: raw − centred = %v, want Alphaᵀ(K1/N) = %v", p, c, raw.At(p, c)-cen.At(p, c), shift[c])
			}
			moved = math.Max(moved, math.Abs(raw.At(p, c)-cen.At(p, c)))
		}
	}
	if moved < 1e-6 {
		t.Errorf("raw and centred projections agree to %v: the reading would change nothing", moved)
	}
}

// TestRandomSplit: half of 41 rows (20) for training, drawn without regard
// to class, deterministic for a seed, the two parts a partition, and a
// different seed a different draw; a fraction leaving a part empty fails.
func TestRandomSplit(t *testing.T) {
	a, err := randomSplit(41, 0.5, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := randomSplit(41, 0.5, rand.New(rand.NewPCG(1, 2)))
	c, _ := randomSplit(41, 0.5, rand.New(rand.NewPCG(3, 4)))
	if len(a.Train) != 20 || len(a.Test) != 21 {
		t.Fatalf("%d/%d rows, want 20/21", len(a.Train), len(a.Test))
	}
	all := slices.Sorted(slices.Values(append(append([]int(nil), a.Train...), a.Test...)))
	for i, v := range all {
		if v != i {
			t.Fatalf("parts are not a partition of 0..40: %v", all)
		}
	}
	if !slices.Equal(a.Train, b.Train) || slices.Equal(a.Train, c.Train) {
		t.Error("same seed gave another draw, or another seed the same")
	}
	if !slices.IsSorted(a.Train) || !slices.IsSorted(a.Test) {
		t.Error("rows not in data order")
	}
	if _, err := randomSplit(3, 0.2, rand.New(rand.NewPCG(1, 2))); err == nil {
		t.Error("no training row accepted")
	}
}
