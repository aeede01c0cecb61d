// Package classify is the feature-extraction-and-classification
// experiment of Zheng et al. (ICIG 2015, "A Locality Preserving Approach
// for Kernel PCA"): project training and test images on q kernel principal
// components (KPCA) and on q locality preserving kernel principal
// components (LPKPCA, methods.FitLPKPCA), train L2-regularised logistic
// regression (LIBLINEAR -s 0 -c 10 -e 0.01, one-vs-rest; classify.
// TrainOneVsRest) on the training features and report the mean per-class
// accuracy on the test features (eq. 25–26). It regenerates Tables 1–6
// (λ and k sweeps at 60 components) and Figs. 2, 4 and 6 (accuracy against
// the number of components).
//
// # Protocol
//
// The data are split per class into training and test images, train_per_class
// or train_fraction of each class for training (floor), with a stream per
// split ("split/1", "split/2", …) derived from the root seed, so every
// config with the same seed and data uses the same splits. Each split gets
// its own Gaussian kernel k(x, y) = exp(−‖x−y‖²/σ²) with σ = sigma × the
// mean pairwise Euclidean distance of its training images (the paper gives
// no width, a2; width: absolute takes sigma as σ itself), its own kernel PCA
// fit, and, per (λ, k), its own LPKPCA fit on that kernel PCA's
// eigendecomposition. Everything per split is computed once per process
// and shared by every cell and every config run together.
//
// A cell is a model point (sigma, components). It computes, for every
// split, KPCA's accuracy and LPKPCA's accuracy for every (λ, k) of the
// experiment's lambda × neighbors lists, and records, in percent: kpca,
// lpkpca_l<λ>_k<k> (means over splits) with _std (sample standard
// deviation) and _split1 (the first split alone, the paper's single
// split), gain_l<λ>_k<k> = LPKPCA − KPCA, and gain_min, gain_max,
// gain_mean over the (λ, k) points, win_fraction, the fraction of
// (split, λ, k) with LPKPCA above KPCA, and tie_fraction, the fraction
// with LPKPCA equal to KPCA (to 1e-9 percentage points: the mean
// per-class accuracies are sums of ratios, so equal predictions can
// differ in the last bits, 92.00000000000001 against 92; a tie is not a
// win). With several k, kbest_l<λ>_k<k> is the smallest, over the other
// k at the same λ, of the mean over splits of LPKPCA(k) − LPKPCA(k'):
// above 0 when k is the best k of the sweep (Zheng et al. c6, items.go).
//
// flops_kpca counts the operations of the KPCA feature extraction, and
// cost_lpkpca_max and cost_graph_max, over splits and (λ, k), LPKPCA's
// own operations beyond the graph and the k-NN graph's, each over
// flops_kpca (cost.go: counted from the sizes, never timed, so the
// records stay identical from run to run).
//
// # Intervals over splits
//
// The table gives each mean accuracy ± the half-width of its 95% Student
// t-interval over splits, the gain ± that of the paired per-split
// differences LPKPCA − KPCA (the split-to-split spread both share cancels),
// and wins, the splits on which LPKPCA is above KPCA, ties (tied) counted
// apart: "w/n, t tied". The t-interval, not a bootstrap: 5–20 splits are too few for a bootstrap
// interval, which is too narrow there (claims.Paired measures it). The
// gains are declared paired statistics (items.go), so claims on them get
// three-valued t-interval verdicts over the splits.
//
// # Graph readings and diagnostics
//
// experiment.graph chooses LPKPCA's neighbourhood graph: knn (default, the
// paper's eq. 13: methods.KNNGraph of the training images) or labels, a
// diagnostic that is NOT the paper's method: each training image joined to
// its k nearest training images of the same subject (labelGraph), so every
// edge is right and the degrees stay those of a k-NN graph. It separates
// "LPKPCA fails" from "the data's k-NN graph fails".
//
// Every record holds the data diagnostic knn_same_label_k<k> for each k
// of the sweep: the fraction of the paper's k-NN graph's edges (input
// space, whatever graph LPKPCA uses) joining two images of one subject,
// mean over splits. LPKPCA's premise is that input-space neighbours share
// a subject; a low fraction is a measured property of the data that
// breaks it (a claim's attribution: data quotes it).
//
// experiment.graph_stats: true (default false, so configs without it keep
// their records) adds diagnostics of the graph LPKPCA used, means over
// splits, reported and never tuned on: same_label_k<k>, the fraction of
// its edges joining two images of one subject (equal to knn_same_label_k<k>
// with graph: knn); laplacian_max_k<k>,
// λ_max(L); and per (λ, k) lambda_lmax_l<λ>_k<k> = λ·λ_max(L),
// penalised_l<λ>_k<k>, how many of the q leading kernel principal
// components have λ·v_iᵀLv_i > 1 (their LPKPCA objective λ_i(1 − λ·v_iᵀLv_i)
// is negative), and variance_kept_l<λ>_k<k>, the training variance on the
// q LPKPCA directions over that on the q leading kernel components (1 when
// LPKPCA keeps KPCA's subspace, near 0 when it drifts to near-null kernel
// directions), and subspace_overlap_l<λ>_k<k>, the mean squared cosine of
// the principal angles between the q LPKPCA directions and the q leading
// kernel components (the classifier is rotation invariant, so only a change
// of subspace can change the accuracy). With λ·λ_max(L) < 1 the objective
// is at least (1 − λ·λ_max(L)) times the variance of every direction, so no
// kept direction can be near-null; above 1 drift is possible, not certain:
// penalised and variance_kept say whether it happens.
package classify

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image/color"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/experiments/internal/figs"
	"github.com/runexp/runexp/internal/classify"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	k := runner.Define("classify",
		"KPCA vs LPKPCA features + L2 logistic regression (LIBLINEAR -s 0), mean per-class accuracy over seeded splits (Zheng et al. 2015 Tables 1–6, Figs. 2, 4, 6)",
		check, start)
	// The metric names hold λ and k (lpkpca_l0.05_k3), which the code
	// builds from the options: only the options can say which exist.
	k.Metrics = runner.MetricsOf(func(_ *config.Config, o options) []report.Metric {
		var names []report.Metric
		for _, n := range slices.Sorted(maps.Keys(o.metricNames())) {
			names = append(names, report.Metric(n))
		}
		return names
	})
	k.Items = items
	k.PointReason = pointReason
	k.Parts = parts
	runner.RegisterKind(k)
	runner.RegisterNoCorruption("classify", "it classifies the data set's own images, as the paper does")
}

