// Package missing is the missing-data experiment of Nguyen & De la Torre
// (2008) Table 1, after Sanguinetti & Lawrence (2006): draw a random subset
// of points, delete each attribute value with probability p(del), impute
// the deleted values with each method from the incomplete subset alone, and
// measure the squared error of the imputed values.
//
// # Protocol
//
// For each p(del) in experiment.p_del and each repetition r < repetitions,
// a stream named by (p, r) draws experiment.points rows of the dataset
// without replacement and deletes each of their entries independently with
// probability p; the same draws are shared by every method (paired
// comparisons). Each method is a transductive imputer (methods.ImputeMean,
// ImputeNN, PPCA, RKPCAImpute; the config check rejects an estimator that
// does not declare methods.Imputes): it gets the incomplete subset and its mask
// and returns the subset with the missing entries filled, with its own
// stream per (p, r) derived from the cell. The error of a repetition is
// Σ (imputed − true)² over the deleted entries (our reading of "the squared
// difference between the reconstructed data and the original groundtruth
// data", ambiguity a7); a cell records its mean and standard deviation over
// the repetitions for every p(del), as err_mean_p05, err_std_p05, …
// (the suffix is 100·p), and the error of every repetition in order, as
// the per-item array err_p05 (NaN where the imputer failed on it).
//
// # Intervals over repetitions
//
// Repetition r of p(del) uses the same subset and deletion mask for every
// method, so the arrays are paired across methods, repetition by
// repetition, and err_mean_p05 is the mean of err_p05's finite entries
// (items.go): a claim comparing methods on it ("RKPCA has the lowest
// error at p(del) = 0.05", a best check) gets the paired BCa bootstrap
// interval over the repetitions of the difference of the two means, and
// its verdict is that interval's. The paper's ± is the spread over its 50
// repetitions: the items of the interval are exactly those.
//
// Rows the paper reports from elsewhere (PKPCA of Sanguinetti & Lawrence)
// can be printed beside ours with experiment.paper_rows; they are the
// paper's numbers, never ours.
package missing

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	k := runner.Define("missing",
		"impute randomly deleted attribute values of random subsets; squared error over repetitions (Nguyen & De la Torre Table 1)",
		check, start)
	k.Items = items
	k.Parts = parts
	k.Takes = methods.Imputes
	k.Metrics = runner.MetricsOf(metricNames)
	runner.RegisterKind(k)
	runner.RegisterNoCorruption("missing", "it deletes attribute values at random (experiment options) and imputes them")
}

type paperRow struct {
	label, source string
	mean, std     []float64 // NaN where the paper prints NA
}

type options struct {
	pdel        []float64
	repetitions int
	points      int
	paper       []paperRow
}

func parse(c *config.Config) (options, error) {
	s := c.Experiment
	r := s.Reader("experiment")
	o := options{
		pdel:        r.Floats("p_del", nil, -1),
		repetitions: r.Int("repetitions", 50, 1),
		points:      r.Int("points", 100, 2),
	}
	for _, p := range o.pdel {
		if !(p > 0 && p < 1) || math.Abs(100*p-math.Round(100*p)) > 1e-9 {
			r.Fail("p_del", "want probabilities in (0, 1) in whole percent, got %v", o.pdel)
		}
	}
	r.Touch("paper_rows")
	if err := r.Err(); err != nil {
		return o, err
	}
	if len(o.pdel) == 0 {
		return o, s.Errorf("p_del", "experiment: the missing kind needs p_del (a list of deletion probabilities)")
	}
	if v, ok := s.Values["paper_rows"]; ok {
		list, ok := v.([]any)
		if !ok {
			return o, s.Errorf("paper_rows", "experiment.paper_rows: want a list of {label, source, mean: [...], std: [...]}")
		}
		for i, e := range list {
			pr, err := parsePaperRow(s, i, e, len(o.pdel))
			if err != nil {
				return o, err
			}
			o.paper = append(o.paper, pr)
		}
	}
	return o, nil
}

// parsePaperRow reads experiment.paper_rows[i]: a label, a source and n
// means and standard deviations, NA where the paper prints none.
func parsePaperRow(s config.Section, i int, e any, n int) (paperRow, error) {
	m, ok := e.(map[string]any)
	label, ok1 := m["label"].(string)
	src, ok2 := m["source"].(string)
	if !ok || !ok1 || !ok2 {
		return paperRow{}, s.Errorf("paper_rows", "experiment.paper_rows[%d]: want label, source, mean and std", i)
	}
	pr := paperRow{label: label, source: src}
	for _, k := range []string{"mean", "std"} {
		l, ok := m[k].([]any)
		if !ok || len(l) != n {
			return pr, s.Errorf("paper_rows", "experiment.paper_rows[%d].%s: want %d numbers (NA allowed)", i, k, n)
		}
		vals := make([]float64, len(l))
		for j, x := range l {
			vals[j] = math.NaN()
			if x != "NA" {
				vals[j] = common.Num(x)
				if math.IsNaN(vals[j]) {
					return pr, s.Errorf("paper_rows", "experiment.paper_rows[%d].%s: want numbers or NA, got %v", i, k, x)
				}
			}
		}
		if k == "mean" {
			pr.mean = vals
		} else {
			pr.std = vals
		}
	}
	return pr, nil
}

