package matrix

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/metrics"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/stats"
)

// score is one method's result on one benchmark.
type score struct {
	errs   []float64 // per test image, NaN where it failed
	est    stats.Estimate
	ciErr  error  // why there is no interval
	status string // "" when scored, else "refused" or "failed"
	failed int    // images that failed
	skip   int    // images left out by experiment.method_test
}

// grid is every method's score on every benchmark, in record order.
type grid struct {
	labels []string
	s      [][]score // [method][benchmark]
}

func (in *instance) scores(recs []report.Record) *grid {
	g := &grid{}
	for i := range recs {
		r := &recs[i]
		g.labels = append(g.labels, r.Method())
		row := make([]score, len(in.benches))
		for b, p := range in.benches {
			sc := &row[b]
			errs, ok := r.Arrays["err_"+p.name]
			switch {
			case ok:
			case r.Get(p.refused()) == 1:
				sc.status = "refused"
				continue
			default:
				sc.status = "failed"
				continue
			}
			sc.errs = errs
			sc.failed = int(r.Get(p.failed()))
			sc.skip = int(r.Get(p.skipped()))
			sc.est, sc.ciErr = stats.Mean(column(errs), in.opt.level, in.opt.resamples, runner.NewRand(r.Seed, "matrix-ci:"+p.name))
			if sc.ciErr != nil {
				sc.est.Mean = r.Get(p.mse())
			}
		}
		g.s = append(g.s, row)
	}
	return g
}

// column turns per-image errors into the items × 1 table of package stats.
func column(e []float64) [][]float64 {
	out := make([][]float64, len(e))
	for i, v := range e {
		out[i] = []float64{v}
	}
	return out
}

// ranks returns the rank (1 = lowest) of each finite value of v, ties
// sharing the mean of their positions (metrics.Ranks); NaN values are
// unranked (NaN).
func ranks(v []float64) []float64 {
	var idx []int
	var finite []float64
	for i, x := range v {
		if !math.IsNaN(x) {
			idx = append(idx, i)
			finite = append(finite, x)
		}
	}
	out := make([]float64, len(v))
	for i := range out {
		out[i] = math.NaN()
	}
	for k, r := range metrics.Ranks(finite) {
		out[idx[k]] = r
	}
	return out
}

// rankTable returns ranks[method][benchmark] and each method's mean rank
// and the number of benchmarks it was ranked on. On each benchmark the
// methods are ranked by their mean error over the test images every
// ranked method has (commonMeans): a method run on fewer images
// (experiment.method_test) or with failed images is compared with the
// others on the same images.
func (g *grid) rankTable() (rk [][]float64, mean []float64, n []int) {
	nb := 0
	if len(g.s) > 0 {
		nb = len(g.s[0])
	}
	rk = make([][]float64, len(g.s))
	for m := range rk {
		rk[m] = make([]float64, nb)
	}
	for b := 0; b < nb; b++ {
		v, _, _ := g.commonMeans(b)
		for m, r := range ranks(v) {
			rk[m][b] = r
		}
	}
	mean = make([]float64, len(g.s))
	n = make([]int, len(g.s))
	for m := range rk {
		var s float64
		for _, r := range rk[m] {
			if !math.IsNaN(r) {
				s += r
				n[m]++
			}
		}
		mean[m] = math.NaN()
		if n[m] > 0 {
			mean[m] = s / float64(n[m])
		}
	}
	return rk, mean, n
}

