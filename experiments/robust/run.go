package robust

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// outcome is what one run of an estimator on a stacked input gives.
type outcome struct {
	z  mat.Dense
	st []methods.Status
}

// params returns the cell's bound estimator parameters with the cell's
// energy handed to a linear method whose own energy and component count
// are left at 0 (methods.EnergyRole, ComponentsRole), and the tuned values
// of pt, if any, in place of the cell's.
func params(cell *runner.Cell, pt *tunePoint) (methods.Params, error) {
	spec, p := cell.Method.Spec, cell.Method.Params
	if linearUnset(spec, p) {
		var err error
		if p, _, err = spec.WithRole(p, methods.EnergyRole, cell.Model.Energy); err != nil {
			return nil, err
		}
	}
	if pt != nil && len(pt.bound) > 0 {
		out := make(methods.Params, len(p))
		for k, v := range p {
			out[k] = v
		}
		for k, v := range pt.bound {
			out[k] = v
		}
		p = out
	}
	return p, nil
}

// linearUnset reports whether the estimator has a linear energy parameter
// left at 0 and no linear component count set.
func linearUnset(spec *methods.Spec, p methods.Params) bool {
	e, ok := spec.RoleParam(methods.EnergyRole)
	if !ok || common.Num(p[e.Name]) != 0 {
		return false
	}
	c, ok := spec.RoleParam(methods.ComponentsRole)
	return !ok || p[c.Name] == nil || common.Num(p[c.Name]) == 0
}