type options struct {
	width         string // "mean-distance" or "absolute"
	trainPerClass int
	trainFraction float64
	splits        int
	lambdas       []float64
	neighbors     []int
	c, eps        float64
	figure        string // "none" or "components"
	figureName    string
	graph         string // "knn" (the paper's), "labels" or "mixed" (diagnostics)
	graphStats    bool
	readings      // readings of the paper's ambiguities (readings.go)
}

func parse(c *config.Config) (options, error) {
	r := c.Experiment.Reader("experiment")
	o := options{
		width:         r.String("width", "mean-distance", "mean-distance", "absolute"),
		trainPerClass: r.Int("train_per_class", 0, 1),
		trainFraction: r.Float("train_fraction", 0, func(v float64) bool { return v > 0 && v < 1 }, "a fraction in (0, 1)"),
		splits:        r.Int("splits", 1, 1),
		lambdas:       r.Floats("lambda", nil, -1),
		c:             r.Float("c", 10, func(v float64) bool { return v > 0 }, "a cost > 0 (LIBLINEAR -c)"),
		eps:           r.Float("eps", 0.01, func(v float64) bool { return v > 0 }, "a tolerance > 0 (LIBLINEAR -e)"),
		figure:        r.String("figure", "none", "none", "components"),
		figureName:    r.String("figure_name", "accuracy-vs-components"),
		graph:         r.String("graph", "knn", "knn", "labels", "mixed"),
		graphStats:    r.Bool("graph_stats", false),
		readings:      parseReadings(r),
	}
	ks := r.Floats("neighbors", nil, -1)
	if err := r.Err(); err != nil {
		return o, err
	}
	s := c.Experiment
	if err := checkReadings(o, s); err != nil {
		return o, err
	}
	if (o.trainPerClass > 0) == (o.trainFraction > 0) {
		return o, s.Errorf("train_per_class", "experiment: give exactly one of train_per_class (e.g. 5) or train_fraction (e.g. 0.5)")
	}
	if len(o.lambdas) == 0 || len(ks) == 0 {
		return o, s.Errorf("lambda", "experiment: LPKPCA needs lambda (list of λ ≥ 0) and neighbors (list of k ≥ 1)")
	}
	for _, l := range o.lambdas {
		if !(l >= 0) || math.IsInf(l, 0) {
			return o, s.Errorf("lambda", "experiment.lambda: %v is impossible, want finite λ ≥ 0", l)
		}
	}
	for _, k := range ks {
		if k != math.Trunc(k) || k < 1 {
			return o, s.Errorf("neighbors", "experiment.neighbors: %v is impossible, want integers ≥ 1", k)
		}
		o.neighbors = append(o.neighbors, int(k))
	}
	return o, nil
}

