package claims

import (
	"fmt"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
)

// Verdicts.
const (
	Pass         = "PASS"
	Fail         = "FAIL"
	NotEvaluated = "NOT-EVALUATED"
)

// Result is the verdict on one claim.
type Result struct {
	ID        string `json:"id"`
	Statement string `json:"statement,omitempty"`
	Source    string `json:"source,omitempty"`
	Status    string `json:"status"`
	// Expected is the verdict the config expects (PASS unless it says
	// expect: fail or expect: inconclusive); Because is the config's
	// evidence for it, its references filled in (Expand); AsExpected
	// reports whether Status equals Expected.
	Expected   string `json:"expected"`
	Because    string `json:"because,omitempty"`
	AsExpected bool   `json:"as_expected"`
	// Evidence gives the numbers behind the verdict.
	Evidence string `json:"evidence"`
	// PointVerdict judges the claim on the single recorded numbers
	// (PASS, FAIL or NOT-EVALUATED). Verdict judges it on the confidence
	// interval of the paired difference where every compared cell has
	// per-item scores for the metric (PASS, FAIL or INCONCLUSIVE; see
	// package stats), and is the point verdict otherwise; Basis says
	// which, and why not the interval. Status is the verdict the exit
	// status counts: Verdict when the run asked for intervals
	// (Options.Counts; runexp always does, whatever repeats says),
	// PointVerdict otherwise.
	Verdict      string `json:"verdict"`
	PointVerdict string `json:"point_verdict"`
	Basis        string `json:"verdict_basis"`
	// The interval of the deciding difference (left − factor·right; for
	// per-group checks the group that decides the verdict), when one was
	// used.
	CILo     *float64 `json:"ci_lo,omitempty"`
	CIHi     *float64 `json:"ci_hi,omitempty"`
	CILevel  *float64 `json:"ci_level,omitempty"`
	CIMethod string   `json:"ci_method,omitempty"`
	// CIItems is the number of items (test images, repetitions, splits)
	// the interval is over.
	CIItems *int `json:"ci_items,omitempty"`
	// For an INCONCLUSIVE interval verdict: Detectable is the smallest
	// departure from the boundary these items could decide (the
	// interval's half-width), and ItemsNeeded about how many items the
	// observed departure would need to be decided (absent when it sits
	// on the boundary). See detectable.
	Detectable  *float64 `json:"detectable,omitempty"`
	ItemsNeeded *int     `json:"items_needed,omitempty"`
	// Defect names a defect of our check the config declares
	// (config.Defects: a quantifier or threshold of ours, our number for
	// a visual claim) and DefectEvidence its sentence, its references
	// filled in as Because's are. Whose failure a verdict is, is not a
	// run's to say: package scoreboard derives it from every reading's
	// verdicts.
	Defect         string `json:"defect,omitempty"`
	DefectEvidence string `json:"defect_evidence,omitempty"`
	// CannotDiscriminate, when set, says that the check compared two
	// quantities equal by construction or to rounding on this run (both
	// sides within the tolerance, Options.Tolerance or 1e-9 relative),
	// with the two values and the tolerance: the check cannot tell them
	// apart here, so Status, Verdict and PointVerdict are INCONCLUSIVE
	// (discriminate).
	CannotDiscriminate string `json:"cannot_discriminate,omitempty"`
	// Degenerate, when not empty, says that the claim's metric cannot
	// tell the estimators apart in some cell ("degenerate: every
	// estimator scores 0 in 2 of 2 cells of mse_median"): a verdict on
	// it compares equal numbers, whatever the methods did. The evidence
	// begins with it, so tables and pages that show the evidence show it.
	Degenerate string `json:"degenerate,omitempty"`
}

// Expected returns the verdict a claim expects: PASS, FAIL for expect:
// fail, INCONCLUSIVE for expect: inconclusive (an interval covering the
// boundary; a claim that could not be evaluated is not inconclusive).
func Expected(cl config.Claim) string {
	switch cl.Expect {
	case "fail":
		return Fail
	case "inconclusive":
		return Inconclusive
	}
	return Pass
}

type spec struct {
	typ       string
	metric    string
	along     string
	direction string
	test      string
	minRho    float64
	where     map[string]any
	group     []string
	left      map[string]any
	right     map[string]any
	op        string
	factor    float64
	forAll    []string
	value     float64
	among     string
	winner    string
	sense     string
	summary   string
	lsum      string
	rsum      string
	// pairs are the comparisons a compare or ratio check made, for the
	// interval verdict.
	pairs []pair
	// cells are the records a value check judged, for its interval
	// verdict.
	cells []*report.Record
	// rivals are a best check's groups: the named winner against every
	// other candidate, for its interval verdict.
	rivals []rivalGroup
	// trends are a trend check's groups, cells in order of the parameter,
	// for its interval verdict.
	trends []trendGroup
	// given restricts a value check to the items where another cell's
	// per-item array equals a value (nil: every item).
	given    *givenSpec
	givenRec *report.Record
	// o are the options the claim is judged with: a given filter reads
	// per-item scores for the point verdict too.
	o Options
	// against is a value check's other side: the one cell whose metric
	// the judged cells' is implicitly contrasted with (nil: none).
	against map[string]any
	// sides are the check's comparisons, each with its two values, for
	// the "cannot discriminate" test; failed marks the interval groups
	// that refute the claim (discriminate).
	sides  []sidePair
	failed map[string]bool
}