func check(c *config.Config) (options, error) {
	o, err := parse(c)
	if err != nil {
		return o, err
	}
	if len(c.Methods) == 0 {
		return o, c.Errorf(0, "methods: the missing kind needs imputers (impute-mean, impute-nn, ppca, rkpca-impute)")
	}
	// Every method gets the incomplete subset and its mask: only an
	// estimator that declares it reads the mask can take part (any other
	// would see NaN where the deleted values were).
	for i, m := range c.Methods {
		spec, ok := methods.Lookup(m.Name)
		if ok && !spec.Can(methods.Imputes) {
			return o, c.Errorf(m.Line, "methods[%d]: %s does not impute missing entries (it does %s); the missing kind needs imputers", i, m.Name, spec.Does)
		}
	}
	return o, nil
}

// draw is one repetition's subset and mask.
type draw struct {
	x, mask *mat.Dense
}

type instance struct {
	env   *runner.Env
	opt   options
	n     int
	draws [][]draw // [p][rep]
}

func start(env *runner.Env, o options) (runner.Instance, error) {
	d, err := env.LoadData()
	if err != nil {
		return nil, err
	}
	all := d.Train.X
	n, dim := all.Dims()
	if o.points > n {
		return nil, env.Config.Experiment.Errorf("points", "experiment.points: %d points but the dataset has %d", o.points, n)
	}
	in := &instance{env: env, opt: o, n: n}
	for _, p := range o.pdel {
		var ds []draw
		for r := 0; r < o.repetitions; r++ {
			rnd := env.Rand(fmt.Sprintf("sample/%s/%d", pname(p), r))
			idx := rnd.Perm(n)[:o.points]
			x := mat.NewDense(o.points, dim, nil)
			mask := mat.NewDense(o.points, dim, nil)
			for a, i := range idx {
				x.SetRow(a, all.RawRowView(i))
				for j := 0; j < dim; j++ {
					if rnd.Float64() >= p {
						mask.Set(a, j, 1)
					}
				}
			}
			ds = append(ds, draw{x: x, mask: mask})
		}
		in.draws = append(in.draws, ds)
	}
	return in, nil
}

// pname is the metric suffix of a deletion probability: "p05" for 0.05.
func pname(p float64) string { return fmt.Sprintf("p%02d", int(math.Round(100*p))) }

// result is one repetition's outcome. Its fields are exported for the
// part's encoding (runner.PartsOf).
type result struct {
	SSE     float64
	Failed  bool
	Reason  string // the first failed row's error when Failed
	Nonconv float64
	Err     string // the error that fails the cell, "" for none
}

// repsPerPart is how many repetitions of one p(del) a part computes: the
// slowest cells (RKPCA at C = 1e7, about 0.6 s a repetition on a 2-core
// Xeon) then take seconds a part, not minutes a cell.
const repsPerPart = 10

// parts splits a cell into its p(del)s' blocks of repetitions (one stage).
func parts(_ *config.Config, opts any, _ *runner.Cell) []int {
	o := opts.(options)
	return []int{len(o.pdel) * blocks(o.repetitions)}
}

func blocks(reps int) int { return (reps + repsPerPart - 1) / repsPerPart }

func (in *instance) Run(cell *runner.Cell, rec *report.Record) error {
	return runner.RunParts(in, cell, rec)
}

// Parts computes part k, the k-th block of repetitions in (p(del),
// repetition) order, and combines the blocks into the record.
func (in *instance) Parts() runner.Parts {
	return runner.PartsOf(func(c *runner.Cell) []int { return parts(nil, in.opt, c) }, in.block, in.combine)
}

// block imputes the repetitions of part k with the cell's estimator, one
// after another; each has its own draws and streams, so its result does
// not depend on which part or worker computes it.
func (in *instance) block(cell *runner.Cell, _, k int, _ [][]result) ([]result, error) {
	if cell.Method == nil {
		return nil, errors.New("no imputer")
	}
	nb := blocks(in.opt.repetitions)
	pi, first := k/nb, (k%nb)*repsPerPart
	var out []result
	for r := first; r < min(first+repsPerPart, len(in.draws[pi])); r++ {
		out = append(out, in.impute(cell, pi, r))
	}
	return out, nil
}

