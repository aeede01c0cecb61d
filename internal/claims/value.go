package claims

import (
	"fmt"
	"math"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// givenCheck judges a value check with a given: filter: each selected
// cell's statistic of the metric recomputed on the items where the given
// cell's per-item array equals the given value ("Tikhonov's accuracy on
// the digits Mika misclassifies"). The statistic is recomputed from the
// per-item scores (Options.Items), so the check needs them for its point
// verdict too.
func (sp *spec) givenCheck(recs []report.Record, sel []*report.Record) (bool, string, error) {
	gv := sp.given
	gs := selectRecs(recs, gv.sel)
	if len(gs) != 1 {
		return false, "", fmt.Errorf("given: cell %s matches %d cells, want one", config.FormatValue(gv.sel), len(gs))
	}
	gr := gs[0]
	if gr.Status == report.StatusFailed {
		return false, "", fmt.Errorf("given: cell %s failed: %s", gr.Key, gr.Error)
	}
	if _, ok := gr.Arrays[gv.array]; !ok {
		return false, "", fmt.Errorf("given: cell %s has no per-item array %q", gr.Key, gv.array)
	}
	if sp.o.Items == nil {
		return false, "", fmt.Errorf("given: %s is recomputed on a subset of items, which needs the kind's per-item scores", sp.metric)
	}
	ar, err := sp.againstRec(recs)
	if err != nil {
		return false, "", err
	}
	allOK := true
	var ev []string
	for _, r := range sel {
		if r.Status == report.StatusFailed {
			return false, "", fmt.Errorf("cell %s failed: %s", r.Key, r.Error)
		}
		v, kept, why := sp.givenStat(r, gr)
		if why != "" {
			return false, "", fmt.Errorf("%s", why)
		}
		ok := cmp(v, sp.op, sp.value)
		allOK = allOK && ok
		sp.cells = append(sp.cells, r)
		lv, rv := gApart(v, sp.value)
		ev = append(ev, fmt.Sprintf("%s: %s %s %s %s (%d items)", r.Key, lv, sp.op, rv, mark(ok), kept))
		if ar != nil {
			// The other side on the same items.
			if ar.Status == report.StatusFailed {
				return false, "", fmt.Errorf("against: cell %s failed: %s", ar.Key, ar.Error)
			}
			av, _, why := sp.givenStat(ar, gr)
			if why != "" {
				return false, "", fmt.Errorf("against: %s", why)
			}
			sp.sides = append(sp.sides, sidePair{metric: sp.metric, lname: r.Key, rname: "against " + ar.Key, l: v, r: av, ok: ok, group: r.Key, solverTol: solverTolOf(r, ar)})
			ev[len(ev)-1] += fmt.Sprintf(" (against %s: %s)", ar.Key, g(av))
		}
	}
	sp.givenRec = gr
	return allOK, fmt.Sprintf("%s on the items where %s has %s = %s: %s", sp.metric, config.FormatValue(gv.sel), gv.array, g(gv.equals), strings.Join(ev, "; ")), nil
}

// keepOf returns the frame filter of a given: the item × repeat rows where
// gr's array equals the given value.
func (sp *spec) keepOf(gr *report.Record) func(n, reps int) ([]bool, string) {
	return func(n, reps int) ([]bool, string) {
		a := gr.Arrays[sp.given.array]
		if len(a) != n*reps {
			return nil, fmt.Sprintf("given: cell %s has %d %s values, the judged cells %d items × %d repeats", gr.Key, len(a), sp.given.array, n, reps)
		}
		keep := make([]bool, len(a))
		kept := 0
		for k, v := range a {
			keep[k] = v == sp.given.equals
			if keep[k] {
				kept++
			}
		}
		if kept == 0 {
			return nil, fmt.Sprintf("given: no item has %s = %s in cell %s", sp.given.array, g(sp.given.equals), gr.Key)
		}
		return keep, ""
	}
}

// givenStat is r's statistic of the metric on the given items and how
// many item × repeat rows it read.
func (sp *spec) givenStat(r, gr *report.Record) (float64, int, string) {
	fr := &itemFrame{reps: max(sp.o.Repeats, 1), n: -1}
	c, why := fr.cell(sp.o, sp.metric, r)
	if why != "" {
		return 0, 0, why
	}
	keep, why := sp.keepOf(gr)(fr.n, fr.reps)
	if why != "" {
		return 0, 0, why
	}
	fr.keep = keep
	all := make([]int, fr.n)
	for i := range all {
		all[i] = i
	}
	x := fr.pick(&c, all)
	if len(x[0]) == 0 {
		return 0, 0, fmt.Sprintf("cell %s has no finite %s on the given items", r.Key, sp.metric)
	}
	v := c.stat(c.rec, x)
	if math.IsNaN(v) {
		return 0, 0, fmt.Sprintf("cell %s: %s is NaN on the given items", r.Key, sp.metric)
	}
	return v, len(x[0]), ""
}

// valueInterval gives a value check the interval verdict where every
// judged cell's metric has per-item evidence: for a paired statistic
// (Paired: classify's gains over splits) its t-interval, otherwise the
// BCa bootstrap of the cell's statistic over its items (on the given
// items only, for a given: filter). PASS when each cell's interval lies on
// the claimed side of the value, FAIL when one lies on the other side,
// INCONCLUSIVE otherwise (combine). The interval reported is the deciding
// cell's, of the metric itself.
func (sp *spec) valueInterval(id string, o Options, res *Result) {
	if o.Items == nil {
		res.Basis = "point: " + o.noItems(sp.metric)
		return
	}
	sd := side(sp.op)
	var ev []pairEvidence
	for _, r := range sp.cells {
		st, ok := o.Items(r, sp.metric)
		if !ok {
			res.Basis = "point: " + o.noItems(sp.metric)
			return
		}
		if st.Paired != nil {
			if sp.given != nil {
				res.Basis = "point: a given: filter on a paired statistic is not built"
				return
			}
			est, method, why := st.Paired.interval(r, sp.metric, ciLevel)
			if why != "" {
				res.Basis = "point: " + why
				return
			}
			ev = append(ev, pairEvidence{group: r.Key, est: est, verdict: decideOp(est.CI, sp.op, sp.value), bound: sp.value, method: method})
			continue
		}
		if sp.given == nil {
			if est, method, why, ok := tDiff(o, sp.metric, r, nil, 1, 1); ok {
				if why != "" {
					res.Basis = "point: " + why
					return
				}
				ev = append(ev, pairEvidence{group: r.Key, est: est, verdict: decideOp(est.CI, sp.op, sp.value), bound: sp.value, method: method})
				continue
			}
		}
		var keep func(n, reps int) ([]bool, string)
		if sp.given != nil {
			keep = sp.keepOf(sp.givenRec)
		}
		est, unit, why := bootCells(o, "claim:"+id+"/"+r.Key, sp.metric, [][]*report.Record{{r}}, keep, func(v [][]float64) float64 { return v[0][0] })
		if why != "" {
			res.Basis = "point: " + why
			return
		}
		ev = append(ev, pairEvidence{group: r.Key, est: est, verdict: decideOp(est.CI, sp.op, sp.value), bound: sp.value, method: ciMethodOne(est.Repeats, unit)})
	}
	if len(ev) == 0 {
		return
	}
	sp.noteFailed(ev)
	v, d := combine(ev, sd)
	decide(res, o, v, d, d.method, fmt.Sprintf("%g%% interval of %s against %s: %s → %s", 100*d.est.CI.Level, sp.metric, g(sp.value), intervalsText(ev), v))
}