// commonMeans returns, on benchmark b, each scored method's mean error over
// the test images on which every scored method has a finite error (NaN for
// a method not scored there), how many images those are, and whether some
// scored method has a finite error on other images too (the ranks then
// rest on fewer images than its mean in the matrix). With no image common
// to all, the methods' own means are returned.
func (g *grid) commonMeans(b int) (v []float64, common int, differ bool) {
	v = make([]float64, len(g.s))
	var scored []int
	for m := range g.s {
		v[m] = math.NaN()
		if g.s[m][b].status == "" {
			scored = append(scored, m)
		}
	}
	if len(scored) == 0 {
		return v, 0, false
	}
	items := len(g.s[scored[0]][b].errs)
	var keep []int
	for i := 0; i < items; i++ {
		all := true
		for _, m := range scored {
			e := g.s[m][b].errs
			if i >= len(e) || math.IsNaN(e[i]) || math.IsInf(e[i], 0) {
				all = false
				break
			}
		}
		if all {
			keep = append(keep, i)
		}
	}
	for _, m := range scored {
		finite := 0
		for _, e := range g.s[m][b].errs {
			if !math.IsNaN(e) && !math.IsInf(e, 0) {
				finite++
			}
		}
		if finite != len(keep) {
			differ = true
		}
	}
	for _, m := range scored {
		if len(keep) == 0 {
			v[m] = g.s[m][b].est.Mean
			continue
		}
		var sum float64
		for _, i := range keep {
			sum += g.s[m][b].errs[i]
		}
		v[m] = sum / float64(len(keep))
	}
	return v, len(keep), differ
}

// byMeanRank returns the methods' indexes sorted by mean rank, best first;
// methods ranked nowhere last, ties in record order.
func byMeanRank(mean []float64) []int {
	order := make([]int, len(mean))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ma, mb := mean[a], mean[b]
		switch {
		case math.IsNaN(ma) && math.IsNaN(mb):
			return 0
		case math.IsNaN(ma):
			return 1
		case math.IsNaN(mb):
			return -1
		}
		return cmp.Compare(ma, mb)
	})
	return order
}

// noisyInput returns the index of the record of the estimator that returns
// its input unchanged (methods' identity, the "Base Line"), or -1.
func (in *instance) noisyInput(g *grid) int {
	s, ok := methods.Lookup("identity")
	if !ok {
		return -1
	}
	label := s.Title
	for _, m := range in.env.Config.Methods {
		if m.Name == "identity" && m.Label != "" {
			label = m.Label
		}
	}
	return slices.Index(g.labels, label)
}

func (in *instance) Report(out *runner.Output, recs []report.Record) error {
	g := in.scores(recs)
	scores, intervals := in.scoreTables(g)
	out.Tables = append(out.Tables, scores, intervals, in.perBenchTable(g), in.winsTable(g), in.benchTable())
	return nil
}

