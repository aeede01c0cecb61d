// Package kkcluster is the cluster-centre experiment of Huang, Tian & De la
// Torre (2011, §5.1): kernel k-means (Dhillon et al. 2004) of face images
// under a raw-pixel and a HOG Gaussian kernel (eq. 12–13), and pre-images
// of the cluster centres by each estimator (Fig. 5), the kernel matrices
// ordered by pose (Fig. 4), and the pre-image of one centre with its own
// interpolated metric P_t against each neighbour's P_i (Fig. 6).
//
// # Protocol
//
// For each kernel in experiment.kernels the kernel (σ = mean pairwise
// distance in its input space, pixels or HOG descriptors) and the neighbour
// count come from the data (package huang; an estimator whose config entry
// gives its own count runs with that one: docs/extending.md, "Parameter
// roles and precedence"); kernel k-means with seeded
// k-means++ restarts runs once per kernel, shared by every cell. A cell is
// one estimator: it finds the pre-images of the k centres
// m_c = (1/|c|) Σ_{n∈c} φ(x_n) under every kernel (an estimator that needs
// the Gaussian's form refuses the HOG kernel, recorded as refused_hog = 1:
// the estimator's declared kernel support, methods.Spec.CheckKernel, is
// asked before it is run).
//
// What the paper shows only by eye is measured: cluster purity against the
// pose labels; the block contrast of each kernel matrix (mean within-pose
// minus mean between-pose kernel value, divided by the mean off-diagonal
// value); for every pre-image the RMS distance (0–255 scale) to the mean
// image of its cluster and its feature-space cost ‖φ(z) − m_c‖²; and for
// Fig. 6 the Spearman correlation between α_i and the closeness of the
// P_i pre-image to the P_t one (metrics.Spearman: average ranks for ties,
// NaN when every α_i is equal). Fig. 6 is drawn for the estimators that
// expose their local metrics (methods.LocalMetrics: Local Gram).
//
// Each record also holds every image's pose and its cluster under each
// kernel, so that a claim on a purity or on the purity gain (HOG − raw)
// gets a bootstrap interval over the images (items.go): a gain of a few
// images near chance is not judged on one number. The pre-image distances
// are equal to rounding within a thousandth of a grey level (tolerance),
// the resolution below which a claim cannot discriminate two estimators.
package kkcluster

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/experiments/internal/figs"
	"github.com/runexp/runexp/experiments/internal/huang"
	"github.com/runexp/runexp/internal/cluster"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	k := runner.Define("kkcluster",
		"Huang et al. Figs. 4–6: kernel k-means (raw and HOG kernels), pre-images of the centres, purity and distances",
		check, start)
	k.PointReason = pointReason
	k.Items = items
	k.Tolerance = tolerance
	k.Takes = methods.PreImages
	k.Metrics = runner.MetricsOf(metricNames)
	// Keys show the neighbour count that runs (the rule, or the
	// experiment's count), not the estimator's bound default.
	k.KeyParams = runner.KeyParamsOf(func(_ *config.Config, o options, cell *runner.Cell) map[string]any {
		return huang.KeyParams(cell, o.kern)
	})
	runner.RegisterKind(k)
	runner.RegisterNoCorruption("kkcluster", "it clusters the data set's own images and takes the pre-images of the centres")
}

type options struct {
	kern       huang.KernelOpts
	kernels    []string
	clusters   int
	restarts   int
	maxIter    int
	scale      float64
	fig6       bool
	fig6Kernel string
	fig6Centre int
	fig6Show   int
}

func parse(c *config.Config) (options, error) {
	s := c.Experiment
	r := s.Reader("experiment")
	o := options{kern: huang.Parse(s, r)}
	r.Touch("kernel")
	if _, set := s.Values["kernel"]; set {
		r.Fail("kernel", "kkcluster takes a list, kernels: [raw, hog]")
	}
	o.clusters = r.Int("clusters", 5, 1)
	o.restarts = r.Int("restarts", 10, 1)
	o.maxIter = r.Int("max_iter", 100, 1)
	o.scale = r.Float("scale", 255, func(v float64) bool { return v > 0 }, "a scale > 0")
	o.fig6 = r.Bool("fig6", false)
	o.fig6Kernel = r.String("fig6_kernel", "hog", "raw", "hog")
	o.fig6Centre = r.Int("fig6_centre", 3, 0)
	o.fig6Show = r.Int("fig6_neighbors", 8, 1)
	o.kernels = parseKernels(r, s.Values["kernels"])
	if err := r.Err(); err != nil {
		return o, err
	}
	if len(o.kernels) == 0 {
		return o, s.Errorf("kernels", "experiment.kernels: name at least one kernel")
	}
	if o.fig6 && o.fig6Centre >= o.clusters {
		return o, s.Errorf("fig6_centre", "experiment.fig6_centre: %d, but there are %d clusters (0-based)", o.fig6Centre, o.clusters)
	}
	return o, nil
}