func check(c *config.Config) (options, error) {
	o, err := parse(c)
	if err != nil {
		return o, err
	}
	if c.Model.Kernel != "gaussian" || c.Model.WidthName != "sigma" || len(c.Model.Components) == 0 {
		return o, c.ModelErrorf("model: classify needs kernel: gaussian, sigma (× the mean pairwise distance unless experiment.width: absolute) and components")
	}
	if len(c.Methods) > 0 {
		return o, c.Errorf(c.Methods[0].Line, "methods: classify compares KPCA and LPKPCA features itself; list λ and k under experiment, not methods")
	}
	return o, nil
}

// point is one (λ, k) of the sweep.
type point struct {
	lambda float64
	k      int
}

// points is the sweep: every λ with every k, λ outermost.
func (o options) points() []point {
	var ps []point
	for _, l := range o.lambdas {
		for _, k := range o.neighbors {
			ps = append(ps, point{l, k})
		}
	}
	return ps
}

func (p point) suffix() string {
	return "l" + strconv.FormatFloat(p.lambda, 'g', -1, 64) + "_k" + strconv.Itoa(p.k)
}

type instance struct {
	env    *runner.Env
	opt    options
	set    *datasets.Set
	points []point
	maxQ   int
	splits []*split
}

// split is one seeded train/test partition and everything fitted on it.
type split struct {
	index         int
	xtr, xte      *mat.Dense
	ytr, yte      []int
	trainPerClass string // e.g. "5" or "29–32", for the caption
	labelKey      string // names ytr by content, for memo keys that depend on labels
}

func start(env *runner.Env, o options) (runner.Instance, error) {
	d, err := env.LoadData()
	if err != nil {
		return nil, err
	}
	if d.Test != nil {
		return nil, fmt.Errorf("classify splits one labelled set itself; dataset %s comes with a test split", d.Train.Name)
	}
	if d.Train.Labels == nil {
		return nil, fmt.Errorf("classify needs labelled data; dataset %s has no labels", d.Train.Name)
	}
	in := &instance{env: env, opt: o, set: d.Train, points: o.points()}
	for _, q := range env.Config.Model.Components {
		in.maxQ = max(in.maxQ, q)
	}
	for s := 1; s <= o.splits; s++ {
		sp, err := in.makeSplit(s)
		if err != nil {
			return nil, err
		}
		in.splits = append(in.splits, sp)
	}
	return in, nil
}

// makeSplit draws split s: per class (in label order) a seeded shuffle of
// its rows from the one stream "split/<s>", the first n_train for training
// (datasets.Stratified). Rows keep their data order within each part.
func (in *instance) makeSplit(s int) (*split, error) {
	rng := in.env.Rand("split/" + strconv.Itoa(s))
	size := datasets.TrainCount(in.opt.trainPerClass)
	if in.opt.trainFraction > 0 {
		size = datasets.TrainFloor(in.opt.trainFraction)
	}
	parts, err := datasets.Stratified(in.set.Labels, size, func(int) *rand.Rand { return rng })
	if in.opt.split == "random" {
		parts, err = randomSplit(len(in.set.Labels), in.opt.trainFraction, rng)
	}
	if err != nil {
		return nil, err
	}
	sp := &split{index: s}
	tr, te := datasets.SelectRows(in.set, "", parts.Train), datasets.SelectRows(in.set, "", parts.Test)
	sp.xtr, sp.ytr = tr.X, tr.Labels
	sp.xte, sp.yte = te.X, te.Labels
	perClass := map[int]int{}
	for _, l := range sp.ytr {
		perClass[l]++
	}
	lo, hi := math.MaxInt, 0
	for _, n := range perClass {
		lo, hi = min(lo, n), max(hi, n)
	}
	sp.trainPerClass = strconv.Itoa(lo)
	if hi != lo {
		sp.trainPerClass += "–" + strconv.Itoa(hi)
	}
	h := sha256.New()
	for _, l := range sp.ytr {
		fmt.Fprintf(h, "%d,", l)
	}
	sp.labelKey = hex.EncodeToString(h.Sum(nil)[:16])
	return sp, nil
}

