package classify

import (
	"fmt"
	"strconv"

	"gonum.org/v1/gonum/stat"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// graphSummary is what a graph says about one split, whatever λ: the
// fraction of its edges joining one subject's images and λ_max(L).
type graphSummary struct {
	sameLabel float64
	lmax      float64
}

// splitStats holds one split's graph diagnostics (experiment.graph_stats)
// for one cell: per neighbour count k, and per (λ, k) point of the sweep.
type splitStats struct {
	sameLabel, knnSameLabel, lmax map[int]float64 // by k
	penalised, varianceKept       []float64       // by point
	overlap                       []float64       // by point
}

// summary returns g's graphSummary, once per process: under the graph's
// key and the split's labels (the same images may carry other labels in
// another config).
func (in *instance) summary(sp *split, g *methods.Graph, gkey string) (*graphSummary, error) {
	return runner.Memo(in.env, gkey+"/summary/"+sp.labelKey, func() (*graphSummary, error) {
		same, err := sameLabelFraction(g, sp.ytr)
		if err != nil {
			return nil, err
		}
		lmax, err := laplacianMax(g)
		if err != nil {
			return nil, err
		}
		return &graphSummary{sameLabel: same, lmax: lmax}, nil
	})
}

// summarised builds split sp's graph of k neighbours by build (in.graph,
// in.knnGraph) and returns it with its key and its summary.
func (in *instance) summarised(build func(*split, *fitted, int) (*methods.Graph, string, error), sp *split, f *fitted, k int) (*methods.Graph, string, *graphSummary, error) {
	g, key, err := build(sp, f, k)
	if err != nil {
		return nil, "", nil, err
	}
	gs, err := in.summary(sp, g, key)
	if err != nil {
		return nil, "", nil, err
	}
	return g, key, gs, nil
}

// graphStats computes split sp's diagnostics for width parameter sigma and
// q components, from the fits, graphs and LPKPCAs the cell has already
// memoised (runSplit ran first).
func (in *instance) graphStats(sp *split, sigma float64, q int) (*splitStats, error) {
	f, err := in.fit(sp, sigma)
	if err != nil {
		return nil, err
	}
	st := &splitStats{sameLabel: map[int]float64{}, knnSameLabel: map[int]float64{}, lmax: map[int]float64{},
		penalised: make([]float64, len(in.points)), varianceKept: make([]float64, len(in.points)), overlap: make([]float64, len(in.points))}
	rough := map[int][]float64{}
	for _, k := range in.opt.neighbors {
		g, gkey, gs, err := in.summarised(in.graph, sp, f, k)
		if err != nil {
			return nil, fmt.Errorf("split %d, k = %d: %v", sp.index, k, err)
		}
		st.sameLabel[k], st.lmax[k] = gs.sameLabel, gs.lmax
		if in.opt.graph != "knn" {
			_, _, ks, err := in.summarised(in.knnGraph, sp, f, k)
			if err != nil {
				return nil, fmt.Errorf("split %d, k = %d: %v", sp.index, k, err)
			}
			st.knnSameLabel[k] = ks.sameLabel
		}
		d := min(in.maxQ, f.model.Rank())
		rough[k], err = runner.Memo(in.env, fmt.Sprintf("%s/roughness/%d", gkey, d), func() ([]float64, error) {
			return roughness(f.model, g, d), nil
		})
		if err != nil {
			return nil, err
		}
	}
	for j, p := range in.points {
		l, err := in.lpkpca(sp, f, p)
		if err != nil {
			return nil, fmt.Errorf("split %d, λ = %g, k = %d: %v", sp.index, p.lambda, p.k, err)
		}
		for _, r := range rough[p.k][:q] {
			if p.lambda*r > 1 {
				st.penalised[j]++
			}
		}
		st.varianceKept[j] = varianceKept(l, q)
		st.overlap[j] = subspaceOverlap(l, q)
	}
	return st, nil
}

// knnSameLabels returns, per neighbour count k of the sweep, the fraction
// of the paper's k-NN graph's edges (input space, methods.KNNGraph) that
// join two images of one subject on split sp: the data diagnostic every
// classify record holds (knn_same_label_k<k>), whatever graph LPKPCA uses
// and whether graph_stats is on. The k-NN graph is the one LPKPCA's fits
// already memoised (graph: knn), so this costs a pass over its edges.
func (in *instance) knnSameLabels(sp *split, sigma float64) (map[int]float64, error) {
	f, err := in.fit(sp, sigma)
	if err != nil {
		return nil, err
	}
	out := map[int]float64{}
	for _, k := range in.opt.neighbors {
		g, gkey, err := in.knnGraph(sp, f, k)
		if err != nil {
			return nil, fmt.Errorf("split %d, k = %d: %v", sp.index, k, err)
		}
		same, err := runner.Memo(in.env, gkey+"/same/"+sp.labelKey, func() (float64, error) { return sameLabelFraction(g, sp.ytr) })
		if err != nil {
			return nil, fmt.Errorf("split %d, k = %d: %v", sp.index, k, err)
		}
		out[k] = same
	}
	return out, nil
}

// putKNNSameLabel records knn_same_label_k<k>, the mean over splits of
// the k-NN graph's same-subject edge fraction.
func (in *instance) putKNNSameLabel(rec *report.Record, bySplit []map[int]float64) {
	for _, k := range in.opt.neighbors {
		v := make([]float64, len(bySplit))
		for s, m := range bySplit {
			v[s] = m[k]
		}
		rec.Metrics["knn_same_label_k"+strconv.Itoa(k)] = stat.Mean(v, nil)
	}
}

// putGraphStats records the means over splits of the diagnostics.
func (in *instance) putGraphStats(rec *report.Record, stats []*splitStats) {
	mean := func(get func(*splitStats) float64) float64 {
		v := make([]float64, len(stats))
		for s, st := range stats {
			v[s] = get(st)
		}
		return stat.Mean(v, nil)
	}
	ks := "_k"
	for _, k := range in.opt.neighbors {
		suffix := ks + strconv.Itoa(k)
		rec.Metrics["same_label"+suffix] = mean(func(st *splitStats) float64 { return st.sameLabel[k] })
		rec.Metrics["laplacian_max"+suffix] = mean(func(st *splitStats) float64 { return st.lmax[k] })
	}
	for j, p := range in.points {
		rec.Metrics["lambda_lmax_"+p.suffix()] = p.lambda * rec.Metrics["laplacian_max"+ks+strconv.Itoa(p.k)]
		rec.Metrics["penalised_"+p.suffix()] = mean(func(st *splitStats) float64 { return st.penalised[j] })
		rec.Metrics["variance_kept_"+p.suffix()] = mean(func(st *splitStats) float64 { return st.varianceKept[j] })
		rec.Metrics["subspace_overlap_"+p.suffix()] = mean(func(st *splitStats) float64 { return st.overlap[j] })
	}
}

// graphTable is the report's table of graph diagnostics, one row per cell
// and (λ, k).
func (in *instance) graphTable(recs []report.Record) *report.Table {
	graph := "the paper's symmetrised k-NN graph of the training images (Euclidean, input space)"
	header := []string{"sigma", "#PCs", "λ", "k", "same-subject edges", "λ_max(L)", "λ·λ_max(L)", "penalised PCs", "variance kept", "subspace overlap", "status"}
	if in.opt.graph != "knn" {
		graph = "a DIAGNOSTIC graph built from the training labels (each image joined to its k nearest images of the same subject), not the paper's method; " +
			"\"k-NN same-subject\" is the paper's k-NN graph at the same k"
		if in.opt.graph == "mixed" {
			graph = fmt.Sprintf("a DIAGNOSTIC graph, not the paper's method: the paper's k-NN graph with each image's farthest other-subject neighbours replaced by "+
				"its nearest same-subject images until %g of the k-NN choices join one subject; \"k-NN same-subject\" is the paper's k-NN graph at the same k", in.opt.sameRate)
		}
		header = []string{"sigma", "#PCs", "λ", "k", "same-subject edges", "k-NN same-subject", "λ_max(L)", "λ·λ_max(L)", "penalised PCs", "variance kept", "subspace overlap", "status"}
	}
	t := &report.Table{
		Title: "Graph diagnostics (reported, not tuned on)",
		Caption: fmt.Sprintf("Means over %d split(s). Graph: %s; L = D − W. same-subject edges: fraction of the graph's edges joining two images of one subject. "+
			"λ·λ_max(L) < 1 keeps every LPKPCA direction's objective ≥ (1 − λ·λ_max(L)) × its variance, so none can be near-null. "+
			"penalised PCs: how many of the #PCs leading kernel principal components have λ·vᵀLv > 1 (v the unit eigenvector of the centred Gram matrix), "+
			"i.e. a negative LPKPCA objective. variance kept: training variance on the #PCs LPKPCA directions over that on the #PCs leading kernel principal "+
			"components (1 = KPCA's subspace, near 0 = drift to near-null kernel directions). subspace overlap: mean squared cosine of the principal angles "+
			"between the #PCs LPKPCA directions and the #PCs leading kernel principal components (1 = the same subspace; the classifier is invariant to "+
			"rotations of its features, so only the part of the subspace that changes can change the accuracy).", len(in.splits), graph),
		Header: header,
	}
	for i := range recs {
		r := &recs[i]
		for _, p := range in.points {
			row := []string{report.FormatFloat(common.Param(r, "sigma"), 4), report.FormatFloat(common.Param(r, "components"), 4),
				strconv.FormatFloat(p.lambda, 'g', -1, 64), strconv.Itoa(p.k)}
			if r.Status == report.StatusFailed {
				for range len(header) - 5 {
					row = append(row, "—")
				}
				t.Rows = append(t.Rows, append(row, common.StatusText(r)))
				continue
			}
			m := r.Metrics
			ks := "_k" + strconv.Itoa(p.k)
			row = append(row, report.FormatFloat(m["same_label"+ks], 4))
			if in.opt.graph != "knn" {
				row = append(row, report.FormatFloat(m["knn_same_label"+ks], 4))
			}
			row = append(row, report.FormatFloat(m["laplacian_max"+ks], 4), report.FormatFloat(m["lambda_lmax_"+p.suffix()], 3),
				report.FormatFloat(m["penalised_"+p.suffix()], 3), report.FormatFloat(m["variance_kept_"+p.suffix()], 3),
				report.FormatFloat(m["subspace_overlap_"+p.suffix()], 3), r.Status)
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}
