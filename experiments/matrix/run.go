package matrix

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// Run de-noises every benchmark's test images with the cell's estimator.
// Per benchmark it records the per-image errors (Arrays "err_<name>", NaN
// for an image that failed), their mean ("mse_<name>"), the number of
// failed images ("failed_<name>"; "error_<name>" = 1 when the benchmark
// failed as a whole), the images experiment.method_test left out
// ("skipped_<name>"), and "refused_<name>" = 1 when the estimator cannot
// take the benchmark's kernel; the reasons go to the record's error. The
// cell fails only when every benchmark refused or failed.
func (in *instance) Run(cell *runner.Cell, rec *report.Record) error {
	if cell.Method == nil {
		return errors.New("the cell has no estimator")
	}
	rec.Arrays = map[string][]float64{}
	var reasons []string
	ok, partial := 0, false
	for _, p := range in.benches {
		if err := cell.Method.Spec.CheckKernel(p.kern); err != nil {
			rec.Set(p.refused(), 1)
			reasons = append(reasons, p.name+": refused: "+oneLine(err.Error()))
			continue
		}
		t0 := time.Now()
		errs, failures, err := in.denoise(cell, p)
		// The cost goes to the log, not the record, which must not
		// change from run to run.
		in.env.Log.Debug("matrix cell", "method", cell.Method.Label, "benchmark", p.name, "seconds", time.Since(t0).Seconds())
		if err != nil {
			rec.Set(p.errored(), 1)
			reasons = append(reasons, p.name+": "+oneLine(err.Error()))
			continue
		}
		skip := in.skipped(cell, p)
		nfail, sum, n := 0, 0.0, 0
		for i, e := range errs {
			if i >= len(errs)-skip {
				continue
			}
			if math.IsNaN(e) {
				nfail++
				continue
			}
			sum += e
			n++
		}
		if n == 0 {
			rec.Set(p.errored(), 1)
			reasons = append(reasons, fmt.Sprintf("%s: every one of the %d test images failed", p.name, len(errs)-skip))
			continue
		}
		ok++
		for _, f := range failures {
			rec.AddFailure(p.name + ": " + f)
		}
		rec.Arrays["err_"+p.name] = errs
		rec.Set(p.mse(), sum/float64(n))
		rec.Set(p.failed(), float64(nfail))
		if skip > 0 {
			rec.Set(p.skipped(), float64(skip))
		}
		if nfail > 0 {
			partial = true
		}
	}
	rec.Error = strings.Join(reasons, "\n")
	switch {
	case ok == 0:
		return errors.New(rec.Error)
	case partial || len(reasons) > 0:
		rec.Status = report.StatusPartial
	}
	return nil
}

// skipped returns how many test images of p experiment.method_test
// leaves out for the cell's estimator.
func (in *instance) skipped(cell *runner.Cell, p *prepared) int {
	nt, _ := p.clean.Dims()
	c, ok := in.opt.methodTest[cell.Method.Label]
	if !ok {
		c, ok = in.opt.methodTest[cell.Method.Spec.Name]
	}
	if !ok || c >= nt {
		return 0
	}
	return nt - c
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// denoise returns the per-image errors of the cell's estimator on p, NaN
// where an image failed, with the failed images' reasons, or the reason
// it could not run at all.
func (in *instance) denoise(cell *runner.Cell, p *prepared) ([]float64, []string, error) {
	spec := cell.Method.Spec
	m, q, err := p.model(in.env)
	if err != nil {
		return nil, nil, err
	}
	den, err := spec.NewDenoiser(cell.Method.Params)
	if err != nil {
		return nil, nil, err
	}
	// A slow estimator may be capped to the first k test images
	// (experiment.method_test); the others are NaN, so its mean and the
	// paired comparisons use the images it de-noised.
	nt, _ := p.clean.Dims()
	k := nt - in.skipped(cell, p)
	x0 := p.noisy.Slice(0, k, 0, p.d).(*mat.Dense)
	var out mat.Dense
	st, err := den.Denoise(&out, &methods.DenoiseInput{Model: m, Q: q, X0: x0, Rand: runner.NewRand(cell.Seed, cell.Key+"|"+p.name)})
	if err != nil {
		return nil, nil, err
	}
	if r, c := out.Dims(); r != k || c != p.d {
		return nil, nil, fmt.Errorf("the estimator returned %d×%d, want %d×%d", r, c, k, p.d)
	}
	errs := make([]float64, nt)
	var failures []string
	for i := range errs {
		if i >= k || (i < len(st) && st[i].Err != nil) {
			if i < k && i < len(st) {
				failures = append(failures, st[i].Err.Error())
			}
			errs[i] = math.NaN()
			continue
		}
		errs[i] = scaledMSE(out.RawRowView(i), p.clean.RawRowView(i), p.hi-p.lo)
		if math.IsNaN(errs[i]) {
			failures = append(failures, methods.ErrNotFinite.Error())
		}
	}
	return errs, failures, nil
}

// scaledMSE is the mean over pixels of ((z − x)/scale)²; a non-finite
// estimate is NaN (a failed image).
func scaledMSE(z, x []float64, scale float64) float64 {
	var s float64
	for k := range z {
		t := (z[k] - x[k]) / scale
		s += t * t
	}
	v := s / float64(len(z))
	if math.IsInf(v, 0) {
		return math.NaN()
	}
	return v
}