// fitted is what a split's kernel PCA gives every cell: the model and the
// projections of the training and test images on all its components. key
// names it by content (runner.Memo), and the k-NN graphs and LPKPCA fits
// derived from it are memoised under keys extending it.
type fitted struct {
	key      string
	model    *methods.KPCA
	meanDist float64
	betaTr   *mat.Dense
	betaTe   *mat.Dense
}

// fit returns the split's kernel PCA and full projections for width
// parameter sigma, computed once per process (runner.Memo, keyed by the
// split's contents, the width rule and sigma): configs run together on the
// same data and seed (Tables 1–2 and Fig. 2) share them.
func (in *instance) fit(sp *split, sigma float64) (*fitted, error) {
	h := sha256.New()
	datasets.WriteDense(h, sp.xtr)
	datasets.WriteDense(h, sp.xte)
	fmt.Fprintf(h, "|%s|%g%s", in.opt.width, sigma, in.opt.readingKey())
	key := "classify/fit/" + hex.EncodeToString(h.Sum(nil)[:16])
	return runner.Memo(in.env, key, func() (*fitted, error) {
		f := &fitted{key: key}
		md, _, err := kernel.MeanDistance(sp.xtr)
		if err != nil {
			return nil, err
		}
		f.meanDist = md
		s := sigma
		if in.opt.width == "mean-distance" {
			s = sigma * f.meanDist
		}
		k := kernel.NewGaussianSigma(s)
		in.env.Log.Info("fitting kernel PCA", "split", sp.index, "train", len(sp.ytr), "kernel", kernel.Label(k))
		m, err := methods.FitKPCA(sp.xtr, k)
		if err != nil {
			return nil, err
		}
		f.model = m
		var kx mat.Dense
		kernel.Gram(&kx, m.Kernel, sp.xte, m.X)
		if in.opt.kernelVectors == "raw" {
			f.betaTr, f.betaTe = rawBeta(m, gramOf(m), m.Rank()), rawBeta(m, &kx, m.Rank())
		} else {
			f.betaTr, f.betaTe = m.BetaGram(gramOf(m), m.Rank()), m.BetaGram(&kx, m.Rank())
		}
		return f, nil
	})
}

// gramOf returns the model's own Gram matrix as a dense N×N kernel block,
// so the training projections need no second Gram computation.
func gramOf(m *methods.KPCA) *mat.Dense {
	n := m.N()
	g := mat.NewDense(n, n, nil)
	g.Copy(m.K)
	return g
}

// knnGraph returns the paper's k-NN graph of the split's training images
// and its memo key, once per process under the fit's key and k.
func (in *instance) knnGraph(sp *split, f *fitted, k int) (*methods.Graph, string, error) {
	gkey := fmt.Sprintf("%s/knn/%d", f.key, k)
	g, err := runner.Memo(in.env, gkey, func() (*methods.Graph, error) { return methods.KNNGraph(sp.xtr, k) })
	return g, gkey, err
}

// graph returns the graph LPKPCA uses for k neighbours (experiment.graph)
// and its memo key. The label graph's key names the training labels too:
// the fit's key names the images only.
func (in *instance) graph(sp *split, f *fitted, k int) (*methods.Graph, string, error) {
	if in.opt.graph == "knn" {
		return in.knnGraph(sp, f, k)
	}
	if in.opt.graph == "mixed" {
		gkey := fmt.Sprintf("%s/mixed/%s/%d/%g", f.key, sp.labelKey, k, in.opt.sameRate)
		g, err := runner.Memo(in.env, gkey, func() (*methods.Graph, error) { return mixedGraph(sp.xtr, sp.ytr, k, in.opt.sameRate) })
		return g, gkey, err
	}
	gkey := fmt.Sprintf("%s/labels/%s/%d", f.key, sp.labelKey, k)
	g, err := runner.Memo(in.env, gkey, func() (*methods.Graph, error) { return labelGraph(sp.xtr, sp.ytr, k) })
	return g, gkey, err
}

// lpkpca returns the LPKPCA fit for point p on the split, once per
// process: the graph of the training images under the fit's key and k
// (experiment.graph), the LPKPCA under that, λ and the directions kept.
func (in *instance) lpkpca(sp *split, f *fitted, p point) (*methods.LPKPCA, error) {
	g, gkey, err := in.graph(sp, f, p.k)
	if err != nil {
		return nil, err
	}
	d := min(in.maxQ, f.model.Rank())
	lkey := fmt.Sprintf("%s/lpkpca/%g/%d", gkey, p.lambda, d)
	return runner.Memo(in.env, lkey, func() (*methods.LPKPCA, error) { return methods.FitLPKPCA(f.model, g, p.lambda, d) })
}

