// Package robust is the robust reconstruction experiment of Nguyen & De la
// Torre (2008): corrupt held-out faces by square occlusions of random
// values (Fig. 5, Fig. 1 d/h) or by Gaussian noise (Table 2, Fig. 6),
// reconstruct them with every estimator and measure the mean absolute
// difference to the clean face, on the whole image and, for occlusions, on
// the occluded and non-occluded regions.
//
// # Protocol
//
// The dataset's images are split by subject (its labels) into training,
// validation and test sets: subjects are drawn in a seeded random order and
// given to each set in turn while that brings the set's image count closer
// to its target (experiment.split, the paper's 700/100/300), so no subject
// appears in two sets and the counts are as close as whole subjects allow.
// The kernel PCA model is fitted on the clean training images.
//
// Corruptions: experiment.occlusion_paper_sides lists the paper's square
// sides and occlusion_paper_fractions the fraction of the face each
// covered (the paper's ratio of Base Line whole-face to occluded-region
// error, ambiguity a11); our side is round(√(fraction·W·H)), the square of
// the same share of our W×H images. The square lies inside the image at a
// uniform position and holds i.i.d. uniform values in [0, 255]. Without
// occlusions the config's Gaussian corruption is added (no clipping). Each
// image and condition draws from its own stream, so the corrupted sets are
// shared by every cell (paired comparisons across methods and energies).
//
// Subspace sizes: the model's energy picks the kernel PCA components; for
// an estimator with a pca_energy parameter left at 0 (linear and robust
// PCA) the cell's energy is passed as its own linear energy, so "energy
// 80%" means 80% of the variance for every method.
//
// Validation tuning: experiment.tune names a method label and a grid of
// its parameters, plus optionally the kernel width (the model's width
// name, e.g. gamma). For a cell of that method every grid point is run on
// the corrupted validation set, the one with the smallest mean whole-image
// error (over all conditions; points with failed rows lose to points
// without) is chosen, and the test set is run with it. The chosen values
// are recorded as metrics tuned_<name>.
package robust

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	runner.RegisterKind(runner.Define("robust",
		"reconstruct occluded or noisy held-out images; region-wise mean absolute error, validation tuning (Nguyen & De la Torre Fig. 5, Table 2)",
		check, start))
}

// tuneSpec is one method's validation grid.
type tuneSpec struct {
	label  string
	widths []float64 // kernel widths; nil keeps the cell's
	keys   []string  // estimator parameters, sorted
	values [][]any   // values[i] lists the values of keys[i]
}

type options struct {
	split      []int
	paperSides []int
	paperFracs []float64
	tunes      map[string]*tuneSpec
	examples   int
	figureName string
}

