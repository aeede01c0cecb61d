package robust

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/internal/common"
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

// tune runs every grid point of the cell's method on the validation set
// and returns the width and point with the smallest whole-image error
// (fewer failed rows first), recording the choice.
func (in *instance) tune(cell *runner.Cell, ts *tuneSpec, rec *report.Record) (float64, *tunePoint, error) {
	width := cell.Model.Width
	widths := ts.widths
	if len(widths) == 0 {
		widths = []float64{width}
	}
	bestErr, bestFailed := math.Inf(1), math.MaxInt
	var best *tunePoint
	var errs []float64
	for _, w := range widths {
		for k := range ts.points {
			pt := &ts.points[k]
			o, _, err := in.runOn(cell, w, pt, in.valX)
			if err != nil {
				return 0, nil, fmt.Errorf("validation run %v: %w", pt.raw, err)
			}
			e, failed := wholeError(o, in.conds, in.val)
			errs = append(errs, e)
			if failed < bestFailed || (failed == bestFailed && e < bestErr) {
				bestErr, bestFailed, width, best = e, failed, w, pt
			}
		}
	}
	if math.IsInf(bestErr, 1) {
		return 0, nil, errors.New("every validation grid point failed on every row")
	}
	rec.Set(ValWholeMean, bestErr)
	rec.Set(tuned(in.env.Config.Model.WidthName), width)
	for k, v := range best.raw {
		rec.Set(tuned(k), common.Num(v))
	}
	rec.Arrays = map[string][]float64{"tune_val_error": errs}
	return width, best, nil
}

func (in *instance) Run(cell *runner.Cell, rec *report.Record) error {
	if cell.Method == nil {
		return errors.New("no estimator")
	}
	width := cell.Model.Width
	var pt *tunePoint
	if ts, ok := in.opt.tunes[cell.Method.Label]; ok {
		var err error
		if width, pt, err = in.tune(cell, ts, rec); err != nil {
			return err
		}
	}
	o, q, err := in.runOn(cell, width, pt, in.testX)
	if err != nil {
		return err
	}
	rec.Set(common.NumComponents, float64(q))
	n, _ := in.test.Dims()
	var failed, nonconv int
	for ci := range in.conds {
		f, nc := in.measure(o, ci, rec)
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
func (in *instance) measure(o *outcome, ci int, rec *report.Record) (failed, nonconv int) {
	c := &in.conds[ci]
	n, _ := in.test.Dims()
	names := []string{"whole", "occ", "nonocc"}
	if c.test.region == nil {
		names = []string{"mae", "detail", "detailerr"}
	}
	vals := make([][]float64, len(names)) // finite values, for the metrics
	arrs := make([][]float64, len(names)) // one per image, NaN where failed
	for i := 0; i < n; i++ {
		r := ci*n + i
		if o.st[r].Err != nil {
			failed++
			rec.AddFailure(o.st[r].Err.Error())
			for j := range arrs {
				arrs[j] = append(arrs[j], math.NaN())
			}
			continue
		}
		if !o.st[r].Converged && o.st[r].Iterations > 0 {
			nonconv++
		}
		z, x := o.z.RawRowView(r), in.test.RawRowView(i)
		var v []float64
		if c.test.region != nil {
			w, a, b := metrics.RegionMAE(z, x, c.test.region[i])
			v = []float64{w, a, b}
		} else {
			w, _, _ := metrics.RegionMAE(z, x, nil)
			v = []float64{w, metrics.DetailRatio(z, x, in.set.Width, in.set.Height), metrics.DetailError(z, x, in.set.Width, in.set.Height)}
		}
		for j := range v {
			vals[j] = append(vals[j], v[j])
			arrs[j] = append(arrs[j], v[j])
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
			ex = append(ex, o.z.RawRowView(ci*n+i)...)
		}
		rec.Arrays["examples"+suffix(c.name)] = ex
	}
	return failed, nonconv
}