// scoreTables returns the matrix of means with their ranks and, one step
// away, the matrix of their intervals: a cell holding both would not fit
// a terminal beside five others.
func (in *instance) scoreTables(g *grid) (scores, intervals *report.Table) {
	t := &report.Table{
		Title: "Cross-paper matrix: MSE per pixel on a [0, 1] scale, mean over test images (rank), best mean rank first",
		Caption: "Each benchmark's pixel range is mapped onto [0, 1] before squaring, so rows are comparable; lower is better. " +
			"Each mean and its rank are over the same test images, those every ranked method de-noised, so rank 1 (marked ★) is the lowest mean shown in its column (ties share the mean rank); where a method's own mean over all its images differs, a note gives it. A method that refused or failed a benchmark is not ranked there, and its mean rank is over the benchmarks it was ranked on (the count beside it). Rows are sorted by mean rank. " +
			"Test and training images are subsampled (see the benchmark table). The intervals of the means are in the next table.",
		Header: []string{"method"},
	}
	iv := &report.Table{
		Title: fmt.Sprintf("Cross-paper matrix: %g%% BCa bootstrap intervals of the means above", 100*in.opt.level),
		Caption: fmt.Sprintf("Each interval bounds the mean per-pixel MSE of the method on the benchmark's population of test images "+
			"(the training subsample, kernel and subspace fixed): a BCa bootstrap over the test images (%d resamples, seeded).", stats.DefaultResamples),
		Header: []string{"method"},
	}
	for _, p := range in.benches {
		t.Header = append(t.Header, p.name)
		iv.Header = append(iv.Header, p.name)
	}
	t.Header = append(t.Header, "mean rank")
	rk, mean, n := g.rankTable()
	common := make([][]float64, len(in.benches))
	for b := range in.benches {
		common[b], _, _ = g.commonMeans(b)
	}
	noisy := in.noisyInput(g)
	for _, m := range byMeanRank(mean) {
		label := g.labels[m]
		row, irow := []string{label}, []string{label}
		for b := range in.benches {
			sc := g.s[m][b]
			if sc.status != "" {
				row, irow = append(row, sc.status), append(irow, sc.status)
				continue
			}
			best := ""
			if rk[m][b] == 1 {
				best = " ★"
			}
			shown := common[b][m]
			cell := report.FormatFloat(shown, 4) + fmt.Sprintf(" (%s%s)", report.FormatFloat(rk[m][b], 3), best)
			if own := sc.est.Mean; report.FormatFloat(own, 4) != report.FormatFloat(shown, 4) {
				cell += " " + t.Note(fmt.Sprintf("Over the images every ranked method de-noised; %s's own mean over all its images is %s (its interval in the next table).", g.labels[m], report.FormatFloat(own, 4)))
			}
			if m == noisy && rk[m][b] == 1 {
				cell += " " + t.Note("The noisy input itself ranks first here: no estimator improves on it.")
			}
			icell := report.Dash
			if sc.ciErr == nil {
				icell = "[" + report.FormatFloat(sc.est.CI.Lo, 4) + ", " + report.FormatFloat(sc.est.CI.Hi, 4) + "]"
			} else {
				icell += " " + iv.Note(fmt.Sprintf("No interval: %v.", sc.ciErr))
			}
			if sc.failed > 0 {
				cell += " " + t.Note(fmt.Sprintf("%d failed test images, left out of the mean.", sc.failed))
			}
			if sc.skip > 0 {
				k := len(sc.errs) - sc.skip
				note := fmt.Sprintf("A slow estimator run on the first %d images of the test set only (experiment.method_test); "+
					"its paired comparisons use those images.", k)
				cell += " " + t.Note(note)
				icell += " " + iv.Note(note)
			}
			row, irow = append(row, cell), append(irow, icell)
		}
		mr := "—"
		if n[m] > 0 {
			mr = fmt.Sprintf("%s (%d/%d)", report.FormatFloat(mean[m], 3), n[m], len(in.benches))
		}
		t.Rows = append(t.Rows, append(row, mr))
		iv.Rows = append(iv.Rows, irow)
	}
	return t, iv
}

// perBenchTable says for each benchmark which method is best, on how many
// test images the ranks rest, and how many estimators do worse than the
// noisy input itself (the identity estimator, when the config runs it).
func (in *instance) perBenchTable(g *grid) *report.Table {
	t := &report.Table{
		Title: "Per benchmark: the best method, the images ranked on, and the estimators worse than the noisy input",
		Caption: "Images ranked on: the test images on which every ranked method has an error (a method run on fewer, experiment.method_test, or with failed images narrows them; its mean in the matrix is over its own). " +
			"Worse than the noisy input: the estimators (the noisy input itself not counted) whose mean over those images is above that of the noisy input, which no estimator should exceed.",
		Header: []string{"benchmark", "best", "images ranked on", "noisy input's rank", "estimators worse than the noisy input"},
	}
	noisy := in.noisyInput(g)
	rk, _, _ := g.rankTable()
	for b, p := range in.benches {
		v, common, differ := g.commonMeans(b)
		var best []string
		ranked := 0
		for m := range g.labels {
			if rk[m][b] == 1 {
				best = append(best, g.labels[m])
			}
			if !math.IsNaN(rk[m][b]) {
				ranked++
			}
		}
		on := fmt.Sprint(common)
		if differ {
			var own []string
			for m := range g.labels {
				if sc := g.s[m][b]; sc.status == "" && sc.skip > 0 {
					own = append(own, fmt.Sprintf("%s ran on %d", g.labels[m], len(sc.errs)-sc.skip))
				}
			}
			on += " (fewer than some methods' own"
			if len(own) > 0 {
				on += ": " + strings.Join(own, ", ")
			}
			on += ")"
		}
		nr, worse := report.Dash, report.Dash
		if noisy >= 0 && !math.IsNaN(v[noisy]) {
			nr = fmt.Sprintf("%s of %d", report.FormatFloat(rk[noisy][b], 3), ranked)
			k, of := 0, 0
			for m := range g.labels {
				if m == noisy || math.IsNaN(v[m]) {
					continue
				}
				of++
				if v[m] > v[noisy] {
					k++
				}
			}
			worse = fmt.Sprintf("%d of %d", k, of)
		}
		bs := strings.Join(best, ", ")
		if bs == "" {
			bs, on = report.Dash, report.Dash
		}
		t.Rows = append(t.Rows, []string{p.name, bs, on, nr, worse})
	}
	return t
}