// accuracy trains on the first q columns of the training features and
// returns the mean per-class test accuracy in percent.
func (in *instance) accuracy(ftr, fte *mat.Dense, sp *split) (float64, error) {
	loss, _ := in.opt.loss()
	m, err := classify.TrainOneVsRest(ftr, sp.ytr, classify.LogRegOptions{Loss: loss, C: in.opt.c, Eps: in.opt.eps})
	if err != nil {
		return math.NaN(), err
	}
	return 100 * metrics.MeanClassAccuracy(m.Predict(fte), sp.yte), nil
}

func cols(x *mat.Dense, q int) *mat.Dense {
	r, _ := x.Dims()
	return mat.DenseCopyOf(x.Slice(0, r, 0, q))
}

// parts makes each split of a cell a part: splits are independent (own
// data, own fits), and the five Scene-15 splits of a cell took two
// minutes whole on 2 cores.
func parts(_ *config.Config, opts any, _ *runner.Cell) []int {
	return []int{opts.(options).splits}
}

// splitOut is one split's results, what Run's combination reads. Its
// fields are exported for the part's encoding; the per-k values are in
// the order of experiment.neighbors.
type splitOut struct {
	KP, Dist            float64
	LP                  []float64 // per point
	CostKPCA            float64
	CostGraph, CostLP   []float64 // per point
	KNNSame             []float64 // per k
	Stats               bool      // graph_stats: the diagnostics below
	SameLabel, Lmax     []float64 // per k
	Penalised, Variance []float64 // per point
	Overlap             []float64 // per point
}

func (in *instance) Run(cell *runner.Cell, rec *report.Record) error {
	return runner.RunParts(in, cell, rec)
}

// Parts computes the splits and combines them.
func (in *instance) Parts() runner.Parts {
	return runner.PartsOf(func(c *runner.Cell) []int { return parts(nil, in.opt, c) }, in.split, in.combine)
}

// split computes split s of the cell: its accuracies, costs and
// diagnostics.
func (in *instance) split(cell *runner.Cell, _, s int, _ []splitOut) (splitOut, error) {
	q := cell.Model.Components
	sigma := cell.Model.Width
	sp := in.splits[s]
	kp := make([]float64, len(in.splits))
	lp := make([][]float64, len(in.points))
	for j := range lp {
		lp[j] = make([]float64, len(in.splits))
	}
	dists := make([]float64, len(in.splits))
	if err := in.runSplit(sp, sigma, q, s, kp, lp, dists); err != nil {
		return splitOut{}, err
	}
	cost, err := in.splitCost(sp, sigma, q)
	if err != nil {
		return splitOut{}, err
	}
	knn, err := in.knnSameLabels(sp, sigma)
	if err != nil {
		return splitOut{}, err
	}
	out := splitOut{KP: kp[s], Dist: dists[s], CostKPCA: cost.kpca, CostGraph: cost.graph, CostLP: cost.lpkpca}
	for j := range lp {
		out.LP = append(out.LP, lp[j][s])
	}
	for _, k := range in.opt.neighbors {
		out.KNNSame = append(out.KNNSame, knn[k])
	}
	if in.opt.graphStats {
		st, err := in.graphStats(sp, sigma, q)
		if err != nil {
			return splitOut{}, err
		}
		out.Stats, out.Penalised, out.Variance, out.Overlap = true, st.penalised, st.varianceKept, st.overlap
		for _, k := range in.opt.neighbors {
			out.SameLabel, out.Lmax = append(out.SameLabel, st.sameLabel[k]), append(out.Lmax, st.lmax[k])
		}
	}
	return out, nil
}

