package classify

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/methods"
)

// mixedGraph returns the diagnostic graph of experiment.graph: mixed (not
// the paper's method): the paper's k-NN graph with its same-subject rate
// raised to rate, degrees kept. Each row i of x has its k nearest rows
// (Euclidean, ties to the lower index, as methods.KNNGraph), s_i of them
// of its own label. With S = Σ s_i of the N·k choices, a fraction
// f = (rate − S/(Nk))/(1 − S/(Nk)) of the other-label choices is replaced
// (none when the graph is already at or above rate): node i, in index
// order, replaces round(f·C_i) − round(f·C_{i−1}) of its other-label
// neighbours, C_i the other-label choices of nodes 0..i, so the total is
// round(f·C_N) whatever the order, the farthest first, each by its nearest
// image of its own label not yet among its choices (the order
// labelGraph uses). When its label has no image left the neighbour is
// dropped, as labelGraph joins all of a label's images when it has at most
// k. The choices are then symmetrised as methods.KNNGraph's. So the
// fraction of choices within one label is rate to 1/(Nk) when no node
// runs out, rate 0 leaves the k-NN graph and rate 1 gives labelGraph.
func mixedGraph(x *mat.Dense, labels []int, k int, rate float64) (*methods.Graph, error) {
	ch, err := mixedChoices(x, labels, k, rate)
	if err != nil {
		return nil, err
	}
	b := methods.NewGraphBuilder(len(ch))
	for i, c := range ch {
		for _, j := range c {
			b.Add(i, j)
		}
	}
	return b.Graph(), nil
}

// mixedChoices returns each row's choices of mixedGraph before
// symmetrisation.
func mixedChoices(x *mat.Dense, labels []int, k int, rate float64) ([][]int, error) {
	n, _ := x.Dims()
	if len(labels) != n {
		return nil, fmt.Errorf("mixed graph: %d labels for %d rows", len(labels), n)
	}
	if k < 1 || k >= n {
		return nil, fmt.Errorf("mixed graph: %d neighbours requested for %d points; want 1 ≤ k < N", k, n)
	}
	if !(rate >= 0 && rate <= 1) {
		return nil, fmt.Errorf("mixed graph: same-subject rate %g; want a fraction in [0, 1]", rate)
	}
	choices := methods.Nearest(x, nil, k)
	own := ownOrder(x, labels)
	same := 0
	for i, c := range choices {
		for _, j := range c {
			if labels[j] == labels[i] {
				same++
			}
		}
	}
	f := 0.0
	if s := float64(same) / float64(n*k); rate > s {
		f = (rate - s) / (1 - s)
	}
	out := make([][]int, n)
	cum, done := 0, 0
	for i, c := range choices {
		for _, j := range c {
			if labels[j] != labels[i] {
				cum++
			}
		}
		m := int(math.Round(f*float64(cum))) - done
		done += m
		out[i] = replaceFarthest(i, c, labels, own[i], m)
	}
	return out, nil
}

// replaceFarthest returns node i's choices c (nearest first) with its m
// farthest other-label neighbours replaced by the first rows of cand (its
// own label's rows, nearest first) not already chosen, or dropped when
// cand runs out.
func replaceFarthest(i int, c, labels, cand []int, m int) []int {
	chosen := map[int]bool{}
	for _, j := range c {
		chosen[j] = true
	}
	out := append([]int(nil), c...)
	next := 0
	for p := len(out) - 1; p >= 0 && m > 0; p-- {
		if labels[out[p]] == labels[i] {
			continue
		}
		m--
		for next < len(cand) && chosen[cand[next]] {
			next++
		}
		if next == len(cand) {
			out = append(out[:p], out[p+1:]...)
			continue
		}
		out[p] = cand[next]
		chosen[cand[next]] = true
	}
	return out
}

// ownOrder returns, for each row of x, the other rows of its label,
// nearest first (distances within the label's rows, as labelGraph
// computes them).
func ownOrder(x *mat.Dense, labels []int) [][]int {
	out := make([][]int, len(labels))
	order, byLabel := datasets.ByClass(labels)
	for _, l := range order {
		rows := byLabel[l]
		for a, c := range methods.Nearest(x, rows, len(rows)) {
			out[rows[a]] = c
		}
	}
	return out
}