func parse(c *config.Config) (options, error) {
	s := c.Experiment
	r := s.Reader("experiment")
	o := options{tunes: map[string]*tuneSpec{}}
	split := r.Floats("split", []float64{700, 100, 300}, 3)
	for _, v := range split {
		if v < 1 || v != math.Trunc(v) {
			r.Fail("split", "want three positive image counts (train, validation, test), got %v", split)
		}
		o.split = append(o.split, int(v))
	}
	sides := r.Floats("occlusion_paper_sides", nil, -1)
	o.paperFracs = r.Floats("occlusion_paper_fractions", nil, -1)
	for _, v := range sides {
		o.paperSides = append(o.paperSides, int(v))
	}
	for _, f := range o.paperFracs {
		if !(f > 0 && f < 1) {
			r.Fail("occlusion_paper_fractions", "want fractions in (0, 1), got %v", o.paperFracs)
		}
	}
	o.examples = r.Int("examples", 0, 0)
	o.figureName = r.String("figure_name", "images")
	r.Touch("tune")
	if err := r.Err(); err != nil {
		return o, err
	}
	if len(o.paperSides) != len(o.paperFracs) {
		return o, s.Errorf("occlusion_paper_fractions", "experiment: occlusion_paper_sides and occlusion_paper_fractions need the same length (%d and %d)", len(o.paperSides), len(o.paperFracs))
	}
	occl := len(o.paperSides) > 0
	switch {
	case occl && c.Corruption.Type != "none":
		return o, c.Errorf(0, "corruption: the robust kind draws its own occlusions (experiment.occlusion_paper_sides); set corruption.type: none")
	case !occl && c.Corruption.Type != "gaussian":
		return o, c.Errorf(0, "corruption: without experiment.occlusion_paper_sides the robust kind needs corruption.type: gaussian")
	}
	if v, ok := s.Values["tune"]; ok {
		list, ok := v.([]any)
		if !ok {
			return o, s.Errorf("tune", "experiment.tune: want a list of {method: label, <param>: [values]}")
		}
		for i, e := range list {
			m, ok := e.(map[string]any)
			if !ok {
				return o, s.Errorf("tune", "experiment.tune[%d]: want a mapping", i)
			}
			label, ok := m["method"].(string)
			if !ok {
				return o, s.Errorf("tune", "experiment.tune[%d]: want method: <a method label of the config>", i)
			}
			ts := &tuneSpec{label: label}
			var keys []string
			for k := range m {
				if k != "method" {
					keys = append(keys, k)
				}
			}
			sort.Strings(keys)
			for _, k := range keys {
				vals, ok := m[k].([]any)
				if !ok {
					vals = []any{m[k]}
				}
				if k == c.Model.WidthName && k != "" {
					for _, x := range vals {
						f := common.Num(x)
						if !(f > 0) {
							return o, s.Errorf("tune", "experiment.tune[%d].%s: want widths > 0, got %v", i, k, x)
						}
						ts.widths = append(ts.widths, f)
					}
					continue
				}
				ts.keys = append(ts.keys, k)
				ts.values = append(ts.values, vals)
			}
			if _, dup := o.tunes[label]; dup {
				return o, s.Errorf("tune", "experiment.tune: method %q tuned twice", label)
			}
			o.tunes[label] = ts
		}
	}
	return o, nil
}

func check(c *config.Config) (options, error) {
	o, err := parse(c)
	if err != nil {
		return o, err
	}
	if err := common.CheckModel(c, "robust", true, "at least one estimator"); err != nil {
		return o, err
	}
	if len(c.Model.Energy) == 0 {
		return o, c.ModelErrorf("model: the robust kind chooses subspaces by energy (model.energy)")
	}
	labels := map[string]*config.Method{}
	for i := range c.Methods {
		m := &c.Methods[i]
		l := m.Label
		if l == "" {
			if spec, ok := methods.Lookup(m.Name); ok {
				l = spec.Title
			}
		}
		labels[l] = m
	}
	for label, ts := range o.tunes {
		m, ok := labels[label]
		if !ok {
			return o, c.Experiment.Errorf("tune", "experiment.tune: no method labelled %q", label)
		}
		spec, ok := methods.Lookup(m.Name)
		if !ok {
			continue // reported by the runner
		}
		// Every grid point must bind.
		for _, pt := range grid(ts) {
			raw := map[string]any{}
			for k, v := range m.Params.Values {
				raw[k] = v
			}
			for k, v := range pt {
				raw[k] = v
			}
			for k, v := range raw {
				if l, ok := v.([]any); ok && len(l) > 0 {
					raw[k] = l[0]
				}
			}
			if _, err := spec.Bind(raw); err != nil {
				return o, c.Experiment.Errorf("tune", "experiment.tune (%s): %v", label, err)
			}
		}
	}
	return o, nil
}

// grid expands a tune spec's estimator parameters (widths apart), keys in
// sorted order, the last varying fastest.
func grid(ts *tuneSpec) []map[string]any {
	pts := []map[string]any{{}}
	for i, k := range ts.keys {
		var next []map[string]any
		for _, p := range pts {
			for _, v := range ts.values[i] {
				q := map[string]any{k: v}
				for a, b := range p {
					q[a] = b
				}
				next = append(next, q)
			}
		}
		pts = next
	}
	return pts
}