// combine writes the record from every split's results, in split order.
func (in *instance) combine(_ *runner.Cell, outs []splitOut, rec *report.Record) error {
	kp := make([]float64, len(outs))
	lp := make([][]float64, len(in.points))
	for j := range lp {
		lp[j] = make([]float64, len(outs))
	}
	costs := make([]splitCost, len(outs))
	knnSame := make([]map[int]float64, len(outs))
	var stats []*splitStats
	if in.opt.graphStats {
		stats = make([]*splitStats, len(outs))
	}
	for s, o := range outs {
		kp[s] = o.KP
		for j := range lp {
			lp[j][s] = o.LP[j]
		}
		costs[s] = splitCost{kpca: o.CostKPCA, graph: o.CostGraph, lpkpca: o.CostLP}
		knnSame[s] = map[int]float64{}
		for i, k := range in.opt.neighbors {
			knnSame[s][k] = o.KNNSame[i]
		}
		if stats != nil {
			st := &splitStats{sameLabel: map[int]float64{}, lmax: map[int]float64{}, penalised: o.Penalised, varianceKept: o.Variance, overlap: o.Overlap}
			for i, k := range in.opt.neighbors {
				st.sameLabel[k], st.lmax[k] = o.SameLabel[i], o.Lmax[i]
			}
			stats[s] = st
		}
	}
	rec.Metrics["mean_distance"] = outs[0].Dist
	putSplits(rec, "kpca", kp)
	rec.Arrays = map[string][]float64{"kpca": kp}
	in.putGains(rec, kp, lp)
	in.putCosts(rec, costs)
	rec.Metrics["splits"] = float64(len(in.splits))
	in.putKNNSameLabel(rec, knnSame)
	if stats != nil {
		in.putGraphStats(rec, stats)
	}
	return nil
}

// putSplits records per-split accuracies v as name (their mean),
// name_split1 (the first split, the paper's single one) and name_std.
func putSplits(rec *report.Record, name string, v []float64) {
	rec.Metrics[name] = stat.Mean(v, nil)
	rec.Metrics[name+"_split1"] = v[0]
	sd := 0.0
	if len(v) > 1 {
		sd = stat.StdDev(v, nil)
	}
	rec.Metrics[name+"_std"] = sd
}

// putGains records each point's accuracies and gain over KPCA, the gains'
// min, max and mean, the fractions of (split, point) that LPKPCA wins and
// ties (tied), and with a k sweep each point's lead over the other k.
func (in *instance) putGains(rec *report.Record, kp []float64, lp [][]float64) {
	kpMean := stat.Mean(kp, nil)
	gains := make([]float64, len(in.points))
	var wins, ties, total int
	for j, p := range in.points {
		putSplits(rec, "lpkpca_"+p.suffix(), lp[j])
		rec.Arrays["lpkpca_"+p.suffix()] = lp[j]
		gains[j] = stat.Mean(lp[j], nil) - kpMean
		rec.Metrics["gain_"+p.suffix()] = gains[j]
		for s := range kp {
			total++
			switch {
			case tied(lp[j][s], kp[s]):
				ties++
			case lp[j][s] > kp[s]:
				wins++
			}
		}
	}
	rec.Metrics["gain_min"] = floats.Min(gains)
	rec.Metrics["gain_max"] = floats.Max(gains)
	rec.Metrics["gain_mean"] = stat.Mean(gains, nil)
	rec.Metrics["win_fraction"] = float64(wins) / float64(total)
	rec.Metrics["tie_fraction"] = float64(ties) / float64(total)
	for j, p := range in.points {
		if others := in.otherK(j); len(others) > 0 {
			m := math.Inf(1)
			for _, o := range others {
				m = math.Min(m, stat.Mean(lp[j], nil)-stat.Mean(lp[o], nil))
			}
			rec.Metrics["kbest_"+p.suffix()] = m
		}
	}
}

// tieTol is the difference, in percentage points, below which two
// accuracies are equal: the smallest real difference of two mean
// per-class accuracies is 100/(classes × test images per class), far
// above it, and rounding in their sums far below.
const tieTol = 1e-9

// tied reports whether accuracies a and b are equal to tieTol.
func tied(a, b float64) bool { return math.Abs(a-b) <= tieTol }

// otherK returns the indices of the points with point j's λ and another
// k, in sweep order.
func (in *instance) otherK(j int) []int {
	var out []int
	for i, p := range in.points {
		if i != j && p.lambda == in.points[j].lambda && p.k != in.points[j].k {
			out = append(out, i)
		}
	}
	return out
}

// splitCost is one split's counted operations (cost.go): KPCA's, the
// graph's per k and LPKPCA's per point.
type splitCost struct {
	kpca   float64
	graph  []float64 // per point (its k)
	lpkpca []float64 // per point
}

// splitCost counts split sp's operations for width parameter sigma and q
// features: the sizes of its data and fits, and each point's graph (the
// k-NN graph's adjacency count; the graph LPKPCA used for nnz).
func (in *instance) splitCost(sp *split, sigma float64, q int) (splitCost, error) {
	f, err := in.fit(sp, sigma)
	if err != nil {
		return splitCost{}, err
	}
	n, dim := sp.xtr.Dims()
	m, _ := sp.xte.Dims()
	r := f.model.Rank()
	sz := sizes{n: n, m: m, dim: dim, r: r, q: q, top: min(in.maxQ, r)}
	c := splitCost{kpca: sz.kpcaFlops()}
	for _, p := range in.points {
		g, _, err := in.graph(sp, f, p.k)
		if err != nil {
			return splitCost{}, err
		}
		nnz := 0
		for _, a := range g.Adj {
			nnz += len(a)
		}
		c.graph = append(c.graph, sz.graphFlops())
		c.lpkpca = append(c.lpkpca, sz.lpkpcaFlops(nnz))
	}
	return c, nil
}