// givenSpec is a value check's item filter: the items where the one cell
// matching sel has array[item] == equals.
type givenSpec struct {
	sel    map[string]any
	array  string
	equals float64
}

// trendGroup is one group of a trend check: its cells in increasing order
// of the parameter, and the parameter's values.
type trendGroup struct {
	group string
	xs    []float64
	recs  []*report.Record
}

// rivalGroup is one group of a best check: the named winner's cell and
// the other candidates' cells with their names, compared on metric (the
// check's, or one of the names its pattern matched).
type rivalGroup struct {
	group  string
	metric string
	win    *report.Record
	others []*report.Record
	names  []string
}

// pair is one left-against-right comparison of a check.
type pair struct {
	group       string
	left, right []*report.Record
	lsum, rsum  string
}

var ops = []string{"<", "<=", ">", ">="}

// parse reads a claim's check: its type and metric, the keys of its type
// (parseKeys) and the rules between them (complete).
func parse(s config.Section) (*spec, error) {
	r := s.Reader("check")
	sp := &spec{}
	sp.typ = r.String("type", "", "trend", "compare", "value", "best", "ratio")
	sp.metric = r.String("metric", "")
	if sp.typ == "" || sp.metric == "" {
		// Without a type the other keys cannot be judged: report a bad
		// type or metric, or that one is missing, not "unknown key along".
		for _, k := range s.Keys() {
			r.Touch(k)
		}
		if err := r.Err(); err != nil {
			return nil, err
		}
		return nil, s.Errorf("type", "check: needs type (trend, compare, value, best, ratio) and metric")
	}
	if err := sp.parseKeys(s, r); err != nil {
		return nil, err
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	if err := sp.complete(s); err != nil {
		return nil, err
	}
	return sp, nil
}

// selector reads the cell selector under key ({param: value, ...}): an
// empty one when it is absent, which a required key reports.
func selector(s config.Section, r *config.Reader, typ, key string, required bool) map[string]any {
	v, ok := s.Values[key]
	r.Touch(key)
	if !ok {
		if required {
			r.Fail(key, "%s check needs %s: {param: value, ...}", typ, key)
		}
		return map[string]any{}
	}
	m, ok := v.(map[string]any)
	if !ok {
		r.Fail(key, "want a mapping {param: value}, got %v", v)
	}
	return m
}

// parseKeys reads the keys of sp's check type; errors of the keys
// themselves stay in r.
func (sp *spec) parseKeys(s config.Section, r *config.Reader) error {
	sel := func(key string, required bool) map[string]any { return selector(s, r, sp.typ, key, required) }
	switch sp.typ {
	case "trend":
		sp.along = r.String("along", "")
		sp.direction = r.String("direction", "", "increasing", "decreasing")
		sp.test = r.String("test", "spearman", "spearman", "endpoints", "monotone")
		sp.minRho = r.Float("min_rho", 0.8, func(v float64) bool { return v > 0 && v <= 1 }, "a correlation in (0, 1]")
		sp.where = sel("where", false)
		sp.group = strList(r, s, "group")
		if (sp.along == "" || sp.direction == "") && r.Err() == nil {
			return s.Errorf("along", "check: a trend needs along (a parameter) and direction (increasing | decreasing)")
		}
	case "compare":
		sp.left, sp.right = sel("left", true), sel("right", true)
		sp.op = r.String("op", "", ops...)
		sp.factor = r.Float("factor", 1, func(v float64) bool { return v > 0 }, "a factor > 0")
		sp.forAll = strList(r, s, "for_all")
		sp.where = sel("where", false)
	case "value":
		sp.where = sel("where", false)
		sp.op = r.String("op", "", ops...)
		sp.value = r.Float("value", math.NaN(), nil, "a number")
		if _, ok := s.Values["against"]; ok {
			sp.against = sel("against", true)
		}
		r.Touch("given")
		if v, ok := s.Values["given"]; ok {
			gs, err := parseGiven(s, v)
			if err != nil {
				return err
			}
			sp.given = gs
		}
	case "best":
		sp.among = r.String("among", "method")
		r.Touch("winner")
		if w, ok := s.Values["winner"]; ok {
			// Compared canonically, like selectors: winner: 5e-1 picks 0.5.
			sp.winner = config.FormatValue(w)
		}
		sp.sense = r.String("sense", "min", "min", "max")
		sp.forAll = strList(r, s, "for_all")
		sp.where = sel("where", false)
		if sp.winner == "" && r.Err() == nil {
			return s.Errorf("winner", "check: a best check needs winner (the value of %q expected to win)", sp.among)
		}
	case "ratio":
		sp.left, sp.right = sel("left", true), sel("right", true)
		sp.summary = r.String("summary", "max", "max", "min", "mean")
		sp.lsum = r.String("left_summary", sp.summary, "max", "min", "mean")
		sp.rsum = r.String("right_summary", sp.summary, "max", "min", "mean")
		sp.op = r.String("op", "", ops...)
		sp.factor = r.Float("factor", 1, func(v float64) bool { return v > 0 }, "a factor > 0")
		sp.forAll = strList(r, s, "for_all")
	}
	return nil
}

// complete checks what a check of sp's type needs once its keys are read:
// an op, a value, a metric pattern only on a best check.
func (sp *spec) complete(s config.Section) error {
	if (sp.typ == "compare" || sp.typ == "value" || sp.typ == "ratio") && sp.op == "" {
		return s.Errorf("op", "check: a %s check needs op (<, <=, >, >=)", sp.typ)
	}
	if sp.typ == "value" && math.IsNaN(sp.value) {
		return s.Errorf("value", "check: a value check needs value")
	}
	if strings.Contains(sp.metric, "*") {
		if sp.typ != "best" {
			return s.Errorf("metric", "check: a metric pattern (%s) is for best checks only: each metric it matches is a group", sp.metric)
		}
		if _, err := path.Match(sp.metric, ""); err != nil {
			return s.Errorf("metric", "check: metric pattern %q: %v", sp.metric, err)
		}
	}
	return nil
}

// parseGiven reads a value check's given: {cell: {selector}, array:
// NAME, equals: NUMBER}.
func parseGiven(s config.Section, v any) (*givenSpec, error) {
	m, ok := v.(map[string]any)
	bad := func() (*givenSpec, error) {
		return nil, s.Errorf("given", "check: given: want {cell: {param: value, ...}, array: NAME, equals: NUMBER}: the items where that one cell's per-item array equals the number")
	}
	if !ok {
		return bad()
	}
	for k := range m {
		if k != "cell" && k != "array" && k != "equals" {
			return bad()
		}
	}
	cell, ok1 := m["cell"].(map[string]any)
	arr, ok2 := m["array"].(string)
	eq, ok3 := config.Number(m["equals"])
	if !ok1 || !ok2 || !ok3 || arr == "" {
		return bad()
	}
	return &givenSpec{sel: cell, array: arr, equals: eq}, nil
}

func strList(r *config.Reader, s config.Section, key string) []string {
	r.Touch(key)
	v, ok := s.Values[key]
	if !ok {
		return nil
	}
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			str, ok := e.(string)
			if !ok {
				r.Fail(key, "want parameter names, got %v", e)
				return nil
			}
			out = append(out, str)
		}
		return out
	}
	r.Fail(key, "want a parameter name or a list of them, got %v", v)
	return nil
}

