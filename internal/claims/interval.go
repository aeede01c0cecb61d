package claims

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/stats"
)

// Inconclusive is the interval verdict of a comparison whose confidence
// interval covers the claimed boundary.
const Inconclusive = "INCONCLUSIVE"

// ItemStat says how a metric is computed from a record's per-item array:
// Array names rec.Arrays' entry (one score per test item, repeats
// concatenated: item i of repeat r at r·items + i, NaN where the item
// failed), and Stat computes the metric from the finite scores of a sample
// of items. Stat(rec, all of rec.Arrays[Array]'s finite values) must equal
// rec.Metrics[metric]; an interval is used only when it does.
//
// Arrays and Joint, when set instead of Array and Stat, declare a
// statistic of several per-item arrays read together, item i of each on
// the same item: a ratio of sums (lgdenoise's pooled SNR, Σ numerators /
// Σ denominators) is no statistic of one array. Joint receives, for a
// sample of items, one column per array holding the items whose every
// array is finite, in the same order; it must reproduce the metric on
// all items like Stat, and the bootstrap recomputes it on each resample
// of items, so the interval is of the ratio, not of a mean of ratios.
//
// Paired, when set instead of Array and Stat, declares a statistic of
// several arrays of one record paired by item (classify: the accuracies
// of KPCA and of each LPKPCA point on the same splits); a value check on
// it gets a t-interval over the items (see Paired).
//
// Unit names the items in the interval's ci_method ("" for "test items").
//
// MeanT, with Array, declares the metric the mean of Array over few items
// (5–20 splits), where a bootstrap under-covers (Paired): a claim
// comparing two such cells (one each side: a compare or best check, a
// trend's endpoints or steps) or one against a value gets Student's
// t-interval of the per-item differences, and any other statistic of
// them (a summary over cells, a rank correlation) no interval.
type ItemStat struct {
	Array  string
	Stat   func(rec *report.Record, x []float64) float64
	Arrays []string
	Joint  func(rec *report.Record, cols [][]float64) float64
	Paired *Paired
	Unit   string
	MeanT  bool
}

// StatOf adapts f, a statistic of the items alone (metrics.Mean,
// metrics.Std), to ItemStat.Stat, which also hands it the record.
func StatOf(f func(x []float64) float64) func(*report.Record, []float64) float64 {
	return func(_ *report.Record, x []float64) float64 { return f(x) }
}

// PercentileOf is the ItemStat.Stat of the p-quantile of the items
// (metrics.Percentile).
func PercentileOf(p float64) func(*report.Record, []float64) float64 {
	return func(_ *report.Record, x []float64) float64 { return metrics.Percentile(x, p) }
}

// PrefixStat declares a family of metrics by name: each metric
// Prefix+s is Stat of the items of the array Array+s.
type PrefixStat struct {
	Prefix, Array string
	Stat          func(x []float64) float64
}

// ItemsByPrefix returns the ItemStat, over items named unit, of the first
// entry of table whose Prefix metric has and whose suffix (what follows
// it) suffixOK accepts; ok is false when there is none.
func ItemsByPrefix(table []PrefixStat, metric string, suffixOK func(string) bool, unit string) (st ItemStat, ok bool) {
	for _, e := range table {
		if s, found := strings.CutPrefix(metric, e.Prefix); found && suffixOK(s) {
			return ItemStat{Array: e.Array + s, Stat: StatOf(e.Stat), Unit: unit}, true
		}
	}
	return ItemStat{}, false
}

// columns returns the arrays a non-Paired ItemStat reads and its
// statistic of their columns.
func (st ItemStat) columns() ([]string, func(*report.Record, [][]float64) float64) {
	if st.Joint != nil {
		return st.Arrays, st.Joint
	}
	if st.Stat == nil {
		return nil, nil
	}
	f := st.Stat
	return []string{st.Array}, func(r *report.Record, c [][]float64) float64 { return f(r, c[0]) }
}