// putCosts records the largest counts over splits and points (cost.go).
func (in *instance) putCosts(rec *report.Record, costs []splitCost) {
	var kp, lp, gr float64
	for _, c := range costs {
		kp = math.Max(kp, c.kpca)
		for j := range c.lpkpca {
			lp = math.Max(lp, c.lpkpca[j]/c.kpca)
			gr = math.Max(gr, c.graph[j]/c.kpca)
		}
	}
	rec.Metrics["flops_kpca"] = kp
	rec.Metrics["cost_lpkpca_max"] = lp
	rec.Metrics["cost_graph_max"] = gr
}

// runSplit fills slot s of kp (KPCA accuracy) and of every lp[j] (LPKPCA
// at point j) for split sp, q components and width parameter sigma.
func (in *instance) runSplit(sp *split, sigma float64, q, s int, kp []float64, lp [][]float64, dists []float64) error {
	f, err := in.fit(sp, sigma)
	if err != nil {
		return fmt.Errorf("split %d: %v", sp.index, err)
	}
	if q > f.model.Rank() {
		return fmt.Errorf("split %d: %d components requested, the kernel matrix has numerical rank %d", sp.index, q, f.model.Rank())
	}
	dists[s] = f.meanDist
	if kp[s], err = in.accuracy(cols(f.betaTr, q), cols(f.betaTe, q), sp); err != nil {
		return fmt.Errorf("split %d, KPCA: %v", sp.index, err)
	}
	for j, p := range in.points {
		l, err := in.lpkpca(sp, f, p)
		if err != nil {
			return fmt.Errorf("split %d, λ = %g, k = %d: %v", sp.index, p.lambda, p.k, err)
		}
		ftr, err := in.opt.lpkpcaFeatures(l, f.betaTr, q)
		if err != nil {
			return fmt.Errorf("split %d, λ = %g, k = %d: %v", sp.index, p.lambda, p.k, err)
		}
		fte, err := in.opt.lpkpcaFeatures(l, f.betaTe, q)
		if err != nil {
			return fmt.Errorf("split %d, λ = %g, k = %d: %v", sp.index, p.lambda, p.k, err)
		}
		if lp[j][s], err = in.accuracy(ftr, fte, sp); err != nil {
			return fmt.Errorf("split %d, LPKPCA λ = %g, k = %d: %v", sp.index, p.lambda, p.k, err)
		}
	}
	return nil
}

func (in *instance) Report(out *runner.Output, recs []report.Record) error {
	n := len(in.splits)
	sp := in.splits[0]
	title := "Mean per-class accuracy (%) of KPCA and LPKPCA features with L2 logistic regression"
	_, solver := in.opt.loss()
	if solver == 2 {
		title = "Mean per-class accuracy (%) of KPCA and LPKPCA features with an L2-loss linear SVM"
	}
	if in.opt.graph != "knn" {
		title = "DIAGNOSTIC, not the paper's method (LPKPCA graph built from the training labels): " + title
		if in.opt.graph == "mixed" {
			title = fmt.Sprintf("DIAGNOSTIC, not the paper's method (LPKPCA graph with %g same-subject k-NN choices, set from the training labels): ", in.opt.sameRate) + title
		}
	}
	t := &report.Table{
		Title: title,
		Caption: fmt.Sprintf("%s: %d training / %d test images (%s per class for training), %d seeded split(s); mean over splits, and the first split alone. %s "+
			"Kernel exp(−‖x−y‖²/σ²), σ = sigma × mean pairwise distance of the training images (%s); classifier LIBLINEAR -s %d -c %g -e %g equivalent, one-vs-rest; gain = LPKPCA − KPCA (means).%s",
			in.set.Name, len(sp.ytr), len(sp.yte), sp.trainPerClass, n, ciCaption(n), in.opt.width, solver, in.opt.c, in.opt.eps, in.opt.readingCaption()),
		Header: []string{"sigma", "#PCs", "λ", "k", "LPKPCA", "KPCA", "gain", "wins", "LPKPCA split 1", "KPCA split 1", "status"},
	}
	for i := range recs {
		r := &recs[i]
		for _, p := range in.points {
			row := []string{report.FormatFloat(common.Param(r, "sigma"), 4), report.FormatFloat(common.Param(r, "components"), 4),
				strconv.FormatFloat(p.lambda, 'g', -1, 64), strconv.Itoa(p.k)}
			name := "lpkpca_" + p.suffix()
			lp, kp := r.Arrays[name], r.Arrays["kpca"]
			if r.Status == report.StatusFailed || len(lp) == 0 || len(lp) != len(kp) {
				row = append(row, "—", "—", "—", "—", "—", "—", common.StatusText(r))
			} else {
				m := r.Metrics
				row = append(row, meanPM(lp, 4), meanPM(kp, 4), pairedPM(lp, kp), wins(lp, kp),
					report.FormatFloat(m[name+"_split1"], 4), report.FormatFloat(m["kpca_split1"], 4), r.Status)
			}
			t.Rows = append(t.Rows, row)
		}
	}
	out.Tables = append(out.Tables, t)
	if in.opt.graphStats {
		out.Tables = append(out.Tables, in.graphTable(recs))
	}
	if in.opt.figure == "components" {
		return in.figure(out, recs)
	}
	return nil
}