// winsTable counts, for every ordered pair of methods, the benchmarks on
// which the row method wins and loses against the column method.
func (in *instance) winsTable(g *grid) *report.Table {
	t := &report.Table{
		Title: "Paired wins–losses over benchmarks (row against column)",
		Caption: fmt.Sprintf("On each benchmark, the %g%% BCa interval of the mean paired difference of per-image errors (row − column, images both de-noised): "+
			"a win when it lies below 0, a loss when it lies above 0, neither when it covers 0. The last column sums the row.", 100*in.opt.level),
		Header: append([]string{"method"}, g.labels...),
	}
	t.Header = append(t.Header, "total")
	w := in.wins(g)
	for a := range g.labels {
		row := []string{g.labels[a]}
		tw, tl := 0, 0
		for b := range g.labels {
			if a == b {
				row = append(row, "—")
				continue
			}
			row = append(row, fmt.Sprintf("%d–%d", w[a][b], w[b][a]))
			tw += w[a][b]
			tl += w[b][a]
		}
		t.Rows = append(t.Rows, append(row, fmt.Sprintf("%d–%d", tw, tl)))
	}
	return t
}

// wins returns w[a][b], the number of benchmarks on which a beats b.
func (in *instance) wins(g *grid) [][]int {
	w := make([][]int, len(g.labels))
	for a := range w {
		w[a] = make([]int, len(g.labels))
	}
	for a := range g.labels {
		for b := a + 1; b < len(g.labels); b++ {
			for k, p := range in.benches {
				sa, sb := g.s[a][k], g.s[b][k]
				if sa.status != "" || sb.status != "" {
					continue
				}
				rnd := runner.NewRand(in.env.Config.Seed, "matrix-pair:"+g.labels[a]+"|"+g.labels[b]+"|"+p.name)
				d, err := stats.PairedDiff(column(sa.errs), column(sb.errs), in.opt.level, in.opt.resamples, rnd)
				if err != nil {
					continue
				}
				switch {
				case stats.Decide(d.CI, stats.Below, 0) == stats.Pass:
					w[a][b]++
				case stats.Decide(d.CI, stats.Above, 0) == stats.Pass:
					w[b][a]++
				}
			}
		}
	}
	return w
}

func (in *instance) benchTable() *report.Table {
	t := &report.Table{
		Title:   "Benchmarks",
		Caption: "Kernel PCA is fitted on the clean training images; only the test images are corrupted (one seeded draw per image). Train and test counts are after subsampling.",
		Header:  []string{"benchmark", "dataset", "train", "test", "corruption", "range", "kernel", "subspace"},
	}
	for _, p := range in.benches {
		nt, _ := p.clean.Dims()
		sub := fmt.Sprintf("%d components", p.mp.Components)
		if p.mp.Energy > 0 {
			sub = fmt.Sprintf("%g energy", p.mp.Energy)
		}
		if _, q, err := p.model(in.env); err == nil {
			sub += fmt.Sprintf(" (q = %d)", q)
		}
		t.Rows = append(t.Rows, []string{p.name, p.dataset, fmt.Sprint(p.trainN), fmt.Sprint(nt), p.printed,
			fmt.Sprintf("[%g, %g]", p.lo, p.hi), p.kern.String(), sub})
	}
	return t
}