// Options are what interval verdicts need beyond the claim and the
// records.
type Options struct {
	// Items reports, for a record and a metric, how the metric is
	// computed from the record's per-item scores; nil or false means the
	// metric has no per-item evidence and the claim keeps its point
	// verdict.
	Items func(rec *report.Record, metric string) (ItemStat, bool)
	// PointReason says, for a metric with no per-item evidence, why none
	// exists (the kind's words: "one clustering of every image: nothing
	// to resample"); "" leaves the generic reason. It is the point
	// verdict's stated reason (Result.Basis).
	PointReason func(metric string) string
	// Repeats is the number of corruption draws concatenated in the
	// arrays (1 when the config has no repeats).
	Repeats int
	// Rand returns the bootstrap's stream for a key (the claim id and
	// group), seeded from the config's root seed.
	Rand func(key string) *rand.Rand
	// Counts makes Status the interval verdict (PASS, FAIL or
	// INCONCLUSIVE) where an interval was computed; otherwise Status
	// stays the point verdict and the interval verdict is only reported
	// in Verdict.
	Counts bool
	// Tolerance, when set, gives for a metric the absolute difference
	// within which two of its values are equal to rounding (the kind's
	// resolution of the metric's unit, with the words that say so), for
	// the "cannot discriminate" test; 0 or a tolerance below the default
	// 1e-9·max(1, |l|, |r|) leaves the default.
	Tolerance func(metric string) (float64, string)
	// Setup fills the setup references of a because: text
	// ({dataset.subsets}, {corruption}, …; see Expand); nil leaves them
	// unresolved.
	Setup Setup
}

// noItems is the reason a metric has no per-item evidence.
func (o Options) noItems(metric string) string {
	if o.PointReason != nil {
		if why := o.PointReason(metric); why != "" {
			return why
		}
	}
	return fmt.Sprintf("%s has no per-item scores", metric)
}

// Level and resamples of the claims' intervals.
const (
	ciLevel     = 0.95
	ciResamples = stats.DefaultResamples
)

// pairEvidence is the interval of one comparison.
type pairEvidence struct {
	group   string
	est     stats.Estimate
	verdict stats.Verdict
	// bound is the boundary the interval is judged against: 0 for a
	// difference, the value of a value check, min_rho of a Spearman
	// trend.
	bound float64
	// method is the interval's ci_method; "" for the paired bootstrap.
	method string
}

// itemCell is one record's per-item evidence for a metric: the arrays the
// metric is computed from and its statistic of their columns.
type itemCell struct {
	rec   *report.Record
	names []string
	stat  func(*report.Record, [][]float64) float64
	x     [][]float64 // one array per name
	buf   [][]float64
}

// itemFrame is what the cells of one interval share: n items, each with
// reps scores, and optionally the item × repeat rows kept (a given:
// filter; nil keeps every row).
type itemFrame struct {
	reps, n int
	keep    []bool
	unit    string
}

// cell returns rec's evidence for metric, or why there is none; the first
// cell fixes the frame's item count and every other must pair with it.
func (f *itemFrame) cell(o Options, metric string, r *report.Record) (itemCell, string) {
	st, ok := o.Items(r, metric)
	if !ok {
		return itemCell{}, o.noItems(metric)
	}
	if st.Paired != nil {
		// Its items pair arrays within one record; pairing two records'
		// paired statistics is another interval, not built: the point
		// verdict stands.
		return itemCell{}, fmt.Sprintf("%s is a paired statistic within one record; only a value check on it gets an interval", metric)
	}
	names, stat := st.columns()
	if len(names) == 0 || stat == nil {
		return itemCell{}, fmt.Sprintf("%s declares no per-item arrays", metric)
	}
	if st.MeanT {
		return itemCell{}, fmt.Sprintf("%s is a mean over few %s, where a bootstrap under-covers; only a difference of two cells' means, or one mean against a value, gets an interval (Student's t)", metric, unitOr(st.Unit))
	}
	c := itemCell{rec: r, names: names, stat: stat, buf: make([][]float64, len(names))}
	if f.unit == "" {
		f.unit = st.Unit
	}
	for _, name := range names {
		x := r.Arrays[name]
		if len(x) == 0 {
			return itemCell{}, fmt.Sprintf("cell %s has no per-item %s scores", r.Key, name)
		}
		if len(x)%f.reps != 0 || (f.n >= 0 && len(x) != f.n*f.reps) {
			return itemCell{}, fmt.Sprintf("cell %s: %d per-item %s scores are not paired with the other cells' %d items × %d repeats", r.Key, len(x), name, f.n, f.reps)
		}
		f.n = len(x) / f.reps
		c.x = append(c.x, x)
	}
	return c, ""
}