// runOn builds the estimator with the tuned point pt (nil for none), fits
// (or reuses) the model of width w (0 keeps the cell's kernel) and
// reconstructs x. It returns the component count used.
func (in *instance) runOn(cell *runner.Cell, w float64, pt *tunePoint, x *mat.Dense) (*outcome, int, error) {
	c2 := cell
	if w > 0 {
		var err error
		if c2, err = cell.WithWidth(w); err != nil {
			return nil, 0, err
		}
	}
	m, err := common.Model(in.env, "train", in.train, c2)
	if err != nil {
		return nil, 0, err
	}
	q, err := common.Components(m, c2)
	if err != nil {
		return nil, 0, err
	}
	p, err := params(cell, pt)
	if err != nil {
		return nil, 0, err
	}
	den, err := cell.Method.Spec.NewDenoiser(p)
	if err != nil {
		return nil, 0, err
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

// testBlocks is how many parts an RKPCA cell's test rows are computed
// in: its Geman–McClure fits are the longest rows of the kind (a Fig. 5
// cell took 4 minutes whole on 2 cores).
const testBlocks = 8

// parts gives a cell one stage of validation points when its method is
// tuned (experiment.tune: one part per width and grid point), then its
// test rows: in testBlocks parts for RKPCA, whose rows are independent
// (each its own fixed point; the batch's products give each row the same
// operations whatever rows are beside it, docs/performance.md), in one
// for every other estimator, which may not be (an external one).
func parts(_ *config.Config, opts any, cell *runner.Cell) []int {
	o := opts.(options)
	blocks := 1
	if cell.Method != nil && cell.Method.Spec.Name == "rkpca" {
		blocks = testBlocks
	}
	if cell.Method != nil {
		if ts, ok := o.tunes[cell.Method.Label]; ok {
			return []int{max(len(ts.widths), 1) * len(ts.points), blocks}
		}
	}
	return []int{blocks}
}

// piece is one part's result: a validation point's error, or a block of
// test rows. Its fields are exported for the part's encoding.
type piece struct {
	ValErr    float64 // whole-image validation error of the point
	ValFailed int     // validation rows that failed
	Q         int     // components used on the test rows
	Rows      []rowOut
	Fatal     string // the error of the test run, "" for none
}

// rowOut is one test row's outcome: its status and the values measure
// records of it, with the reconstruction of an example row.
type rowOut struct {
	Err        string
	Converged  bool
	Iterations int
	V          []float64
	Z          []float64
}

func (in *instance) Run(cell *runner.Cell, rec *report.Record) error {
	return runner.RunParts(in, cell, rec)
}

// Parts computes the validation points and the test blocks and combines
// them into the record.
func (in *instance) Parts() runner.Parts {
	stages := func(c *runner.Cell) []int { return parts(nil, in.opt, c) }
	return runner.PartsOf(stages, in.part, in.combine)
}

// layout returns the cell's validation points (0 when untuned) and test
// blocks.
func (in *instance) layout(cell *runner.Cell) (points, blocks int) {
	st := parts(nil, in.opt, cell)
	if len(st) == 2 {
		return st[0], st[1]
	}
	return 0, st[0]
}

func (in *instance) part(cell *runner.Cell, stage, k int, earlier []piece) (piece, error) {
	if cell.Method == nil {
		return piece{}, errors.New("no estimator")
	}
	points, blocks := in.layout(cell)
	ts := in.opt.tunes[cell.Method.Label]
	if points > 0 && stage == 0 {
		return in.validate(cell, ts, k)
	}
	width := cell.Model.Width
	var pt *tunePoint
	if points > 0 {
		var err error
		if width, pt, _, err = pick(cell, ts, earlier); err != nil {
			return piece{Fatal: err.Error()}, nil
		}
	}
	b := k - points
	n, _ := in.testX.Dims()
	lo, hi := b*n/blocks, (b+1)*n/blocks
	if lo == hi {
		return piece{}, nil // fewer test rows than blocks
	}
	x := in.testX.Slice(lo, hi, 0, in.testX.RawMatrix().Cols).(*mat.Dense)
	o, q, err := in.runOn(cell, width, pt, x)
	if err != nil {
		return piece{Fatal: err.Error()}, nil
	}
	out := piece{Q: q, Rows: make([]rowOut, hi-lo)}
	for r := range out.Rows {
		out.Rows[r] = in.row(o, r, lo+r)
	}
	return out, nil
}

// validate runs grid point t (width-major) of the cell's validation grid
// on the validation set.
func (in *instance) validate(cell *runner.Cell, ts *tuneSpec, t int) (piece, error) {
	widths := ts.widths
	if len(widths) == 0 {
		widths = []float64{cell.Model.Width}
	}
	w, pt := widths[t/len(ts.points)], &ts.points[t%len(ts.points)]
	o, _, err := in.runOn(cell, w, pt, in.valX)
	if err != nil {
		return piece{}, fmt.Errorf("validation run %v: %w", pt.raw, err)
	}
	e, failed := wholeError(o, in.conds, in.val)
	return piece{ValErr: e, ValFailed: failed}, nil
}

// pick returns the width and point with the smallest whole-image
// validation error (fewer failed rows first; the first in grid order on
// a tie), and that error.
func pick(cell *runner.Cell, ts *tuneSpec, vals []piece) (float64, *tunePoint, float64, error) {
	widths := ts.widths
	if len(widths) == 0 {
		widths = []float64{cell.Model.Width}
	}
	width := cell.Model.Width
	bestErr, bestFailed := math.Inf(1), math.MaxInt
	var best *tunePoint
	for t, v := range vals {
		if v.ValFailed < bestFailed || (v.ValFailed == bestFailed && v.ValErr < bestErr) {
			bestErr, bestFailed, width, best = v.ValErr, v.ValFailed, widths[t/len(ts.points)], &ts.points[t%len(ts.points)]
		}
	}
	if math.IsInf(bestErr, 1) {
		return 0, nil, 0, errors.New("every validation grid point failed on every row")
	}
	return width, best, bestErr, nil
}

// row is test row r of the outcome o, row at of the stacked test inputs.
func (in *instance) row(o *outcome, r, at int) rowOut {
	st := o.st[r]
	out := rowOut{Converged: st.Converged, Iterations: st.Iterations}
	n, _ := in.test.Dims()
	ci, i := at/n, at%n
	z := o.z.RawRowView(r)
	if slices.Contains(in.exRows, i) {
		out.Z = append([]float64(nil), z...)
	}
	if st.Err != nil {
		out.Err = st.Err.Error()
		return out
	}
	c := &in.conds[ci]
	x := in.test.RawRowView(i)
	if c.test.region != nil {
		w, a, b := metrics.RegionMAE(z, x, c.test.region[i])
		out.V = []float64{w, a, b}
	} else {
		w, _, _ := metrics.RegionMAE(z, x, nil)
		out.V = []float64{w, metrics.DetailRatio(z, x, in.set.Width, in.set.Height), metrics.DetailError(z, x, in.set.Width, in.set.Height)}
	}
	return out
}

// combine writes the record: the validation choice, if tuned, then every
// condition's errors over the test rows in order.
func (in *instance) combine(cell *runner.Cell, ps []piece, rec *report.Record) error {
	points, _ := in.layout(cell)
	if points > 0 {
		ts := in.opt.tunes[cell.Method.Label]
		width, best, bestErr, err := pick(cell, ts, ps[:points])
		if err != nil {
			return err
		}
		var errs []float64
		for _, v := range ps[:points] {
			errs = append(errs, v.ValErr)
		}
		rec.Set(ValWholeMean, bestErr)
		rec.Set(tuned(in.env.Config.Model.WidthName), width)
		for k, v := range best.raw {
			rec.Set(tuned(k), common.Num(v))
		}
		rec.Arrays = map[string][]float64{"tune_val_error": errs}
	}
	var rows []rowOut
	q := 0
	for _, p := range ps[points:] {
		if p.Fatal != "" {
			return errors.New(p.Fatal)
		}
		if len(p.Rows) > 0 && q == 0 {
			q = p.Q
		}
		rows = append(rows, p.Rows...)
	}
	rec.Set(common.NumComponents, float64(q))
	n, _ := in.test.Dims()
	var failed, nonconv int
	for ci := range in.conds {
		f, nc := in.measure(rows, ci, rec)
		failed += f
		nonconv += nc
	}
	rec.Set(common.FailedRows, float64(failed))
	rec.Set(common.NonconvergedRows, float64(nonconv))
	if failed == n*len(in.conds) {
		return fmt.Errorf("every one of the %d inputs failed", failed)
	}
	if failed > 0 {
		rec.Status = report.StatusPartial
	}
	return nil
}

// measure records condition ci's errors on the test set: whole, occluded
// and non-occluded regions for an occlusion, the whole image and the
// fine detail against the clean image (metrics.DetailRatio, DetailError)
// for noise; each as mean and standard deviation over the test images and
// as a per-image array (items.go; NaN where the row failed, so item i is
// the same image in every record); and the example reconstructions. It
// returns the failed and non-converged row counts.
func (in *instance) measure(rows []rowOut, ci int, rec *report.Record) (failed, nonconv int) {
	c := &in.conds[ci]
	n, _ := in.test.Dims()
	names := []string{"whole", "occ", "nonocc"}
	if c.test.region == nil {
		names = []string{"mae", "detail", "detailerr"}
	}
	vals := make([][]float64, len(names)) // finite values, for the metrics
	arrs := make([][]float64, len(names)) // one per image, NaN where failed
	for i := 0; i < n; i++ {
		row := rows[ci*n+i]
		if row.Err != "" {
			failed++
			rec.AddFailure(row.Err)
			for j := range arrs {
				arrs[j] = append(arrs[j], math.NaN())
			}
			continue
		}
		if !row.Converged && row.Iterations > 0 {
			nonconv++
		}
		for j := range row.V {
			vals[j] = append(vals[j], row.V[j])
			arrs[j] = append(arrs[j], row.V[j])
		}
	}
	if rec.Arrays == nil {
		rec.Arrays = map[string][]float64{}
	}
	for j, name := range names {
		s := metrics.Summarize(vals[j])
		metric := measureOf(name)
		rec.Set(errMean(metric, c.name), s.Mean)
		if j == 0 || c.test.region != nil {
			// The detail measures are read as means; their spread is
			// in the per-image arrays.
			rec.Set(errStd(metric, c.name), s.Std)
		}
		rec.Arrays[name+suffix(c.name)] = arrs[j]
	}
	if len(in.exRows) > 0 {
		var ex []float64
		for _, i := range in.exRows {
			ex = append(ex, rows[ci*n+i].Z...)
		}
		rec.Arrays["examples"+suffix(c.name)] = ex
	}
	return failed, nonconv
}