// Check validates a claim's check, and the references of its because:
// text, without evaluating it.
func Check(cl config.Claim) error {
	if _, err := parse(cl.Check); err != nil {
		return err
	}
	if _, err := References(cl.Because); err != nil {
		return cl.Check.Errorf("", "claim %s: %v", cl.ID, err)
	}
	if _, err := References(cl.DefectEvidence); err != nil {
		return cl.Check.Errorf("", "claim %s: defect: %v", cl.ID, err)
	}
	return nil
}

// Evaluate judges a claim against the records on their single numbers
// (no intervals).
func Evaluate(cl config.Claim, recs []report.Record) Result {
	return EvaluateWith(cl, recs, Options{})
}

// EvaluateWith judges a claim against the records, and a compare or ratio
// check also on the confidence interval of the paired difference where
// the records hold per-item scores (see Result).
func EvaluateWith(cl config.Claim, recs []report.Record, o Options) (res Result) {
	res = Result{ID: cl.ID, Statement: cl.Statement, Source: cl.Source, Expected: Expected(cl), Because: cl.Because}
	defer func() {
		res.AsExpected = res.Status == res.Expected
		// The explanations quote numbers and setup facts only through
		// references filled in here, from this very verdict.
		expand := func(text string) string {
			b, err := Expand(text, res, recs, o.Setup)
			if err != nil {
				return text + " [" + err.Error() + "]"
			}
			return b
		}
		if cl.Defect != "" {
			res.Defect, res.DefectEvidence = cl.Defect, expand(cl.DefectEvidence)
		}
		if cl.Because != "" {
			res.Because = expand(cl.Because)
		}
	}()
	sp, err := parse(cl.Check)
	if err != nil {
		res.Status, res.Evidence = NotEvaluated, err.Error()
		res.Verdict, res.PointVerdict, res.Basis = NotEvaluated, NotEvaluated, "point"
		return res
	}
	sp.o = o
	defer func() {
		sp.interval(cl.ID, o, &res)
		sp.discriminate(o, &res)
	}()
	var ok bool
	var ev string
	switch sp.typ {
	case "trend":
		ok, ev, err = sp.trend(recs)
	case "compare":
		ok, ev, err = sp.compare(recs)
	case "value":
		ok, ev, err = sp.valueCheck(recs)
	case "best":
		ok, ev, err = sp.best(recs)
	case "ratio":
		ok, ev, err = sp.ratio(recs)
	}
	switch {
	case err != nil:
		res.Status, res.Evidence = NotEvaluated, err.Error()
	case ok:
		res.Status, res.Evidence = Pass, ev
	default:
		res.Status, res.Evidence = Fail, ev
	}
	// A comparison between estimators (compare, best, ratio) means
	// nothing where the metric scores them all the same; a value check
	// may well expect equal values (every derivative method refuses the
	// HOG kernel: refused_hog 1 for each).
	if sp.typ == "value" || sp.typ == "trend" {
		return res
	}
	if d := Degenerate(recs, sp.metric, sp.where); d != "" {
		res.Degenerate = d
		res.Evidence = d + " — " + res.Evidence
	}
	return res
}