// condition is one corruption setting with its corrupted validation and
// test sets.
type condition struct {
	name      string // metric suffix: "s<paper side>" or "" for noise
	paperSide int
	side      int
	paperFrac float64
	val, test corrupted
}

type corrupted struct {
	noisy  *mat.Dense
	region [][]bool // occluded pixels per row; nil for noise
}

type instance struct {
	env       *runner.Env
	opt       options
	set       *datasets.Set
	train     *mat.Dense
	val, test *mat.Dense
	counts    [3]int // images per split
	subjects  [3]int
	conds     []condition
	// Stacked inputs: every condition's rows, condition-major.
	valX, testX *mat.Dense
	exRows      []int // test rows shown in the figures
}

func start(env *runner.Env, o options) (runner.Instance, error) {
	d, err := env.LoadData()
	if err != nil {
		return nil, err
	}
	set := d.Train
	if set.Labels == nil {
		return nil, fmt.Errorf("dataset %s has no subject labels to split by", set.Name)
	}
	in := &instance{env: env, opt: o, set: set}
	parts := in.splitBySubject(o.split)
	in.train, in.val, in.test = rows(set.X, parts[0]), rows(set.X, parts[1]), rows(set.X, parts[2])
	if len(parts[1]) == 0 || len(parts[2]) == 0 || len(parts[0]) < 2 {
		return nil, fmt.Errorf("the subject split left an empty set (%d/%d/%d images)", len(parts[0]), len(parts[1]), len(parts[2]))
	}
	w, h := set.Width, set.Height
	cr := env.Config.Corruption
	if len(o.paperSides) > 0 {
		if w == 0 || h == 0 {
			return nil, fmt.Errorf("occlusions need images, and dataset %s has no image size", set.Name)
		}
		for i, ps := range o.paperSides {
			side := int(math.Round(math.Sqrt(o.paperFracs[i] * float64(w*h))))
			if side < 1 || side > min(w, h) {
				return nil, env.Config.Experiment.Errorf("occlusion_paper_fractions", "experiment: fraction %g gives a %d px square on %d×%d images", o.paperFracs[i], side, w, h)
			}
			c := condition{name: fmt.Sprintf("s%d", ps), paperSide: ps, side: side, paperFrac: o.paperFracs[i]}
			c.val = occlude(env, "val/"+c.name, in.val, w, h, side)
			c.test = occlude(env, "test/"+c.name, in.test, w, h, side)
			in.conds = append(in.conds, c)
		}
	} else {
		c := condition{}
		c.val = gaussian(env, "val", in.val, cr.Std)
		c.test = gaussian(env, "test", in.test, cr.Std)
		in.conds = append(in.conds, c)
	}
	in.valX = stack(in.conds, func(c *condition) *mat.Dense { return c.val.noisy })
	in.testX = stack(in.conds, func(c *condition) *mat.Dense { return c.test.noisy })
	nt, _ := in.test.Dims()
	in.exRows = pickRows(nt, o.examples)
	return in, nil
}