// parseKernels reads experiment.kernels: distinct raw and/or hog, both by
// default.
func parseKernels(r *config.Reader, v any) []string {
	r.Touch("kernels")
	var out []string
	switch v := v.(type) {
	case nil:
		return []string{"raw", "hog"}
	case []any:
		for _, k := range v {
			ks, ok := k.(string)
			if !ok || (ks != "raw" && ks != "hog") || slices.Contains(out, ks) {
				r.Fail("kernels", "want distinct raw and/or hog, got %v", v)
				break
			}
			out = append(out, ks)
		}
	default:
		r.Fail("kernels", "want a list such as [raw, hog], got %v", v)
	}
	return out
}

func check(c *config.Config) (options, error) {
	o, err := parse(c)
	if err != nil {
		return o, err
	}
	if err := huang.CheckConfig(c, "kkcluster"); err != nil {
		return o, err
	}
	o.kern.Explicit = huang.ExplicitRoles(c, methods.NeighborsRole)
	// A cluster centre is a feature-space point with no observed input
	// behind it: it needs a pre-image estimator that does without one.
	for i, m := range c.Methods {
		spec, ok := methods.Lookup(m.Name)
		switch {
		case !ok:
			continue // runner.Cells reports unknown names with their line
		case !spec.Can(methods.PreImages):
			return o, c.Errorf(m.Line, "methods[%d]: %s is not a pre-image estimator (it does %s); kkcluster finds pre-images of cluster centres", i, m.Name, spec.Does)
		case spec.Needs(methods.NeedsX0):
			return o, c.Errorf(m.Line, "methods[%d]: %s needs the observed input, and a cluster centre has none", i, m.Name)
		}
	}
	return o, nil
}

// chancePerms is the number of permutations chance purity is measured
// over: the p-value's resolution is 1/2000, and its Monte Carlo error at
// p = 0.05 about 0.005.
const chancePerms = 1999

// clustering is one kernel's k-means result and what the pre-images need.
type clustering struct {
	name     string
	fit      *huang.Fitted
	basis    *methods.Basis
	res      *cluster.Result
	gamma    *mat.Dense // k×N centre expansions
	means    [][]float64
	majority []string
	sizes    []int
	purity   float64
	// chance and pvalue: the purity by chance and the observed one's
	// permutation p-value (cluster.PurityChance).
	chance, pvalue float64
	contrast       float64
	m              kernelMetrics // the names of its metrics
}

type instance struct {
	env   *runner.Env
	opt   options
	set   *datasets.Set
	order []int // rows sorted by label, for Fig. 4
	cl    []*clustering
}

func start(env *runner.Env, o options) (runner.Instance, error) {
	set, err := common.LabelledTrain(env, "to measure purity against")
	if err != nil {
		return nil, err
	}
	n, _ := set.X.Dims()
	if o.clusters > n {
		return nil, fmt.Errorf("kkcluster: %d clusters of %d images", o.clusters, n)
	}
	in := &instance{env: env, opt: o, set: set}
	in.order = make([]int, n)
	for i := range in.order {
		in.order[i] = i
	}
	sort.SliceStable(in.order, func(a, b int) bool { return set.Labels[in.order[a]] < set.Labels[in.order[b]] })
	for _, kn := range o.kernels {
		c, err := in.cluster(kn)
		if err != nil {
			return nil, err
		}
		in.cl = append(in.cl, c)
	}
	return in, nil
}