// modelKeys returns, sorted, the parameters that name a cell of the model
// grid among held: those every method has over the same values (the
// model's: c, components); an estimator's own parameters (tol, neighbors)
// are not, even where two estimators share a name.
func modelKeys(held []*report.Record) []string {
	values := map[string]map[any]map[string]bool{} // key → method → values
	for _, r := range held {
		m := r.Params[report.MethodParam]
		for k, x := range r.Params {
			if k == report.MethodParam {
				continue
			}
			if values[k] == nil {
				values[k] = map[any]map[string]bool{}
			}
			if values[k][m] == nil {
				values[k][m] = map[string]bool{}
			}
			values[k][m][fmt.Sprint(x)] = true
		}
	}
	methods := map[any]bool{}
	for _, r := range held {
		methods[r.Params[report.MethodParam]] = true
	}
	var shared []string
	for k, byMethod := range values {
		if len(byMethod) != len(methods) {
			continue
		}
		var first map[string]bool
		same := true
		for _, vs := range byMethod {
			if first == nil {
				first = vs
				continue
			}
			if len(vs) != len(first) {
				same = false
				break
			}
			for v := range vs {
				same = same && first[v]
			}
		}
		if same {
			shared = append(shared, k)
		}
	}
	sort.Strings(shared)
	return shared
}

// Degenerate returns a flag when metric cannot tell the estimators apart:
// among the records matching where, grouped by every parameter but the
// method (one group a cell of the model grid), a group of two or more
// methods whose values of metric are all equal ("every estimator scores
// 0", or the same number). It returns "" when no group is, or when metric
// is a pattern. A metric that scores every method the same, such as an
// error after re-normalising 2-D points to their clean range (exactly 0),
// measures nothing about the methods.
func Degenerate(recs []report.Record, metric string, where map[string]any) string {
	if strings.Contains(metric, "*") {
		return ""
	}
	type group struct {
		methods map[any]bool
		vals    []float64
	}
	var held []*report.Record
	for _, r := range selectRecs(recs, where) {
		if _, ok := r.Metrics[metric]; ok {
			held = append(held, r)
		}
	}
	shared := modelKeys(held)
	groups := map[string]*group{}
	var order []string
	for _, r := range held {
		v := r.Metrics[metric]
		var keys []string
		for _, k := range shared {
			keys = append(keys, fmt.Sprintf("%s=%v", k, r.Params[k]))
		}
		k := strings.Join(keys, ",")
		gr, seen := groups[k]
		if !seen {
			gr = &group{methods: map[any]bool{}}
			groups[k] = gr
			order = append(order, k)
		}
		gr.methods[r.Params[report.MethodParam]] = true
		gr.vals = append(gr.vals, v)
	}
	compared, same := 0, 0
	var val float64
	allZero := true
	for _, k := range order {
		gr := groups[k]
		if len(gr.methods) < 2 {
			continue
		}
		compared++
		eq := true
		for _, v := range gr.vals[1:] {
			if v != gr.vals[0] {
				eq = false
				break
			}
		}
		if eq {
			same++
			val = gr.vals[0]
			allZero = allZero && val == 0
		}
	}
	if same == 0 {
		return ""
	}
	score := "the same value"
	switch {
	case allZero:
		score = "0"
	case same == 1:
		score = g(val)
	}
	return fmt.Sprintf("degenerate: every estimator scores %s in %d of %d cells of %s", score, same, compared, metric)
}

