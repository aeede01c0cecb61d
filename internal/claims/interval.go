package claims

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

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
type ItemStat struct {
	Array  string
	Stat   func(rec *report.Record, x []float64) float64
	Arrays []string
	Joint  func(rec *report.Record, cols [][]float64) float64
	Paired *Paired
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
}

// Level and resamples of the claims' intervals.
const (
	ciLevel     = 0.95
	ciResamples = stats.DefaultResamples
)

// pairEvidence is the interval of one left–right comparison.
type pairEvidence struct {
	group   string
	est     stats.Estimate
	verdict stats.Verdict
	// bound is the boundary the interval is judged against: 0 for a
	// difference, the value of a value check.
	bound float64
	// method is the interval's ci_method; "" for the paired bootstrap.
	method string
}

// pairedInterval bootstraps summary(metric over lefts) − factor·summary(metric
// over rights) over the test items every record shares, resampling items
// (with all their repeats) once for all cells: the draws are paired. A
// summary is max, min or mean over cells ("" for a single cell, as in a
// compare check). It returns ok false, with the reason, when a record has
// no per-item evidence for the metric or it does not reproduce the metric.
func pairedInterval(o Options, key, metric string, lefts []*report.Record, lsum string, rights []*report.Record, rsum string, factor float64) (stats.Estimate, bool, string) {
	if o.Items == nil || o.Rand == nil {
		return stats.Estimate{}, false, "no per-item scores"
	}
	type cell struct {
		rec   *report.Record
		names []string
		stat  func(*report.Record, [][]float64) float64
		x     [][]float64 // one array per name
		buf   [][]float64
	}
	reps := max(o.Repeats, 1)
	n := -1
	mk := func(rs []*report.Record) ([]cell, string) {
		cs := make([]cell, len(rs))
		for i, r := range rs {
			st, ok := o.Items(r, metric)
			if !ok {
				return nil, fmt.Sprintf("%s has no per-item scores", metric)
			}
			if st.Paired != nil {
				// Its items pair arrays within one record; pairing two
				// records' paired statistics is another interval, not
				// built: the point verdict stands.
				return nil, fmt.Sprintf("%s is a paired statistic within one record; only a value check on it gets an interval", metric)
			}
			names, f := st.columns()
			if len(names) == 0 || f == nil {
				return nil, fmt.Sprintf("%s declares no per-item arrays", metric)
			}
			c := cell{rec: r, names: names, stat: f, buf: make([][]float64, len(names))}
			for _, name := range names {
				x := r.Arrays[name]
				if len(x) == 0 || len(x)%reps != 0 || (n >= 0 && len(x) != n*reps) {
					return nil, fmt.Sprintf("cell %s: %d per-item %s scores are not paired with the other cells' %d items × %d repeats", r.Key, len(x), name, n, reps)
				}
				n = len(x) / reps
				c.x = append(c.x, x)
			}
			cs[i] = c
		}
		return cs, ""
	}
	lc, why := mk(lefts)
	if why != "" {
		return stats.Estimate{}, false, why
	}
	rc, why := mk(rights)
	if why != "" {
		return stats.Estimate{}, false, why
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	// pick gathers the sampled items' scores, every repeat, keeping a
	// row only where each of the cell's arrays is finite there.
	pick := func(c *cell, idx []int) [][]float64 {
		for j := range c.buf {
			c.buf[j] = c.buf[j][:0]
		}
		for _, i := range idx {
		reps:
			for rep := range reps {
				k := rep*n + i
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
	summ := func(cs []cell, how string, idx []int) float64 {
		vs := make([]float64, len(cs))
		for i := range cs {
			x := pick(&cs[i], idx)
			if len(x[0]) == 0 {
				return math.NaN()
			}
			vs[i] = cs[i].stat(cs[i].rec, x)
		}
		return foldSummary(how, vs)
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	// The statistic of every item must be the recorded metric: otherwise
	// the array is not the metric's evidence and an interval would judge
	// another quantity.
	for _, cs := range [][]cell{lc, rc} {
		for i := range cs {
			c := &cs[i]
			got := c.stat(c.rec, pick(c, all))
			want := c.rec.Metrics[metric]
			if !(math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))) {
				return stats.Estimate{}, false, fmt.Sprintf("cell %s: per-item %s gives %s %s, the record %s", c.rec.Key, strings.Join(c.names, ", "), metric, g(got), g(want))
			}
		}
	}
	stat := func(idx []int) float64 {
		if len(rc) == 0 {
			// One side only: the interval of the statistic itself
			// (CellInterval).
			return summ(lc, lsum, idx)
		}
		return summ(lc, lsum, idx) - factor*summ(rc, rsum, idx)
	}
	est, err := stats.Bootstrap(n, stat, ciLevel, ciResamples, o.Rand(key))
	if err != nil {
		return stats.Estimate{}, false, err.Error()
	}
	est.Repeats = reps
	return est, true, ""
}

// side returns the stats side of op for a difference left − factor·right.
func side(op string) stats.Side {
	if op == ">" || op == ">=" {
		return stats.Above
	}
	return stats.Below
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

// ciMethod describes the interval for claims.json.
func ciMethod(reps int) string {
	unit := "test items"
	if reps > 1 {
		unit = fmt.Sprintf("test items, each with its %d corruption repeats", reps)
	}
	return fmt.Sprintf("paired BCa bootstrap (Efron 1987) over %s; %d resamples", unit, ciResamples)
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
		sp.valueInterval(o, res)
		return
	case "best":
		sp.bestInterval(id, o, res)
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
		est, ok, why := pairedInterval(o, key, sp.metric, p.left, p.lsum, p.right, p.rsum, sp.factor)
		if !ok {
			res.Basis = "point: " + why
			return
		}
		ev = append(ev, pairEvidence{group: p.group, est: est, verdict: stats.Decide(est.CI, sd, 0)})
	}
	v, d := combine(ev, sd)
	lo, hi, lvl := d.est.CI.Lo, d.est.CI.Hi, d.est.CI.Level
	res.Verdict, res.Basis = v, "interval"
	res.CILo, res.CIHi, res.CILevel, res.CIMethod = &lo, &hi, &lvl, ciMethod(d.est.Repeats)
	diff := "left − right"
	if sp.factor != 1 {
		diff = "left − " + g(sp.factor) + "×right"
	}
	res.Evidence += fmt.Sprintf(" | %g%% interval of %s: %s → %s", 100*lvl, diff, intervalsText(ev), v)
	if o.Counts {
		res.Status = v
	}
}