// cluster builds kernel kn from the data and runs kernel k-means with it,
// on a stream named by the kernel alone, so that every config with the
// same data and kernel gets the same clusters.
func (in *instance) cluster(kn string) (*clustering, error) {
	set, o := in.set, in.opt
	ko := o.kern
	ko.Kind = kn
	fit, err := huang.Build(ko, set.X, set.Width, set.Height)
	if err != nil {
		return nil, err
	}
	c := &clustering{name: kn, m: metricsOf(kn), fit: fit, basis: methods.NewBasis(set.X, fit.Kernel)}
	c.res, err = cluster.KMeans(c.basis.K, o.clusters, o.restarts, o.maxIter, in.env.Rand("kkmeans:"+kn))
	if err != nil {
		return nil, err
	}
	c.gamma = c.res.Centres(o.clusters)
	c.purity = cluster.Purity(c.res.Labels, set.Labels)
	c.chance, c.pvalue = cluster.PurityChance(c.res.Labels, set.Labels, chancePerms, in.env.Rand("purity-chance:"+kn))
	c.describe(set, o.clusters)
	c.contrast = metrics.BlockContrast(c.basis.K, set.Labels)
	in.env.Log.Info("kernel k-means", "kernel", kn, "sigma", fit.Sigma, "neighbors", fit.Neighbors,
		"purity", c.purity, "objective", c.res.Objective, "sizes", fmt.Sprint(c.sizes))
	return c, nil
}

// describe sets each cluster's size, mean image and majority label (ties
// to the smaller label).
func (c *clustering) describe(set *datasets.Set, k int) {
	_, dim := set.X.Dims()
	c.means = make([][]float64, k)
	c.sizes = make([]int, k)
	for cc := range c.means {
		c.means[cc] = make([]float64, dim)
	}
	votes := make([]map[int]int, k)
	for i, l := range c.res.Labels {
		floats.Add(c.means[l], set.X.RawRowView(i))
		c.sizes[l]++
		if votes[l] == nil {
			votes[l] = map[int]int{}
		}
		votes[l][set.Labels[i]]++
	}
	for cc := range c.means {
		floats.Scale(1/float64(c.sizes[cc]), c.means[cc])
		best, bestN := -1, -1
		for lab, v := range votes[cc] {
			if v > bestN || (v == bestN && lab < best) {
				best, bestN = lab, v
			}
		}
		c.majority = append(c.majority, labelName(set, best))
	}
}

func labelName(set *datasets.Set, l int) string {
	if l >= 0 && l < len(set.LabelNames) {
		return set.LabelNames[l]
	}
	return fmt.Sprint(l)
}

func (in *instance) Run(cell *runner.Cell, rec *report.Record) error {
	if cell.Method == nil {
		return errors.New("the cell has no estimator")
	}
	huang.MarkNeighbors(rec, cell, in.opt.kern)
	rec.Arrays = map[string][]float64{}
	// Each image's pose and cluster under every kernel: the items a
	// purity's interval resamples (items).
	rec.Arrays[poseArray] = floatsOf(in.set.Labels)
	solved := 0
	for _, c := range in.cl {
		rec.Arrays[clustersArray+c.name] = floatsOf(c.res.Labels)
		rec.Set(c.m.purity, c.purity)
		rec.Set(c.m.chance, c.chance)
		rec.Set(c.m.pvalue, c.pvalue)
		rec.Set(c.m.contrast, c.contrast)
		rec.Set(c.m.sigma, c.fit.Sigma)
		rec.Set(c.m.neighbors, float64(huang.Neighbors(cell, in.opt.kern, c.fit.Neighbors)))
		ok, err := in.preImages(cell, c, rec)
		if err != nil {
			return err
		}
		if ok {
			solved++
		}
	}
	if raw, hog := in.kernel("raw"), in.kernel("hog"); raw != nil && hog != nil {
		rec.Set(PurityGain, hog.purity-raw.purity)
		rec.Set(BlockContrastGain, hog.contrast-raw.contrast)
	}
	rec.Set(KernelsSolved, float64(solved))
	return nil
}

// kernel is the clustering under kernel name, nil when it was not run.
func (in *instance) kernel(name string) *clustering {
	for _, c := range in.cl {
		if c.name == name {
			return c
		}
	}
	return nil
}