// combine writes the record from every repetition's result, p(del) by
// p(del) in repetition order; the first repetition with an error fails
// the cell, keeping the values of the p(del)s before it.
func (in *instance) combine(_ *runner.Cell, parts [][]result, rec *report.Record) error {
	res := make([][]result, len(in.opt.pdel))
	nb := blocks(in.opt.repetitions)
	for k, p := range parts {
		res[k/nb] = append(res[k/nb], p...)
	}
	var failedReps int
	var nonconv float64
	rec.Arrays = map[string][]float64{}
	for pi, p := range in.opt.pdel {
		var errs []float64
		perRep := make([]float64, len(res[pi]))
		for r, o := range res[pi] {
			if o.Err != "" {
				return errors.New(o.Err)
			}
			nonconv += o.Nonconv
			if o.Failed {
				failedReps++
				rec.AddFailure(o.Reason)
				perRep[r] = math.NaN()
				continue
			}
			errs = append(errs, o.SSE)
			perRep[r] = o.SSE
		}
		s := metrics.Summarize(errs)
		rec.Set(errMean(p), s.Mean)
		rec.Set(errStd(p), s.Std)
		rec.Arrays["err_"+pname(p)] = perRep
	}
	rec.Set(NonconvergedFits, nonconv)
	rec.Set(FailedRepetitions, float64(failedReps))
	if failedReps > 0 {
		rec.Status = report.StatusPartial
	}
	return nil
}

// impute runs a fresh estimator of the cell on repetition r of p(del)
// index pi, with its own stream, and scores the imputed entries.
func (in *instance) impute(cell *runner.Cell, pi, r int) result {
	p, dr := in.opt.pdel[pi], in.draws[pi][r]
	spec := cell.Method.Spec
	den, err := spec.NewDenoiser(cell.Method.Params)
	if err != nil {
		return result{Err: err.Error()}
	}
	input := &methods.DenoiseInput{X0: maskedCopy(dr), Rand: runner.NewRand(cell.Seed, fmt.Sprintf("impute/%s/%d", pname(p), r))}
	if spec.Can(methods.Imputes) {
		// Only an estimator that declares it reads the mask is handed one
		// (methods.DenoiseInput.Mask); check rejects the others.
		input.Mask = dr.mask
	}
	var z mat.Dense
	st, err := den.Denoise(&z, input)
	if err != nil {
		return result{Err: fmt.Errorf("p(del) %g, repetition %d: %w", p, r, err).Error()}
	}
	var out result
	for _, s := range st {
		if s.Err != nil && !out.Failed {
			out.Failed, out.Reason = true, s.Err.Error()
		}
		out.Nonconv += s.Diag["nonconverged_fits"]
	}
	out.SSE = metrics.MaskedSSE(&z, dr.x, dr.mask)
	return out
}

// maskedCopy returns the subset with its deleted entries set to NaN, so an
// imputer that read them would produce NaN rather than the truth.
func maskedCopy(dr draw) *mat.Dense {
	x := mat.DenseCopyOf(dr.x)
	x.Apply(func(i, j int, v float64) float64 {
		if dr.mask.At(i, j) == 0 {
			return math.NaN()
		}
		return v
	}, x)
	return x
}

func (in *instance) Report(out *runner.Output, recs []report.Record) error {
	t := &report.Table{
		Title: fmt.Sprintf("Long form: squared error of the imputed values, mean ± std over %d repetitions of %d random points", in.opt.repetitions, in.opt.points),
		Caption: fmt.Sprintf("Σ(imputed − true)² over the deleted entries of each repetition (a7). Dataset: %s (%d points). Rows marked (paper) are the paper's numbers, not ours.",
			in.env.Config.Dataset.Name, in.n),
		Header: []string{"method"},
	}
	for _, p := range in.opt.pdel {
		t.Header = append(t.Header, report.FormatFloat(p, 2))
	}
	for i := range recs {
		r := &recs[i]
		row := []string{r.Method()}
		for _, p := range in.opt.pdel {
			if r.Status == report.StatusFailed {
				row = append(row, "failed")
				continue
			}
			row = append(row, pm(r.Get(errMean(p)), r.Get(errStd(p))))
		}
		t.Rows = append(t.Rows, row)
	}
	var srcs []string
	for _, pr := range in.opt.paper {
		row := []string{pr.label + " (paper)"}
		for k := range in.opt.pdel {
			row = append(row, pm(pr.mean[k], pr.std[k]))
		}
		t.Rows = append(t.Rows, row)
		srcs = append(srcs, pr.label+": "+pr.source)
	}
	if len(srcs) > 0 {
		sort.Strings(srcs)
		for _, s := range srcs {
			t.Caption += " " + s + "."
		}
	}
	out.Tables = append(out.Tables, t)
	return nil
}

func pm(mean, std float64) string {
	if math.IsNaN(mean) {
		return "NA"
	}
	return report.FormatFloat(mean, 3) + " ± " + report.FormatFloat(std, 2)
}