// splitBySubject assigns whole subjects, in a seeded random order, to the
// training, validation and test sets in turn (see the package doc), and
// returns each set's row indices in increasing order.
func (in *instance) splitBySubject(target []int) [3][]int {
	byS := map[int][]int{}
	var subj []int
	for i, l := range in.set.Labels {
		if _, ok := byS[l]; !ok {
			subj = append(subj, l)
		}
		byS[l] = append(byS[l], i)
	}
	sort.Ints(subj)
	perm := in.env.Rand("split").Perm(len(subj))
	var out [3][]int
	next := 0
	for s := 0; s < 3; s++ {
		for next < len(perm) {
			rowsS := byS[subj[perm[next]]]
			cur := len(out[s])
			if abs(cur+len(rowsS)-target[s]) >= abs(cur-target[s]) {
				break
			}
			out[s] = append(out[s], rowsS...)
			in.subjects[s]++
			next++
		}
		sort.Ints(out[s])
		in.counts[s] = len(out[s])
	}
	return out
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func rows(x *mat.Dense, idx []int) *mat.Dense {
	_, d := x.Dims()
	if len(idx) == 0 {
		return &mat.Dense{}
	}
	m := mat.NewDense(len(idx), d, nil)
	for a, i := range idx {
		m.SetRow(a, x.RawRowView(i))
	}
	return m
}

// occlude pastes a side×side square of i.i.d. U[0, 255] values at a uniform
// position inside each w×h image, one stream per image.
func occlude(env *runner.Env, purpose string, clean *mat.Dense, w, h, side int) corrupted {
	n, d := clean.Dims()
	c := corrupted{noisy: mat.DenseCopyOf(clean), region: make([][]bool, n)}
	for i := 0; i < n; i++ {
		rnd := env.Rand(fmt.Sprintf("occlusion/%s/%d", purpose, i))
		r0, c0 := rnd.IntN(h-side+1), rnd.IntN(w-side+1)
		row := c.noisy.RawRowView(i)
		reg := make([]bool, d)
		for a := 0; a < side; a++ {
			for b := 0; b < side; b++ {
				j := (r0+a)*w + c0 + b
				row[j] = 255 * rnd.Float64()
				reg[j] = true
			}
		}
		c.region[i] = reg
	}
	return c
}

// gaussian adds N(0, std²) noise to every pixel, one stream per image.
func gaussian(env *runner.Env, purpose string, clean *mat.Dense, std float64) corrupted {
	n, _ := clean.Dims()
	c := corrupted{noisy: mat.DenseCopyOf(clean)}
	for i := 0; i < n; i++ {
		rnd := env.Rand(fmt.Sprintf("noise/%s/%d", purpose, i))
		for j, v := range c.noisy.RawRowView(i) {
			c.noisy.RawRowView(i)[j] = v + std*rnd.NormFloat64()
		}
	}
	return c
}

func stack(conds []condition, get func(*condition) *mat.Dense) *mat.Dense {
	var total, d int
	for i := range conds {
		r, c := get(&conds[i]).Dims()
		total += r
		d = c
	}
	out := mat.NewDense(total, d, nil)
	at := 0
	for i := range conds {
		x := get(&conds[i])
		r, _ := x.Dims()
		for k := 0; k < r; k++ {
			out.SetRow(at+k, x.RawRowView(k))
		}
		at += r
	}
	return out
}

// pickRows spreads n examples evenly over m rows.
func pickRows(m, n int) []int {
	var out []int
	for k := 0; k < n && k < m; k++ {
		out = append(out, k*m/n)
	}
	return out
}

// outcome is what one run of an estimator on a stacked input gives.
type outcome struct {
	z  mat.Dense
	st []methods.Status
}

// runOn builds the estimator with the overrides, fits (or reuses) the model
// of width w and reconstructs x.
func (in *instance) runOn(cell *runner.Cell, w float64, over map[string]any, x *mat.Dense) (*outcome, int, error) {
	c2 := *cell
	if w > 0 {
		mp := cell.Model
		mp.Width = w
		k, err := runner.KernelFor(mp)
		if err != nil {
			return nil, 0, err
		}
		c2.Kernel = k
	}
	m, err := common.Model(in.env, "train", in.train, &c2)
	if err != nil {
		return nil, 0, err
	}
	q, err := common.Components(m, &c2)
	if err != nil {
		return nil, 0, err
	}
	bm := cell.Method
	raw := map[string]any{}
	for k, v := range bm.Params {
		raw[k] = v
	}
	// Linear methods keep the cell's energy of their own variance.
	if v, ok := bm.Params["pca_energy"]; ok && common.Num(v) == 0 && (bm.Params["pca_components"] == nil || common.Num(bm.Params["pca_components"]) == 0) {
		raw["pca_energy"] = cell.Model.Energy
	}
	for k, v := range over {
		raw[k] = v
	}
	p, err := bm.Spec.Bind(raw)
	if err != nil {
		return nil, 0, err
	}
	est, err := bm.Spec.New(p)
	if err != nil {
		return nil, 0, err
	}
	den, ok := methods.AsDenoiser(est)
	if !ok {
		return nil, 0, errors.New("the estimator neither de-noises nor finds pre-images")
	}
	o := &outcome{}
	o.st, err = den.Denoise(&o.z, &methods.DenoiseInput{Model: m, Q: q, X0: x, Rand: cell.Rand()})
	if err != nil {
		return nil, 0, err
	}
	return o, q, nil
}

// wholeError returns the mean whole-image absolute error over the rows
// that did not fail, and the number that failed.
func wholeError(o *outcome, conds []condition, clean *mat.Dense) (float64, int) {
	n, _ := clean.Dims()
	var s float64
	var good, failed int
	for ci := range conds {
		for i := 0; i < n; i++ {
			r := ci*n + i
			if o.st[r].Err != nil {
				failed++
				continue
			}
			w, _, _ := metrics.RegionMAE(o.z.RawRowView(r), clean.RawRowView(i), nil)
			s += w
			good++
		}
	}
	if good == 0 {
		return math.Inf(1), failed
	}
	return s / float64(good), failed
}

func (in *instance) Run(cell *runner.Cell, rec *report.Record) error {
	if cell.Method == nil {
		return errors.New("no estimator")
	}
	width := cell.Model.Width
	var over map[string]any
	if ts, ok := in.opt.tunes[cell.Method.Label]; ok {
		widths := ts.widths
		if len(widths) == 0 {
			widths = []float64{width}
		}
		bestErr, bestFailed := math.Inf(1), math.MaxInt
		var errs []float64
		for _, w := range widths {
			for _, pt := range grid(ts) {
				o, _, err := in.runOn(cell, w, pt, in.valX)
				if err != nil {
					return fmt.Errorf("validation run %v: %w", pt, err)
				}
				e, failed := wholeError(o, in.conds, in.val)
				errs = append(errs, e)
				if failed < bestFailed || (failed == bestFailed && e < bestErr) {
					bestErr, bestFailed, width, over = e, failed, w, pt
				}
			}
		}
		if math.IsInf(bestErr, 1) {
			return errors.New("every validation grid point failed on every row")
		}
		rec.Metrics["val_whole_mean"] = bestErr
		rec.Metrics["tuned_"+in.env.Config.Model.WidthName] = width
		for k, v := range over {
			rec.Metrics["tuned_"+k] = common.Num(v)
		}
		rec.Arrays = map[string][]float64{"tune_val_error": errs}
	}
	o, q, err := in.runOn(cell, width, over, in.testX)
	if err != nil {
		return err
	}
	rec.Metrics["components"] = float64(q)
	n, _ := in.test.Dims()
	var failed, nonconv int
	for ci := range in.conds {
		c := &in.conds[ci]
		var whole, occ, non []float64
		for i := 0; i < n; i++ {
			r := ci*n + i
			if o.st[r].Err != nil {
				failed++
				continue
			}
			if !o.st[r].Converged && o.st[r].Iterations > 0 {
				nonconv++
			}
			var reg []bool
			if c.test.region != nil {
				reg = c.test.region[i]
			}
			w, a, b := metrics.RegionMAE(o.z.RawRowView(r), in.test.RawRowView(i), reg)
			whole = append(whole, w)
			occ = append(occ, a)
			non = append(non, b)
		}
		put := func(name string, v []float64) {
			s := metrics.Summarize(v)
			key := name
			if c.name != "" {
				rec.Metrics[key+"_mean_"+c.name] = s.Mean
				rec.Metrics[key+"_std_"+c.name] = s.Std
				return
			}
			rec.Metrics[key+"_mean"] = s.Mean
			rec.Metrics[key+"_std"] = s.Std
		}
		if c.test.region != nil {
			put("whole", whole)
			put("occ", occ)
			put("nonocc", non)
		} else {
			put("mae", whole)
		}
		if len(in.exRows) > 0 {
			if rec.Arrays == nil {
				rec.Arrays = map[string][]float64{}
			}
			var ex []float64
			for _, i := range in.exRows {
				ex = append(ex, o.z.RawRowView(ci*n+i)...)
			}
			rec.Arrays["examples"+suffix(c.name)] = ex
		}
	}
	rec.Metrics["failed_rows"] = float64(failed)
	rec.Metrics["nonconverged_rows"] = float64(nonconv)
	if failed == n*len(in.conds) {
		return fmt.Errorf("every one of the %d inputs failed", failed)
	}
	if failed > 0 {
		rec.Status = report.StatusPartial
	}
	return nil
}

func suffix(name string) string {
	if name == "" {
		return ""
	}
	return "_" + name
}

func (in *instance) Report(out *runner.Output, recs []report.Record) error {
	cfg := in.env.Config
	labels := common.Labels(recs, "method")
	energies := common.Values(recs, "energy")
	find := func(label string, e float64) *report.Record {
		for i := range recs {
			if fmt.Sprint(recs[i].Params["method"]) == label && common.Param(&recs[i], "energy") == e {
				return &recs[i]
			}
		}
		return nil
	}
	cellText := func(r *report.Record, mean, std string) string {
		if r == nil {
			return "—"
		}
		if r.Status == report.StatusFailed {
			return "failed"
		}
		return report.FormatFloat(r.Metrics[mean], 3) + " ± " + report.FormatFloat(r.Metrics[std], 3)
	}
	names := []string{"train", "validation", "test"}
	var sp []string
	for s := 0; s < 3; s++ {
		sp = append(sp, fmt.Sprintf("%s %d images of %d subjects (target %d)", names[s], in.counts[s], in.subjects[s], in.opt.split[s]))
	}
	splitText := "Subject-disjoint split: " + strings.Join(sp, ", ") + "."
	occl := in.conds[0].test.region != nil
	if occl {
		st := &report.Table{Title: "Occlusion sizes: the paper's and ours (same share of the face)",
			Caption: fmt.Sprintf("Our images are %d×%d; the paper's fraction is its Base Line whole-face / occluded-region error (paper-values a11). %s", in.set.Width, in.set.Height, splitText),
			Header:  []string{"paper side (px)", "paper fraction", "our side (px)", "our fraction"}}
		for _, c := range in.conds {
			st.Rows = append(st.Rows, []string{fmt.Sprint(c.paperSide), report.FormatFloat(c.paperFrac, 3), fmt.Sprint(c.side),
				report.FormatFloat(float64(c.side*c.side)/float64(in.set.Width*in.set.Height), 3)})
		}
		out.Tables = append(out.Tables, st)
		for _, e := range energies {
			t := &report.Table{
				Title:   fmt.Sprintf("Fig. 5 (energy %s): mean absolute difference (0–255) to the clean face, mean ± std over %d test images", report.FormatFloat(100*e, 3)+"%", in.counts[2]),
				Caption: splitText + " Base Line is the occluded input itself.",
				Header:  append([]string{"paper size (our side)", "region"}, labels...),
			}
			for _, c := range in.conds {
				for _, reg := range []struct{ key, name string }{{"whole", "whole face"}, {"occ", "occluded"}, {"nonocc", "non-occluded"}} {
					row := []string{fmt.Sprintf("%d (%d)", c.paperSide, c.side), reg.name}
					for _, l := range labels {
						row = append(row, cellText(find(l, e), reg.key+"_mean_"+c.name, reg.key+"_std_"+c.name))
					}
					t.Rows = append(t.Rows, row)
				}
			}
			out.Tables = append(out.Tables, t)
		}
	} else {
		t := &report.Table{
			Title:   fmt.Sprintf("Table 2: mean absolute difference (0–255) to the clean face, mean ± std over %d test images", in.counts[2]),
			Caption: splitText + " Noise: " + cfg.Corruption.Printed + ". Base Line is the noisy input itself.",
			Header:  append([]string{"energy"}, labels...),
		}
		for _, e := range energies {
			row := []string{report.FormatFloat(100*e, 3) + "%"}
			for _, l := range labels {
				row = append(row, cellText(find(l, e), "mae_mean", "mae_std"))
			}
			t.Rows = append(t.Rows, row)
		}
		out.Tables = append(out.Tables, t)
	}
	if len(in.opt.tunes) > 0 {
		t := &report.Table{Title: "Parameters chosen on the validation set", Caption: "Smallest mean whole-image error on the corrupted validation images (all corruption sizes together).",
			Header: []string{"method", "energy", "chosen", "validation error", "grid points"}}
		for i := range recs {
			r := &recs[i]
			if _, ok := in.opt.tunes[fmt.Sprint(r.Params["method"])]; !ok || r.Status == report.StatusFailed {
				continue
			}
			var keys []string
			for k := range r.Metrics {
				if strings.HasPrefix(k, "tuned_") {
					keys = append(keys, k)
				}
			}
			sort.Strings(keys)
			var parts []string
			for _, k := range keys {
				parts = append(parts, strings.TrimPrefix(k, "tuned_")+"="+report.FormatFloat(r.Metrics[k], 4))
			}
			t.Rows = append(t.Rows, []string{fmt.Sprint(r.Params["method"]), report.FormatFloat(common.Param(r, "energy"), 3),
				strings.Join(parts, ", "), report.FormatFloat(r.Metrics["val_whole_mean"], 4), fmt.Sprint(len(r.Arrays["tune_val_error"]))})
		}
		out.Tables = append(out.Tables, t)
	}
	return in.images(out, recs, labels, energies)
}

// images draws, per energy and corruption, the example test faces: clean,
// corrupted and every method's reconstruction (the paper's Figs. 1 and 6).
func (in *instance) images(out *runner.Output, recs []report.Record, labels []string, energies []float64) error {
	if len(in.exRows) == 0 {
		return nil
	}
	w, h := in.set.Width, in.set.Height
	d := w * h
	n, _ := in.test.Dims()
	// The identity's output is the corrupted row already drawn.
	skip := map[string]bool{}
	for _, m := range in.env.Config.Methods {
		if m.Name == "identity" {
			l := m.Label
			if l == "" {
				l = "Base Line"
			}
			skip[l] = true
		}
	}
	for _, e := range energies {
		for ci, c := range in.conds {
			g := &report.ImageGrid{Width: w, Height: h, Scale: max(1, 64/max(w, h)), Lo: 0, Hi: 255,
				Title: fmt.Sprintf("energy %s%s", report.FormatFloat(100*e, 3)+"%", map[bool]string{true: fmt.Sprintf(", occlusion %d px (paper %d)", c.side, c.paperSide), false: ", " + in.env.Config.Corruption.Printed}[c.test.region != nil])}
			var orig, cor [][]float64
			for _, i := range in.exRows {
				orig = append(orig, in.test.RawRowView(i))
				cor = append(cor, in.testX.RawRowView(ci*n+i))
			}
			g.Images = [][][]float64{orig, cor}
			g.RowLabels = []string{"original", "corrupted"}
			for _, l := range labels {
				var r *report.Record
				for k := range recs {
					if fmt.Sprint(recs[k].Params["method"]) == l && common.Param(&recs[k], "energy") == e {
						r = &recs[k]
					}
				}
				if r == nil || skip[l] {
					continue
				}
				ex := r.Arrays["examples"+suffix(c.name)]
				var row [][]float64
				for k := range in.exRows {
					if len(ex) >= (k+1)*d {
						row = append(row, ex[k*d:(k+1)*d])
					} else {
						row = append(row, nil)
					}
				}
				g.Images = append(g.Images, row)
				g.RowLabels = append(g.RowLabels, l)
			}
			name := fmt.Sprintf("%s-e%d%s", in.opt.figureName, int(math.Round(100*e)), suffix(c.name))
			files, err := g.Save(out.Path(name))
			out.Add(files...)
			if err != nil {
				return err
			}
		}
	}
	return nil
}