func floatsOf(v []int) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// preImages finds the pre-images of c's centres with the cell's estimator
// and records them; ok is false when the estimator refuses the kernel.
func (in *instance) preImages(cell *runner.Cell, c *clustering, rec *report.Record) (ok bool, err error) {
	spec := cell.Method.Spec
	if err := spec.CheckKernel(c.fit.Kernel); err != nil {
		// An estimator that cannot take this kernel (Mika, Kwok–Tsang
		// on HOG) is a result of the experiment, not a failed cell.
		rec.Set(c.m.refused, 1)
		in.env.Log.Info("estimator refused the kernel", "method", cell.Method.Label, "kernel", c.name, "reason", err.Error())
		return false, nil
	}
	par, _, err := huang.Params(cell, in.opt.kern, c.fit.Neighbors)
	if err != nil {
		return false, err
	}
	pre, err := spec.NewPreImager(par)
	if err != nil {
		return false, err
	}
	p := methods.NewProblem(c.basis, c.gamma, nil)
	p.Rand = cell.Rand()
	var z mat.Dense
	st, err := pre.PreImage(&z, p)
	if err != nil {
		return false, fmt.Errorf("%s kernel: %w", c.name, err)
	}
	rec.Set(c.m.refused, 0)
	in.centreMetrics(c, &z, st, p, rec)
	if in.opt.fig6 && c.name == in.opt.fig6Kernel {
		// Fig. 6 shows the local metrics of an estimator that has them
		// (Local Gram); the others have no P_t to show.
		if lm, has := pre.(methods.LocalMetrics); has {
			if err := in.fig6(lm, p, rec); err != nil {
				return false, err
			}
		}
	}
	return true, nil
}

// centreMetrics records the pre-images z of c's centres, their RMS
// distance to the cluster means and their feature-space cost.
func (in *instance) centreMetrics(c *clustering, z *mat.Dense, st []methods.Status, p *methods.Problem, rec *report.Record) {
	var dist, imgs []float64
	var good []int
	for cc := 0; cc < in.opt.clusters; cc++ {
		zi := z.RawRowView(cc)
		imgs = append(imgs, zi...)
		if st[cc].Err != nil {
			rec.AddFailure(st[cc].Err.Error())
			continue
		}
		good = append(good, cc)
		dist = append(dist, in.opt.scale*math.Sqrt(metrics.MSE(zi, c.means[cc])))
	}
	failed := in.opt.clusters - len(good)
	rec.Arrays["centres_"+c.name] = imgs
	rec.Set(c.m.failed, float64(failed))
	if len(good) > 0 {
		rec.Set(c.m.distMean, floats.Sum(dist)/float64(len(dist)))
		rec.Set(c.m.distMax, floats.Max(dist))
		rec.Set(c.m.featureCost, featureCost(c, z, good, p.Terms.Norm2))
	}
	if failed > 0 {
		rec.Status = report.StatusPartial
	}
}

// featureCost is the mean of ‖φ(z_c) − m_c‖² over the rows good of z.
func featureCost(c *clustering, z *mat.Dense, good []int, norm2 []float64) float64 {
	_, dim := z.Dims()
	zg := mat.NewDense(len(good), dim, nil)
	gg := mat.NewDense(len(good), c.gamma.RawMatrix().Cols, nil)
	var nrm []float64
	for k, cc := range good {
		zg.SetRow(k, z.RawRowView(cc))
		gg.SetRow(k, c.gamma.RawRowView(cc))
		nrm = append(nrm, norm2[cc])
	}
	cost := methods.FeatureDist2(c.basis, zg, gg, nrm)
	return floats.Sum(cost) / float64(len(cost))
}

// fig6 records the pre-image of one centre with P_t and with each
// neighbour's P_i, their α_i, and the Spearman correlation between α_i and
// −‖x̃(P_i) − x̃(P_t)‖.
func (in *instance) fig6(lm methods.LocalMetrics, p *methods.Problem, rec *report.Record) error {
	_, dim := in.set.X.Dims()
	zt := make([]float64, dim)
	det, st, err := lm.Detail(zt, p, in.opt.fig6Centre)
	if err != nil {
		return err
	}
	if st.Err != nil {
		rec.Set(Fig6Failed, 1)
		return nil
	}
	var alpha, closeness []float64
	for v, zi := range det.WithPi {
		if zi == nil {
			continue
		}
		d := floats.Distance(zi, zt, 2)
		alpha = append(alpha, det.Alpha[v])
		closeness = append(closeness, -in.opt.scale*math.Sqrt(d*d/float64(dim)))
	}
	imgs, shown := in.fig6Shown(zt, det)
	rec.Arrays["fig6_images"] = imgs
	rec.Arrays["fig6_alpha"] = shown
	if len(alpha) >= 3 {
		// NaN when every α_i (or every distance) is equal: no order.
		rec.Set(Fig6Spearman, metrics.Spearman(alpha, closeness))
	}
	rec.Set(Fig6DistMean, -floats.Sum(closeness)/float64(len(closeness)))
	return nil
}