// pick gathers the sampled items' scores, every repeat, keeping a row
// only where the frame keeps it and each of the cell's arrays is finite.
func (f *itemFrame) pick(c *itemCell, idx []int) [][]float64 {
	for j := range c.buf {
		c.buf[j] = c.buf[j][:0]
	}
	for _, i := range idx {
	reps:
		for rep := range f.reps {
			k := rep*f.n + i
			if f.keep != nil && !f.keep[k] {
				continue
			}
			for _, x := range c.x {
				if !finite(x[k]) {
					continue reps
				}
			}
			for j, x := range c.x {
				c.buf[j] = append(c.buf[j], x[k])
			}
		}
	}
	return c.buf
}

// stat is the cell's statistic on the sampled items; NaN when none of
// them has a finite score.
func (f *itemFrame) stat(c *itemCell, idx []int) float64 {
	x := f.pick(c, idx)
	if len(x[0]) == 0 {
		return math.NaN()
	}
	return c.stat(c.rec, x)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// bootCells bootstraps a statistic of several groups of cells over the
// test items they all share: on each resample of items (with all their
// repeats, resampled once for every cell, so the cells are paired) it
// computes each cell's statistic of the metric and hands them, group by
// group, to f. Without a frame filter every cell's statistic on all items
// must reproduce its recorded metric, or the arrays are not the metric's
// evidence and no interval is built. It returns why not when there is
// none; unit names the items.
func bootCells(o Options, key, metric string, groups [][]*report.Record, keep func(n, reps int) ([]bool, string), f func(v [][]float64) float64) (est stats.Estimate, unit, why string) {
	est, fr, why := bootFrame(o, key, metric, groups, keep, f)
	return est, fr.unit, why
}

func bootFrame(o Options, key, metric string, groups [][]*report.Record, keep func(n, reps int) ([]bool, string), f func(v [][]float64) float64) (stats.Estimate, *itemFrame, string) {
	if o.Items == nil || o.Rand == nil {
		return stats.Estimate{}, &itemFrame{}, o.noItems(metric)
	}
	fr := &itemFrame{reps: max(o.Repeats, 1), n: -1}
	cs := make([][]itemCell, len(groups))
	for g, rs := range groups {
		for _, r := range rs {
			c, why := fr.cell(o, metric, r)
			if why != "" {
				return stats.Estimate{}, fr, why
			}
			cs[g] = append(cs[g], c)
		}
	}
	if fr.n < 0 {
		return stats.Estimate{}, fr, "no cell to compare"
	}
	if keep != nil {
		k, why := keep(fr.n, fr.reps)
		if why != "" {
			return stats.Estimate{}, fr, why
		}
		fr.keep = k
	}
	all := make([]int, fr.n)
	for i := range all {
		all[i] = i
	}
	if fr.keep == nil {
		// The statistic of every item must be the recorded metric:
		// otherwise the array is not the metric's evidence and an
		// interval would judge another quantity.
		for g := range cs {
			for i := range cs[g] {
				c := &cs[g][i]
				got := fr.stat(c, all)
				if why := reproduces(c.rec, metric, got); why != "" {
					return stats.Estimate{}, fr, why
				}
			}
		}
	}
	v := make([][]float64, len(cs))
	for g := range cs {
		v[g] = make([]float64, len(cs[g]))
	}
	stat := func(idx []int) float64 {
		for g := range cs {
			for i := range cs[g] {
				v[g][i] = fr.stat(&cs[g][i], idx)
				if math.IsNaN(v[g][i]) {
					return math.NaN()
				}
			}
		}
		return f(v)
	}
	est, err := stats.Bootstrap(fr.n, stat, ciLevel, ciResamples, o.Rand(key))
	if err != nil {
		return stats.Estimate{}, fr, err.Error()
	}
	est.Repeats = fr.reps
	return est, fr, ""
}

func unitOr(u string) string {
	if u == "" {
		return "items"
	}
	return u
}

// tDiff is Student's t-interval over the items of sign·(a − factor·b)
// item by item (b nil: of sign·a), for cells whose metric is declared a
// mean over few items (ItemStat.MeanT); ok is false when it is not, and
// the caller bootstraps. Items where either array is not finite are left
// out. The interval is of the difference of the two means, which the
// item-by-item differences average to.
func tDiff(o Options, metric string, a, b *report.Record, factor, sign float64) (est stats.Estimate, method, why string, ok bool) {
	if o.Items == nil {
		return est, "", "", false
	}
	sa, oka := o.Items(a, metric)
	if !oka || !sa.MeanT {
		return est, "", "", false
	}
	xa := a.Arrays[sa.Array]
	var xb []float64
	if b != nil {
		sb, okb := o.Items(b, metric)
		if !okb || !sb.MeanT {
			return est, "", "", false
		}
		xb = b.Arrays[sb.Array]
		if len(xb) != len(xa) {
			return est, "", fmt.Sprintf("cells %s and %s have %d and %d %s", a.Key, b.Key, len(xa), len(xb), unitOr(sa.Unit)), true
		}
	}
	var d []float64
	for i, v := range xa {
		w := 0.0
		if xb != nil {
			w = xb[i]
		}
		if finite(v) && finite(w) {
			d = append(d, sign*(v-factor*w))
		}
	}
	e, err := stats.TMean(d, ciLevel)
	if err != nil {
		return est, "", fmt.Sprintf("%s: %v", metric, err), true
	}
	want := sign * a.Metrics[metric]
	if b != nil {
		want -= sign * factor * b.Metrics[metric]
	}
	if !(math.Abs(e.Mean-want) <= 1e-9*math.Max(1, math.Abs(want))) {
		return est, "", fmt.Sprintf("the per-item %s give %s, the records %s", metric, g(e.Mean), g(want)), true
	}
	return e, fmt.Sprintf("Student t-interval over %d %s of the paired per-item difference (few items: a bootstrap under-covers)", e.Items, unitOr(sa.Unit)), "", true
}

// pairedInterval bootstraps summary(metric over lefts) − factor·summary(metric
// over rights) over the test items every record shares (bootCells). A
// summary is max, min or mean over cells ("" for a single cell, as in a
// compare check). It returns why not when a record has no per-item
// evidence for the metric or it does not reproduce the metric.
func pairedInterval(o Options, key, metric string, lefts []*report.Record, lsum string, rights []*report.Record, rsum string, factor float64) (stats.Estimate, string, string) {
	return bootCells(o, key, metric, [][]*report.Record{lefts, rights}, nil, func(v [][]float64) float64 {
		return foldSummary(lsum, v[0]) - factor*foldSummary(rsum, v[1])
	})
}

// side returns the stats side of op for a difference left − factor·right.
func side(op string) stats.Side {
	if op == ">" || op == ">=" {
		return stats.Above
	}
	return stats.Below
}

// decideOp judges the claim "statistic op bound" on the statistic's
// interval: PASS when every value of the interval satisfies it, FAIL when
// none does, INCONCLUSIVE otherwise. For the strict ops this is
// stats.Decide; for <= and >= the bound itself satisfies the claim, so an
// interval reaching the bound from the claimed side (the point interval
// [0, 0] of a base line whose error is exactly 0, "error <= 0") passes,
// and one starting on the bound fails only when it lies strictly beyond.
func decideOp(iv stats.Interval, op string, bound float64) stats.Verdict {
	switch op {
	case "<=":
		switch {
		case iv.Hi <= bound:
			return stats.Pass
		case iv.Lo > bound:
			return stats.Fail
		}
		return stats.Inconclusive
	case ">=":
		switch {
		case iv.Lo >= bound:
			return stats.Pass
		case iv.Hi < bound:
			return stats.Fail
		}
		return stats.Inconclusive
	}
	return stats.Decide(iv, side(op), bound)
}

// combine reduces per-group interval verdicts to the claim's: FAIL if any
// group fails, else INCONCLUSIVE if any is, else PASS. The deciding group
// (the first failing one, else the first inconclusive one, else the one
// whose interval lies nearest the boundary) gives the claim's interval.
func combine(ev []pairEvidence, sd stats.Side) (string, pairEvidence) {
	var fail, inc, near *pairEvidence
	for i := range ev {
		e := &ev[i]
		switch e.verdict {
		case stats.Fail:
			if fail == nil {
				fail = e
			}
		case stats.Inconclusive:
			if inc == nil {
				inc = e
			}
		default:
			d := e.est.CI.Hi - e.bound
			if sd == stats.Above {
				d = e.bound - e.est.CI.Lo
			}
			nd := math.Inf(-1)
			if near != nil {
				nd = near.est.CI.Hi - near.bound
				if sd == stats.Above {
					nd = near.bound - near.est.CI.Lo
				}
			}
			if near == nil || d > nd {
				near = e
			}
		}
	}
	switch {
	case fail != nil:
		return Fail, *fail
	case inc != nil:
		return Inconclusive, *inc
	}
	return Pass, *near
}

// ciMethod describes a paired bootstrap interval over items (named by
// unit, "" for test items) for claims.json.
func ciMethod(reps int, unit string) string {
	return "paired " + ciMethodOne(reps, unit)
}

// ciMethodOne describes a bootstrap interval of one cell's statistic.
func ciMethodOne(reps int, unit string) string {
	if unit == "" {
		unit = "test items"
	}
	if reps > 1 {
		unit = fmt.Sprintf("%s, each with its %d corruption repeats", unit, reps)
	}
	return fmt.Sprintf("BCa bootstrap (Efron 1987) over %s; %d resamples", unit, ciResamples)
}

func ciText(e pairEvidence) string {
	s := fmt.Sprintf("[%s, %s]", g(e.est.CI.Lo), g(e.est.CI.Hi))
	if e.group != "" {
		s = e.group + ": " + s
	}
	return s
}

func intervalsText(ev []pairEvidence) string {
	parts := make([]string, len(ev))
	for i, e := range ev {
		parts[i] = ciText(e) + " " + e.verdict.String()
	}
	return strings.Join(parts, "; ")
}

// decide records the deciding interval d and verdict v in res, with the
// evidence line what; an INCONCLUSIVE verdict also gets the smallest
// effect its items could detect (detectable).
func decide(res *Result, o Options, v string, d pairEvidence, method, what string) {
	lo, hi, lvl := d.est.CI.Lo, d.est.CI.Hi, d.est.CI.Level
	res.Verdict, res.Basis = v, "interval"
	res.CILo, res.CIHi, res.CILevel, res.CIMethod = &lo, &hi, &lvl, method
	if d.est.Items > 0 {
		n := d.est.Items
		res.CIItems = &n
	}
	res.Evidence += " | " + what
	if v == Inconclusive {
		detectable(res, d)
	}
	if o.Counts {
		res.Status = v
	}
}

// detectable states what an INCONCLUSIVE interval could have decided.
// The interval reaches w from the estimate towards the boundary (its
// half-width when it is symmetric; a Bonferroni fold of a min or max is
// not): a departure from the boundary larger than w, with the same
// spread, gives an interval that excludes it, so w is the smallest
// departure these items could decide. An interval over n items shrinks as
// 1/√n, so the observed departure d = estimate − boundary would need about
// n·(w/d)² items to be decided (none when d = 0). Both are approximations
// (the interval's shape changes with n, and a t-interval's quantile too),
// stated as such.
func detectable(res *Result, d pairEvidence) {
	dep := d.est.Mean - d.bound
	up, down := d.est.CI.Hi-d.est.Mean, d.est.Mean-d.est.CI.Lo
	w := max(up, down)
	switch {
	case dep < 0:
		w = up
	case dep > 0:
		w = down
	}
	res.Detectable = &w
	n := d.est.Items
	msg := fmt.Sprintf(" | INCONCLUSIVE: the smallest departure from %s these %d items could decide is about %s (the interval's reach from the estimate towards it)", g(d.bound), n, g(w))
	switch {
	case n <= 0:
	case dep == 0 || w <= 0:
		msg += "; the estimate sits on the boundary, so no number of items would decide it"
	default:
		need := math.Ceil(float64(n) * (w / dep) * (w / dep))
		if need < 1e12 {
			nn := int(need)
			res.ItemsNeeded = &nn
		}
		msg += fmt.Sprintf("; the observed departure %s would need about %s items to be decided", g(dep), g(need))
	}
	res.Evidence += msg
}

// interval fills res's point verdict and, where the compared cells have
// per-item scores, the interval verdict; res.Status is the point verdict
// on entry.
func (sp *spec) interval(id string, o Options, res *Result) {
	res.PointVerdict, res.Verdict, res.Basis = res.Status, res.Status, "point"
	if res.Status == NotEvaluated {
		return
	}
	switch sp.typ {
	case "value":
		sp.valueInterval(id, o, res)
		return
	case "best":
		sp.bestInterval(id, o, res)
		return
	case "trend":
		sp.trendInterval(id, o, res)
		return
	}
	if len(sp.pairs) == 0 {
		res.Basis = "point: a " + sp.typ + " check compares no paired cells"
		return
	}
	sd := side(sp.op)
	var ev []pairEvidence
	for _, p := range sp.pairs {
		key := "claim:" + id
		if p.group != "" {
			key += "/" + p.group
		}
		if len(p.left) == 1 && len(p.right) == 1 {
			if est, method, why, ok := tDiff(o, sp.metric, p.left[0], p.right[0], sp.factor, 1); ok {
				if why != "" {
					res.Basis = "point: " + why
					return
				}
				ev = append(ev, pairEvidence{group: p.group, est: est, verdict: decideOp(est.CI, sp.op, 0), method: method})
				continue
			}
		}
		est, unit, why := pairedInterval(o, key, sp.metric, p.left, p.lsum, p.right, p.rsum, sp.factor)
		if why != "" {
			res.Basis = "point: " + why
			return
		}
		ev = append(ev, pairEvidence{group: p.group, est: est, verdict: decideOp(est.CI, sp.op, 0), method: ciMethod(est.Repeats, unit)})
	}
	sp.noteFailed(ev)
	v, d := combine(ev, sd)
	diff := "left − right"
	if sp.factor != 1 {
		diff = "left − " + g(sp.factor) + "×right"
	}
	decide(res, o, v, d, d.method, fmt.Sprintf("%g%% interval of %s: %s → %s", 100*d.est.CI.Level, diff, intervalsText(ev), v))
}