// figure draws accuracy against the number of components, LPKPCA and KPCA,
// mean over splits with ±1 std error bars (Figs. 2, 4, 6).
func (in *instance) figure(out *runner.Output, recs []report.Record) error {
	type series struct {
		name   string
		metric string
		col    color.Color
	}
	var ss []series
	for i, p := range in.points {
		ss = append(ss, series{fmt.Sprintf("LPKPCA (λ = %g, k = %d)", p.lambda, p.k), "lpkpca_" + p.suffix(), figs.Palette[(i+1)%len(figs.Palette)]})
	}
	ss = append(ss, series{"KPCA", "kpca", figs.Palette[0]})
	// The data set is named after the title, not before it: "orl:"
	// leading the title read as a stray word.
	p := report.NewPanel(fmt.Sprintf("Accuracy vs number of principal vectors (data set %s)", in.set.Name))
	var leg report.Legend
	p.X.Label.Text = "number of principal vectors"
	p.Y.Label.Text = "mean per-class accuracy (%)"
	for _, s := range ss {
		var xy plotter.XYs
		var errs plotter.YErrors
		for i := range recs {
			r := &recs[i]
			if r.Status == report.StatusFailed {
				continue
			}
			xy = append(xy, plotter.XY{X: common.Param(r, "components"), Y: r.Metrics[s.metric]})
			sd := r.Metrics[s.metric+"_std"]
			errs = append(errs, struct{ Low, High float64 }{sd, sd})
		}
		if len(xy) == 0 {
			continue
		}
		order := make([]int, len(xy))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return xy[order[a]].X < xy[order[b]].X })
		sxy := make(plotter.XYs, len(xy))
		serr := make(plotter.YErrors, len(xy))
		for i, o := range order {
			sxy[i], serr[i] = xy[o], errs[o]
		}
		l, pts, err := plotter.NewLinePoints(sxy)
		if err != nil {
			return err
		}
		l.Color, pts.Color = s.col, s.col
		p.Add(l, pts)
		if len(in.splits) > 1 {
			eb, err := plotter.NewYErrorBars(struct {
				plotter.XYer
				plotter.YErrorer
			}{sxy, serr})
			if err != nil {
				return err
			}
			eb.Color = s.col
			p.Add(eb)
		}
		leg.Add(s.name, l, pts)
	}
	// The x ticks are the component counts computed.
	var ticks plot.ConstantTicks
	for _, q := range common.Values(recs, "components") {
		ticks = append(ticks, plot.Tick{Value: q, Label: strconv.FormatFloat(q, 'g', -1, 64)})
	}
	p.X.Tick.Marker = ticks
	p.Y.Tick.Marker = figs.LinearTicks{Max: 10}
	w, h := out.Size(14*vg.Centimeter, 10*vg.Centimeter)
	f := &report.Figure{Panels: [][]*plot.Plot{{p}}, PanelW: w, PanelH: h, Legend: leg, Placement: report.LegendRight,
		Caption: figs.Caption(in.env.Config, "mean per-class accuracy against the number of principal vectors, KPCA and LPKPCA at each (λ, k) configured; error bars are one standard deviation over the splits when there are several")}
	return figs.Save(out, f, in.opt.figureName)
}