// fig6Shown returns the images of Fig. 6, the P_t pre-image zt then up to
// fig6_neighbors P_i pre-images in decreasing α_i, and those α_i.
func (in *instance) fig6Shown(zt []float64, det *methods.LocalGramDetail) (imgs, shown []float64) {
	imgs = append([]float64(nil), zt...)
	idx := make([]int, len(det.WithPi))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return det.Alpha[idx[a]] > det.Alpha[idx[b]] })
	for _, v := range idx {
		if len(shown) >= in.opt.fig6Show || det.WithPi[v] == nil {
			continue
		}
		imgs = append(imgs, det.WithPi[v]...)
		shown = append(shown, det.Alpha[v])
	}
	return imgs, shown
}

func (in *instance) Report(out *runner.Output, recs []report.Record) error {
	out.Tables = append(out.Tables, in.clusterTable(), in.preImageTable(recs))
	if err := in.fig5(out, recs); err != nil {
		return err
	}
	if err := in.fig4(out); err != nil {
		return err
	}
	return in.fig6Grid(out, recs)
}

func (in *instance) clusterTable() *report.Table {
	n, _ := in.set.X.Dims()
	ct := &report.Table{
		Title:   "Kernel k-means: clusters against the pose labels",
		Caption: fmt.Sprintf("%d images of %s, %d clusters, %d seeded k-means++ restarts; block contrast = (mean within-pose − mean between-pose kernel value)/mean off-diagonal value.", n, in.set.Name, in.opt.clusters, in.opt.restarts),
		Header:  []string{"kernel", "σ", "neighbours", "purity", "block contrast", "objective", "cluster sizes (majority label)"},
	}
	for _, c := range in.cl {
		var parts []string
		for cc := range c.sizes {
			parts = append(parts, fmt.Sprintf("%d (%s)", c.sizes[cc], c.majority[cc]))
		}
		ct.Rows = append(ct.Rows, []string{c.name, report.FormatFloat(c.fit.Sigma, 4), fmt.Sprint(c.fit.Neighbors),
			report.FormatFloat(c.purity, 3), report.FormatFloat(c.contrast, 3), report.FormatFloat(c.res.Objective, 5), strings.Join(parts, ", ")})
	}
	return ct
}

func (in *instance) preImageTable(recs []report.Record) *report.Table {
	pt := &report.Table{
		Title:   "Pre-images of the cluster centres",
		Caption: fmt.Sprintf("dist = RMS distance (×%g) from each centre's pre-image to its cluster's mean image, mean over clusters; cost = feature-space ‖φ(z) − m_c‖², mean over clusters.", in.opt.scale),
		Header:  []string{"method"},
	}
	for _, c := range in.cl {
		pt.Header = append(pt.Header, c.name+" dist", c.name+" cost")
	}
	for i := range recs {
		r := &recs[i]
		row := []string{r.Method()}
		for _, c := range in.cl {
			switch {
			case r.Status == report.StatusFailed:
				row = append(row, "failed", "—")
			case r.Get(c.m.refused) == 1:
				row = append(row, "refused (kernel)", "—")
			default:
				row = append(row, report.FormatFloat(r.Get(c.m.distMean), 4), report.FormatFloat(r.Get(c.m.featureCost), 4))
			}
		}
		pt.Rows = append(pt.Rows, row)
	}
	return pt
}

// fig5 draws one grid per kernel: the cluster means, then each method's
// pre-images of the centres.
func (in *instance) fig5(out *runner.Output, recs []report.Record) error {
	w, h := in.set.Width, in.set.Height
	dim := w * h
	for _, c := range in.cl {
		g := &report.ImageGrid{Width: w, Height: h, Scale: max(1, 64/max(w, h)), Lo: 0, Hi: 1,
			Title: fmt.Sprintf("Fig. 5 (%s kernel): pre-images of the %d cluster centres (purity %.2f)", c.name, in.opt.clusters, c.purity)}
		for cc := range c.sizes {
			g.ColLabels = append(g.ColLabels, fmt.Sprintf("%s ×%d", c.majority[cc], c.sizes[cc]))
		}
		g.Images = [][][]float64{c.means}
		g.RowLabels = []string{"cluster mean"}
		g.Caption = figs.Caption(in.env.Config, fmt.Sprintf("kernel k-means (%s kernel) into %d clusters; columns: each cluster headed by its majority pose and size; rows: the mean of the cluster's images, then each estimator's pre-image of the cluster centre", c.name, in.opt.clusters))
		for i := range recs {
			a := recs[i].Arrays["centres_"+c.name]
			if len(a) < in.opt.clusters*dim {
				continue
			}
			var row [][]float64
			for cc := 0; cc < in.opt.clusters; cc++ {
				row = append(row, a[cc*dim:(cc+1)*dim])
			}
			g.Images = append(g.Images, row)
			g.RowLabels = append(g.RowLabels, recs[i].Method())
		}
		files, err := g.Save(out.Path("fig5-" + c.name))
		out.Add(files...)
		if err != nil {
			return err
		}
	}
	return nil
}