// Matches reports whether a record's parameters equal every value of sel;
// a list in sel matches any of its elements ({method: [Mika, Tikhonov]}).
func Matches(r *report.Record, sel map[string]any) bool {
	for k, v := range sel {
		got, ok := r.Params[k]
		if !ok {
			return false
		}
		g := config.FormatValue(got)
		alts, isList := v.([]any)
		if !isList {
			alts = []any{v}
		}
		hit := false
		for _, a := range alts {
			if g == config.FormatValue(a) {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

func selectRecs(recs []report.Record, sels ...map[string]any) []*report.Record {
	var out []*report.Record
	for i := range recs {
		all := true
		for _, s := range sels {
			if !Matches(&recs[i], s) {
				all = false
				break
			}
		}
		if all {
			out = append(out, &recs[i])
		}
	}
	return out
}

func metricOf(r *report.Record, metric string) (float64, error) {
	if r.Status == "failed" {
		return 0, fmt.Errorf("cell %s failed: %s", r.Key, r.Error)
	}
	v, ok := r.Metrics[metric]
	if !ok {
		return 0, fmt.Errorf("cell %s has no metric %q", r.Key, metric)
	}
	if math.IsNaN(v) {
		return 0, fmt.Errorf("cell %s: %s is NaN", r.Key, metric)
	}
	return v, nil
}

func groupKey(r *report.Record, params []string) string {
	parts := make([]string, len(params))
	for i, p := range params {
		parts[i] = p + "=" + config.FormatValue(r.Params[p])
	}
	return strings.Join(parts, ",")
}

// groupRecs groups recs by their values of params (groupKey): the keys in
// order of first appearance, and for each key its records in order.
func groupRecs(recs []*report.Record, params []string) (order []string, groups map[string][]*report.Record) {
	groups = map[string][]*report.Record{}
	for _, r := range recs {
		k := groupKey(r, params)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
	}
	return order, groups
}

func cmp(a float64, op string, b float64) bool {
	switch op {
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	case ">=":
		return a >= b
	}
	panic("claims: unknown op " + op)
}

func g(v float64) string { return report.FormatFloat(v, 4) }

// gApart formats a and b as g does, with more significant digits where
// those four show two different values alike, so that a comparison the
// evidence marks ✓ or ✗ never reads "0.4097 < 0.4097".
func gApart(a, b float64) (string, string) {
	for p := 4; ; p++ {
		sa, sb := report.FormatFloat(a, p), report.FormatFloat(b, p)
		if sa != sb || a == b || p == 17 {
			return sa, sb
		}
	}
}

func (sp *spec) trend(recs []report.Record) (bool, string, error) {
	sel := selectRecs(recs, sp.where)
	order, groups := groupRecs(sel, sp.group)
	if len(order) == 0 {
		return false, "", fmt.Errorf("no cell matches %s", config.FormatValue(sp.where))
	}
	allOK := true
	var ev []string
	for _, k := range order {
		tg, ys, err := sp.trendSeries(k, groups[k])
		if err != nil {
			return false, "", err
		}
		sp.trends = append(sp.trends, tg)
		series := make([]string, len(ys))
		for i, y := range ys {
			series[i] = fmt.Sprintf("%s=%s: %s", sp.along, g(tg.xs[i]), g(y))
		}
		ok, why, err := sp.trendTest(k, tg.xs, ys, series)
		if err != nil {
			return false, "", err
		}
		sp.trendSides(tg, ys, ok)
		allOK = allOK && ok
		label := ""
		if k != "" {
			label = k + ": "
		}
		ev = append(ev, fmt.Sprintf("%s%s %s along %s — %s [%s]", label, sp.metric, sp.direction, sp.along, why, strings.Join(series, "; ")))
	}
	return allOK, strings.Join(ev, " | "), nil
}

// trendSeries orders group k's cells by the parameter along which the
// trend runs: the group with its cells and parameter values in increasing
// order, and the metric at each. Cells sharing a value, fewer than two
// values, and a cell without a numeric parameter or the metric are errors.
func (sp *spec) trendSeries(k string, rs []*report.Record) (trendGroup, []float64, error) {
	type pt struct {
		x, y float64
		r    *report.Record
	}
	var pts []pt
	for _, r := range rs {
		x, ok := config.Number(r.Params[sp.along])
		if !ok {
			return trendGroup{}, nil, fmt.Errorf("cell %s has no numeric %q", r.Key, sp.along)
		}
		y, err := metricOf(r, sp.metric)
		if err != nil {
			return trendGroup{}, nil, err
		}
		pts = append(pts, pt{x, y, r})
	}
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].x < pts[j].x })
	for i := 1; i < len(pts); i++ {
		if pts[i].x == pts[i-1].x {
			return trendGroup{}, nil, fmt.Errorf("several cells share %s=%v in one group: add a where or group", sp.along, pts[i].x)
		}
	}
	if len(pts) < 2 {
		return trendGroup{}, nil, fmt.Errorf("a trend needs at least 2 values of %s, have %d", sp.along, len(pts))
	}
	tg := trendGroup{group: k, xs: make([]float64, len(pts))}
	ys := make([]float64, len(pts))
	for i, p := range pts {
		tg.xs[i], ys[i] = p.x, p.y
		tg.recs = append(tg.recs, p.r)
	}
	return tg, ys, nil
}

// trendSides records the two sides a trend compares, for the "cannot
// discriminate" test: the endpoints' first and last values; for a
// monotone trend the series' least and greatest (a series flat to
// rounding has no direction to show). A Spearman trend of a constant
// series is not evaluated (trendTest); its single steps are not sides.
func (sp *spec) trendSides(tg trendGroup, ys []float64, ok bool) {
	n := len(ys)
	prefix := ""
	if tg.group != "" {
		prefix = tg.group + " "
	}
	switch sp.test {
	case "endpoints":
		sp.sides = append(sp.sides, sidePair{metric: sp.metric,
			lname: fmt.Sprintf("%s%s=%s", prefix, sp.along, g(tg.xs[n-1])), rname: fmt.Sprintf("%s=%s", sp.along, g(tg.xs[0])),
			l: ys[n-1], r: ys[0], ok: ok, group: fmt.Sprintf("%s%s=%s→%s", prefix, sp.along, g(tg.xs[0]), g(tg.xs[n-1]))})
	case "monotone":
		lo, hi := ys[0], ys[0]
		for _, y := range ys {
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
		sp.sides = append(sp.sides, sidePair{metric: sp.metric,
			lname: prefix + "greatest along " + sp.along, rname: "least", l: hi, r: lo, ok: ok, group: "monotone:" + tg.group})
	}
}

// trendTest judges one group's series by the check's test (Spearman ρ,
// the endpoints, or each step), with the evidence's words; a constant
// series has no Spearman ρ and is an error.
func (sp *spec) trendTest(k string, xs, ys []float64, series []string) (bool, string, error) {
	sign := 1.0
	if sp.direction == "decreasing" {
		sign = -1
	}
	switch sp.test {
	case "endpoints":
		return sign*(ys[len(ys)-1]-ys[0]) > 0, fmt.Sprintf("first %s, last %s", g(ys[0]), g(ys[len(ys)-1])), nil
	case "monotone":
		ok, why := true, "monotone"
		for i := 1; i < len(ys); i++ {
			if sign*(ys[i]-ys[i-1]) < 0 {
				ok = false
				why = fmt.Sprintf("breaks between %s=%s and %s", sp.along, g(xs[i-1]), g(xs[i]))
			}
		}
		return ok, why, nil
	}
	rho := metrics.Spearman(xs, ys)
	if math.IsNaN(rho) {
		// A constant series has no order: ρ is undefined (package
		// metrics), so the claim is not judged rather than failed or
		// passed on a made-up ρ = 0.
		where := ""
		if k != "" {
			where = " (" + k + ")"
		}
		return false, "", fmt.Errorf("%s is constant along %s%s, so Spearman ρ is undefined [%s]; test: endpoints or monotone judge a flat series", sp.metric, sp.along, where, strings.Join(series, "; "))
	}
	why := fmt.Sprintf("Spearman ρ = %s (need %s%s)", g(rho), map[bool]string{true: "≥ ", false: "≤ −"}[sign > 0], g(sp.minRho))
	return sign*rho >= sp.minRho, why, nil
}

func (sp *spec) compare(recs []report.Record) (bool, string, error) {
	left := selectRecs(recs, sp.where, sp.left)
	right := selectRecs(recs, sp.where, sp.right)
	byGroup := func(rs []*report.Record) (map[string]*report.Record, []string, error) {
		m := map[string]*report.Record{}
		var order []string
		for _, r := range rs {
			k := groupKey(r, sp.forAll)
			if _, dup := m[k]; dup {
				return nil, nil, fmt.Errorf("selector matches several cells with %s; narrow it or add for_all", k)
			}
			m[k] = r
			order = append(order, k)
		}
		return m, order, nil
	}
	lm, order, err := byGroup(left)
	if err != nil {
		return false, "", err
	}
	rm, _, err := byGroup(right)
	if err != nil {
		return false, "", err
	}
	if len(order) == 0 {
		return false, "", fmt.Errorf("no cell matches left %s", config.FormatValue(sp.left))
	}
	allOK := true
	var ev []string
	for _, k := range order {
		r, ok := rm[k]
		if !ok {
			return false, "", fmt.Errorf("no right cell %s for %s", config.FormatValue(sp.right), k)
		}
		a, err := metricOf(lm[k], sp.metric)
		if err != nil {
			return false, "", err
		}
		b, err := metricOf(r, sp.metric)
		if err != nil {
			return false, "", err
		}
		ok = cmp(a, sp.op, sp.factor*b)
		allOK = allOK && ok
		la, rhs := gApart(a, b)
		if sp.factor != 1 {
			la, rhs = g(a), fmt.Sprintf("%s×%s", g(sp.factor), g(b))
		}
		prefix := ""
		if k != "" {
			prefix = k + ": "
		}
		sp.pairs = append(sp.pairs, pair{group: k, left: []*report.Record{lm[k]}, right: []*report.Record{r}})
		sp.sides = append(sp.sides, sidePair{metric: sp.metric, lname: "left " + lm[k].Key, rname: factorName(sp.factor, "right "+r.Key), l: a, r: sp.factor * b, ok: ok, group: k, solverTol: solverTolOf(lm[k], r)})
		ev = append(ev, fmt.Sprintf("%s%s %s %s %s", prefix, la, sp.op, rhs, mark(ok)))
	}
	return allOK, fmt.Sprintf("%s: %s", sp.metric, strings.Join(ev, "; ")), nil
}

func mark(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}

func (sp *spec) valueCheck(recs []report.Record) (bool, string, error) {
	sel := selectRecs(recs, sp.where)
	if len(sel) == 0 {
		return false, "", fmt.Errorf("no cell matches %s", config.FormatValue(sp.where))
	}
	if sp.given != nil {
		return sp.givenCheck(recs, sel)
	}
	ar, err := sp.againstRec(recs)
	if err != nil {
		return false, "", err
	}
	allOK := true
	var ev []string
	for _, r := range sel {
		v, err := metricOf(r, sp.metric)
		if err != nil {
			return false, "", err
		}
		ok := cmp(v, sp.op, sp.value)
		allOK = allOK && ok
		sp.cells = append(sp.cells, r)
		lv, rv := gApart(v, sp.value)
		ev = append(ev, fmt.Sprintf("%s: %s %s %s %s", r.Key, lv, sp.op, rv, mark(ok)))
		if ar != nil {
			av, err := metricOf(ar, sp.metric)
			if err != nil {
				return false, "", fmt.Errorf("against: %w", err)
			}
			sp.sides = append(sp.sides, sidePair{metric: sp.metric, lname: r.Key, rname: "against " + ar.Key, l: v, r: av, ok: ok, group: r.Key, solverTol: solverTolOf(r, ar)})
			ev[len(ev)-1] += fmt.Sprintf(" (against %s: %s)", ar.Key, g(av))
		}
	}
	return allOK, fmt.Sprintf("%s: %s", sp.metric, strings.Join(ev, "; ")), nil
}

// againstRec is the one cell a value check's against: selector names, or
// nil when the check has none.
func (sp *spec) againstRec(recs []report.Record) (*report.Record, error) {
	if sp.against == nil {
		return nil, nil
	}
	as := selectRecs(recs, sp.against)
	if len(as) != 1 {
		return nil, fmt.Errorf("against: cell %s matches %d cells, want one", config.FormatValue(sp.against), len(as))
	}
	return as[0], nil
}

// factorName names the right side of a comparison scaled by factor.
func factorName(factor float64, name string) string {
	if factor == 1 {
		return name
	}
	return g(factor) + " × " + name
}

func (sp *spec) best(recs []report.Record) (bool, string, error) {
	sel := selectRecs(recs, sp.where)
	order, groups := groupRecs(sel, sp.forAll)
	if len(order) == 0 {
		return false, "", fmt.Errorf("no cell matches %s", config.FormatValue(sp.where))
	}
	metricsOf := []string{sp.metric}
	if strings.Contains(sp.metric, "*") {
		metricsOf = matchingMetrics(sel, sp.metric)
		if len(metricsOf) == 0 {
			return false, "", fmt.Errorf("no metric of the selected cells matches %s", sp.metric)
		}
	}
	allOK := true
	var ev []string
	for _, metric := range metricsOf {
		for _, k := range order {
			ok, e, err := sp.bestGroup(groups[k], metric, k)
			if err != nil {
				return false, "", err
			}
			allOK = allOK && ok
			ev = append(ev, e)
		}
	}
	return allOK, fmt.Sprintf("%s (%s is better): %s", sp.metric, sp.sense, strings.Join(ev, "; ")), nil
}

// matchingMetrics returns the metric names of recs that match pattern,
// sorted.
func matchingMetrics(recs []*report.Record, pattern string) []string {
	seen := map[string]bool{}
	for _, r := range recs {
		for m := range r.Metrics {
			if ok, _ := path.Match(pattern, m); ok {
				seen[m] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for m := range seen {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// bestGroup judges one group of a best check on one metric and records
// its rivals for the interval verdict.
func (sp *spec) bestGroup(cells []*report.Record, metric, k string) (bool, string, error) {
	label := k
	if metric != sp.metric {
		// A pattern's groups are named by the metric they compare.
		label = metric
		if k != "" {
			label += "," + k
		}
	}
	var win *report.Record
	var bestV float64
	var bestName string
	for _, r := range cells {
		v, err := metricOf(r, metric)
		if err != nil {
			return false, "", err
		}
		name := config.FormatValue(r.Params[sp.among])
		if name == sp.winner {
			if win != nil {
				return false, "", fmt.Errorf("several %s=%s cells in group %s; add for_all", sp.among, sp.winner, label)
			}
			win = r
		}
		better := bestName == "" || (sp.sense == "min" && v < bestV) || (sp.sense == "max" && v > bestV)
		if better {
			bestV, bestName = v, name
		}
	}
	if win == nil {
		return false, "", fmt.Errorf("no %s=%s cell in group %s", sp.among, sp.winner, label)
	}
	wv, _ := metricOf(win, metric)
	rg := rivalGroup{group: label, metric: metric, win: win}
	for _, r := range cells {
		if r != win {
			rg.others = append(rg.others, r)
			rg.names = append(rg.names, config.FormatValue(r.Params[sp.among]))
		}
	}
	sp.rivals = append(sp.rivals, rg)
	ok := wv == bestV
	for j, r := range rg.others {
		rv, _ := metricOf(r, metric)
		label := "vs " + rg.names[j]
		if rg.group != "" {
			label = rg.group + " " + label
		}
		// The winner must beat every rival: a tie does not show it best.
		beats := (sp.sense == "min" && wv < rv) || (sp.sense == "max" && wv > rv)
		sp.sides = append(sp.sides, sidePair{metric: metric, lname: "winner " + sp.winner, rname: "rival " + rg.names[j], l: wv, r: rv, ok: beats, group: label, solverTol: solverTolOf(win, r)})
	}
	prefix := ""
	if label != "" {
		prefix = label + ": "
	}
	ws, bs := gApart(wv, bestV)
	return ok, fmt.Sprintf("%s%s %s, best %s %s %s", prefix, sp.winner, ws, bestName, bs, mark(ok)), nil
}

func (sp *spec) ratio(recs []report.Record) (bool, string, error) {
	if len(sp.forAll) == 0 {
		return sp.ratioGroup(recs, "")
	}
	// One ratio per value of the for_all parameters, the left side's
	// groups in order.
	var order []string
	seen := map[string]bool{}
	for _, r := range selectRecs(recs, sp.left) {
		k := groupKey(r, sp.forAll)
		if !seen[k] {
			seen[k] = true
			order = append(order, k)
		}
	}
	if len(order) == 0 {
		return false, "", fmt.Errorf("no cell matches left %s", config.FormatValue(sp.left))
	}
	allOK := true
	var ev []string
	for _, k := range order {
		var in []report.Record
		for i := range recs {
			if groupKey(&recs[i], sp.forAll) == k {
				in = append(in, recs[i])
			}
		}
		ok, e, err := sp.ratioGroup(in, k)
		if err != nil {
			return false, "", fmt.Errorf("%s: %w", k, err)
		}
		allOK = allOK && ok
		ev = append(ev, k+": "+e)
	}
	return allOK, strings.Join(ev, "; "), nil
}

// ratioGroup judges a ratio check on recs (one for_all group, named
// group, or every record).
func (sp *spec) ratioGroup(recs []report.Record, group string) (bool, string, error) {
	var sides [][]*report.Record
	sum := func(sel map[string]any, how string) (float64, int, error) {
		rs := selectRecs(recs, sel)
		sides = append(sides, rs)
		if len(rs) == 0 {
			return 0, 0, fmt.Errorf("no cell matches %s", config.FormatValue(sel))
		}
		vs := make([]float64, len(rs))
		for i, r := range rs {
			v, err := metricOf(r, sp.metric)
			if err != nil {
				return 0, 0, err
			}
			vs[i] = v
		}
		return foldSummary(how, vs), len(rs), nil
	}
	a, na, err := sum(sp.left, sp.lsum)
	if err != nil {
		return false, "", err
	}
	b, nb, err := sum(sp.right, sp.rsum)
	if err != nil {
		return false, "", err
	}
	ok := cmp(a, sp.op, sp.factor*b)
	sp.pairs = append(sp.pairs, pair{group: group, left: sides[0], right: sides[1], lsum: sp.lsum, rsum: sp.rsum})
	sp.sides = append(sp.sides, sidePair{metric: sp.metric, lname: fmt.Sprintf("left %s over %d cells", sp.lsum, na), rname: factorName(sp.factor, fmt.Sprintf("right %s over %d cells", sp.rsum, nb)), l: a, r: sp.factor * b, ok: ok, group: group})
	return ok, fmt.Sprintf("%s: %s %s (%d cells) %s %s×%s %s (%d cells) %s", sp.metric, sp.lsum, g(a), na, sp.op, g(sp.factor), sp.rsum, g(b), nb, mark(ok)), nil
}

// foldSummary reduces one value per cell (at least one) to a side's
// summary: their max, min or mean (a ratio check's left_summary and
// right_summary), in cell order. The point and the interval verdicts both
// use it, so the interval is of the statistic the point verdict judged.
func foldSummary(how string, vs []float64) float64 {
	acc := vs[0]
	for _, v := range vs[1:] {
		switch how {
		case "max":
			acc = math.Max(acc, v)
		case "min":
			acc = math.Min(acc, v)
		default:
			acc += v
		}
	}
	if how == "mean" {
		acc /= float64(len(vs))
	}
	return acc
}