// fig4 draws the kernel matrices, rows and columns ordered by label.
func (in *instance) fig4(out *runner.Output) error {
	n, _ := in.set.X.Dims()
	g := &report.ImageGrid{Width: n, Height: n, Scale: max(1, 300/n), Title: "Fig. 4: kernel matrices ordered by pose"}
	var row [][]float64
	for _, c := range in.cl {
		img := make([]float64, n*n)
		for a, i := range in.order {
			for b, j := range in.order {
				img[a*n+b] = c.basis.K.At(i, j)
			}
		}
		row = append(row, img)
		g.ColLabels = append(g.ColLabels, fmt.Sprintf("%s (contrast %.2f)", c.name, c.contrast))
	}
	g.Images = [][][]float64{row}
	g.Caption = figs.Caption(in.env.Config, "kernel matrices of the training images, rows and columns ordered by pose (bright = similar); contrast is the mean within-pose minus the mean between-pose similarity")
	files, err := g.Save(out.Path("fig4-kernels"))
	out.Add(files...)
	return err
}

// fig6Grid draws the first record's Fig. 6 images: the P_t pre-image,
// then the P_i ones labelled with α_i.
func (in *instance) fig6Grid(out *runner.Output, recs []report.Record) error {
	w, h := in.set.Width, in.set.Height
	dim := w * h
	for i := range recs {
		imgs := recs[i].Arrays["fig6_images"]
		alpha := recs[i].Arrays["fig6_alpha"]
		if len(imgs) < dim {
			continue
		}
		g := &report.ImageGrid{Width: w, Height: h, Scale: max(1, 64/max(w, h)), Lo: 0, Hi: 1,
			Title: fmt.Sprintf("Fig. 6: centre %d (%s kernel) with P_t, then with neighbours' P_i (α_i)", in.opt.fig6Centre+1, in.opt.fig6Kernel)}
		var cells [][]float64
		labels := []string{"P_t"}
		for k := 0; k*dim < len(imgs); k++ {
			cells = append(cells, imgs[k*dim:(k+1)*dim])
			if k > 0 {
				labels = append(labels, fmt.Sprintf("P_{%d}: α_{%d} = %.3g", k, k, alpha[k-1]))
			}
		}
		g.Images = [][][]float64{cells}
		g.ColLabels = labels
		g.RowLabels = []string{recs[i].Method()}
		g.Caption = figs.Caption(in.env.Config, fmt.Sprintf("pre-image of cluster centre %d (%s kernel) with the interpolated metric P_t, then with each neighbour's own metric P_i, headed by its interpolation weight α_i", in.opt.fig6Centre+1, in.opt.fig6Kernel))
		files, err := g.Save(out.Path("fig6-metrics"))
		out.Add(files...)
		return err
	}
	return nil
}

// pointReason says why a kkcluster metric has no interval: the figures
// are one clustering of every image, one kernel matrix and one test
// image's neighbours, with no sample of items to resample.
func pointReason(metric string) string {
	switch {
	case strings.HasPrefix(metric, "purity_p_"):
		return fmt.Sprintf("a permutation p-value (%d reassignments of the poses to the same clusters) is itself the test of \"no better than chance\": it has no interval over the images; its Monte Carlo standard error at p = 0.05 is about 0.005", chancePerms)
	case strings.HasPrefix(metric, "purity"):
		return "the record holds no per-image poses and clusters to resample"
	case strings.HasPrefix(metric, "block_contrast"):
		return "one kernel matrix of every image: its contrast is a mean over pairs of images, which are not independent items"
	case strings.HasPrefix(metric, "refused_"):
		return "whether an estimator accepts a kernel without derivatives is a property of the method, not a measurement on data"
	case strings.HasPrefix(metric, "fig6_"):
		return "one test image and its neighbours, as the paper's Fig. 6 shows: no sample of items to resample"
	}
	return "the pre-images of the few cluster centres of one clustering: the centres are not independent items, so there is nothing to resample"
}
