package report

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// finite returns &v for a finite v, nil otherwise (JSON has no NaN).
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// explainClaims sets, on each change of a claim's verdict in ch (one
// run's changes), the moved metrics its evidence names on either side
// (Change.Because): why the verdict moved.
func explainClaims(ch []Change, oldDir, newDir string) error {
	var moved []string
	claimsChanged := false
	for _, c := range ch {
		switch {
		case strings.HasPrefix(c.What, "metric "):
			if m := strings.TrimPrefix(c.What, "metric "); !slices.Contains(moved, m) {
				moved = append(moved, m)
			}
		case strings.HasPrefix(c.What, "claim "):
			claimsChanged = true
		}
	}
	if !claimsChanged || len(moved) == 0 {
		return nil
	}
	evidence := map[string]string{}
	for _, dir := range []string{oldDir, newDir} {
		cl, _, err := readClaims(dir)
		if err != nil {
			return err
		}
		for _, c := range cl {
			evidence[c.ID] += " " + c.Evidence + " " + c.Statement
		}
	}
	sort.Strings(moved)
	for i := range ch {
		id, ok := strings.CutPrefix(ch[i].What, "claim ")
		if !ok {
			continue
		}
		for _, m := range moved {
			if containsWord(evidence[id], m) {
				ch[i].Because = append(ch[i].Because, m)
			}
		}
	}
	return nil
}

// containsWord reports whether s holds name with no letter, digit or '_'
// on either side (mse in "mse_median" does not count).
func containsWord(s, name string) bool {
	word := func(b byte) bool {
		return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	}
	for i := 0; ; {
		j := strings.Index(s[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		if (j == 0 || !word(s[j-1])) && (end == len(s) || !word(s[end])) {
			return true
		}
		i = j + 1
	}
}

// ConfigDiff is one config's part of a Diff: its claims whose verdict
// changed, its metrics that moved, sorted by relative change (largest
// first), every other change, and what caused its cells' changes.
type ConfigDiff struct {
	Config  string
	Claims  []Change
	Metrics []Change
	Other   []Change
	// Causes counts the changed cells of each cause (Change.Causes),
	// the most cells first.
	Causes []CauseCount
}

// CauseCount is a cause of changes and the cells it changed.
type CauseCount struct {
	Cause
	Cells int `json:"cells"`
}

// Diff is a comparison laid out for a reader (a nightly log, an HTML
// page): per config, the claims that changed first, then the metrics that
// moved, largest relative change first, with old, new, delta and ratio.
type Diff struct {
	Configs []ConfigDiff
}

// NewDiff lays out changes (Compare's, in any order).
func NewDiff(ch []Change) *Diff {
	d := &Diff{}
	at := map[string]int{}
	for _, c := range ch {
		i, ok := at[c.Config]
		if !ok {
			i = len(d.Configs)
			at[c.Config] = i
			d.Configs = append(d.Configs, ConfigDiff{Config: c.Config})
		}
		cd := &d.Configs[i]
		_, isMetric := strings.CutPrefix(c.What, "metric ")
		switch {
		case strings.HasPrefix(c.What, "claim "):
			cd.Claims = append(cd.Claims, c)
		case isMetric && c.OldValue != nil && c.NewValue != nil || isMetric && c.Old != absent && c.New != absent:
			cd.Metrics = append(cd.Metrics, c)
		default:
			cd.Other = append(cd.Other, c)
		}
	}
	slices.SortFunc(d.Configs, func(a, b ConfigDiff) int { return cmp.Compare(a.Config, b.Config) })
	for i := range d.Configs {
		cd := &d.Configs[i]
		slices.SortStableFunc(cd.Claims, func(a, b Change) int { return cmp.Compare(a.What, b.What) })
		slices.SortStableFunc(cd.Metrics, func(a, b Change) int {
			return cmp.Or(-cmp.Compare(RelChange(a), RelChange(b)), cmp.Compare(a.Cell, b.Cell), cmp.Compare(a.What, b.What))
		})
		// A paired cell's parameters change heads its metrics: listed
		// among the other changes only when no metric of it moved.
		moved := map[string]bool{}
		for _, c := range cd.Metrics {
			moved[c.Key] = true
		}
		cd.Other = slices.DeleteFunc(cd.Other, func(c Change) bool { return c.What == "params" && moved[c.Key] })
		slices.SortStableFunc(cd.Other, func(a, b Change) int {
			return cmp.Or(cmp.Compare(a.Cell, b.Cell), cmp.Compare(a.What, b.What))
		})
		cd.Causes = causeCounts(slices.Concat(cd.Metrics, cd.Other))
	}
	return d
}

// causeCounts counts the cells (by key) of each cause of ch.
func causeCounts(ch []Change) []CauseCount {
	var out []CauseCount
	at := map[Cause]int{}
	seen := map[Cause]map[string]bool{}
	for _, c := range ch {
		for _, x := range c.Causes {
			i, ok := at[x]
			if !ok {
				i = len(out)
				at[x] = i
				out = append(out, CauseCount{Cause: x})
				seen[x] = map[string]bool{}
			}
			if !seen[x][c.Key] {
				seen[x][c.Key] = true
				out[i].Cells++
			}
		}
	}
	rank := func(kind string) int {
		return slices.Index([]string{"config", "code", "data", "unknown", "none"}, kind)
	}
	slices.SortStableFunc(out, func(a, b CauseCount) int {
		return cmp.Or(-cmp.Compare(a.Cells, b.Cells), cmp.Compare(rank(a.Kind), rank(b.Kind)))
	})
	return out
}

// causeLine is "caused by: config: its parameters: tol 1e-09 → 1e-08
// (7 cells); code: …".
func causeLine(cs []CauseCount) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s: %s (%s)", c.Kind, c.Text, plural(c.Cells, "cell")))
	}
	return "caused by: " + strings.Join(parts, "; ")
}

// Counts returns the claims, metrics and other changes of the diff.
func (d *Diff) Counts() (claims, metrics, other int) {
	for _, c := range d.Configs {
		claims += len(c.Claims)
		metrics += len(c.Metrics)
		other += len(c.Other)
	}
	return claims, metrics, other
}

// values returns a metric change's two values, parsed back from the text
// where they are not finite.
func values(c Change) (float64, float64) {
	get := func(p *float64, s string) float64 {
		if p != nil {
			return *p
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return math.NaN()
		}
		return v
	}
	return get(c.OldValue, c.Old), get(c.NewValue, c.New)
}

// RelChange is a metric change's |new − old| / |old|: +Inf when old is 0
// or either value is not finite (a change of kind comes first).
func RelChange(c Change) float64 {
	o, n := values(c)
	if math.IsNaN(o) || math.IsNaN(n) || math.IsInf(o, 0) || math.IsInf(n, 0) || o == 0 {
		return math.Inf(1)
	}
	return math.Abs(n-o) / math.Abs(o)
}

// diffPrecision returns old and new at the fewest significant digits (at
// least 4) that tell them apart, and one more.
func diffPrecision(o, n float64) (string, string) {
	if math.IsNaN(o) || math.IsNaN(n) || math.IsInf(o, 0) || math.IsInf(n, 0) {
		return FormatFloat(o, -1), FormatFloat(n, -1)
	}
	for d := 4; d <= 16; d++ {
		a, b := strconv.FormatFloat(o, 'g', d, 64), strconv.FormatFloat(n, 'g', d, 64)
		if a != b {
			return strconv.FormatFloat(o, 'g', d+1, 64), strconv.FormatFloat(n, 'g', d+1, 64)
		}
	}
	return strconv.FormatFloat(o, 'g', -1, 64), strconv.FormatFloat(n, 'g', -1, 64)
}

// deltaRatio formats new − old (3 significant digits, signed) and
// new / old (with the decimals that show its departure from 1 to two
// digits; Dash when old is 0 or a value is not finite).
func deltaRatio(o, n float64) (string, string) {
	if math.IsNaN(o) || math.IsNaN(n) || math.IsInf(o, 0) || math.IsInf(n, 0) {
		return Dash, Dash
	}
	delta := strconv.FormatFloat(n-o, 'g', 3, 64)
	if n-o > 0 {
		delta = "+" + delta
	}
	if o == 0 {
		return delta, Dash
	}
	r := n / o
	dec := 3
	if dev := math.Abs(r - 1); dev > 0 {
		// Two significant digits of the departure; the nudge keeps a
		// power of ten rounded below it (0.99999…e-4) at its decimals.
		dec = min(max(3, 1-int(math.Floor(math.Log10(dev)+1e-9))), 12)
	}
	return delta, strconv.FormatFloat(r, 'f', dec, 64)
}

// DiffRow is one moved metric as the views show it.
type DiffRow struct {
	Cell, Metric, Old, New, Delta, Ratio string
}

// Row formats a metric change of the diff.
func (c Change) Row() DiffRow {
	o, n := values(c)
	r := DiffRow{Cell: c.CellName(), Metric: strings.TrimPrefix(c.What, "metric ")}
	r.Old, r.New = diffPrecision(o, n)
	r.Delta, r.Ratio = deltaRatio(o, n)
	return r
}

// CellName names the changed cell as the views do: its label, then for
// a cell paired with its former self the change of its parameters,
// "method=Mika c=5 (tol 1e-09 → 1e-08)".
func (c Change) CellName() string {
	s := c.Cell
	if s == "" {
		s = c.Key
	}
	if c.Params != "" {
		s += " (" + c.Params + ")"
	}
	return s
}

// claimLine is a claim change as the views show it: "id: PASS → FAIL
// (moved: mse_median)".
func claimLine(c Change) string {
	s := strings.TrimPrefix(c.What, "claim ") + ": " + orDash(c.Old) + " → " + orDash(c.New)
	if len(c.Because) > 0 {
		s += " (moved: " + strings.Join(c.Because, ", ") + ")"
	}
	return s
}

// otherLine is any other change as the views show it, with its causes'
// kinds.
func otherLine(c Change) string {
	kinds := ""
	if k := c.CauseKinds(); k != "" {
		kinds = " [" + k + "]"
	}
	name := c.CellName()
	if c.What == "params" {
		return name + ": no metric moved" + kinds
	}
	what := c.What
	if name != "" {
		what = name + ": " + what
	}
	return what + ": " + orDash(c.Old) + " → " + orDash(c.New) + kinds
}

// RenderText writes the diff for a terminal or a log, no line wider than
// width columns (TextWidth when 0) and no cell name or metric cut: title,
// then per config a line with its counts, what caused its cells' changes,
// its claims, its moved metrics (cell, metric, old, new, delta, ratio,
// the kinds of the cell's causes) as one table when it fits the width,
// else each cell's name on its own lines (wrapped between words) above
// its metrics, and its other changes; last "N changes." ("No changes."
// alone under the title when there are none).
func (d *Diff) RenderText(w io.Writer, title string, width int) error {
	if width <= 0 {
		width = TextWidth
	}
	width = max(width, 40)
	var b bytes.Buffer
	claims, metrics, other := d.Counts()
	if len(d.Configs) == 0 {
		b.WriteString(Wrap(title, width) + "\nNo changes.\n")
		_, err := w.Write(b.Bytes())
		return err
	}
	b.WriteString(Wrap(fmt.Sprintf("%s: %s", title, changeCounts(claims, metrics, other)), width) + "\n")
	for _, cd := range d.Configs {
		b.WriteString("\n" + Wrap(cd.Config+": "+changeCounts(len(cd.Claims), len(cd.Metrics), len(cd.Other)), width) + "\n")
		if len(cd.Causes) > 0 {
			b.WriteString(hanging("  ", causeLine(cd.Causes), width) + "\n")
		}
		for _, c := range cd.Claims {
			b.WriteString(hanging("  claim ", claimLine(c), width) + "\n")
		}
		if len(cd.Metrics) > 0 {
			writeMetrics(&b, cd.Metrics, width)
		}
		for _, c := range cd.Other {
			b.WriteString(hanging("  ", otherLine(c), width) + "\n")
		}
	}
	fmt.Fprintf(&b, "\n%s.\n", plural(claims+metrics+other, "change"))
	_, err := w.Write(b.Bytes())
	return err
}

// changeCounts is "1 claim changed, 19 metrics moved, 2 other changes".
func changeCounts(claims, metrics, other int) string {
	var parts []string
	if claims > 0 {
		parts = append(parts, plural(claims, "claim")+" changed")
	}
	if metrics > 0 {
		parts = append(parts, plural(metrics, "metric")+" moved")
	}
	if other > 0 {
		parts = append(parts, plural(other, "other change"))
	}
	if len(parts) == 0 {
		return "no changes"
	}
	return strings.Join(parts, ", ")
}

// writeMetrics writes the moved metrics of one config (sorted by
// NewDiff: largest relative change first) within width, indented two
// columns: as one aligned table (cell, metric, old, new, delta, ratio,
// causes) when every row fits whole, else grouped under each cell's name,
// which wraps between words.
func writeMetrics(b *bytes.Buffer, ms []Change, width int) {
	rows := make([]DiffRow, len(ms))
	kinds := make([]string, len(ms))
	for i, c := range ms {
		rows[i] = c.Row()
		kinds[i] = c.CauseKinds()
	}
	head := DiffRow{"cell", "metric", "old", "new", "delta", "ratio"}
	all := append([]DiffRow{head}, rows...)
	wOf := func(f func(DiffRow) string) int {
		m := 0
		for _, r := range all {
			m = max(m, utf8.RuneCountInString(f(r)))
		}
		return m
	}
	wc, wm := wOf(func(r DiffRow) string { return r.Cell }), wOf(func(r DiffRow) string { return r.Metric })
	wo, wn := wOf(func(r DiffRow) string { return r.Old }), wOf(func(r DiffRow) string { return r.New })
	wd, wr := wOf(func(r DiffRow) string { return r.Delta }), wOf(func(r DiffRow) string { return r.Ratio })
	wk := len("cause")
	for _, k := range kinds {
		wk = max(wk, utf8.RuneCountInString(k))
	}
	if 2+wc+2+wm+2+wo+2+wn+2+wd+2+wr+2+wk <= width {
		kinds = append([]string{"cause"}, kinds...)
		for i, r := range all {
			line := fmt.Sprintf("  %s  %s  %s  %s  %s  %s  %s", padRight(r.Cell, wc), padRight(r.Metric, wm),
				padLeft(r.Old, wo), padLeft(r.New, wn), padLeft(r.Delta, wd), padLeft(r.Ratio, wr), kinds[i])
			b.WriteString(strings.TrimRight(line, " ") + "\n")
		}
		return
	}
	// Grouped: each cell's name (and its causes) on lines of its own,
	// its metrics under it; a metric row too wide for the width puts its
	// numbers on the next line.
	numbers := func(r DiffRow) string {
		return fmt.Sprintf("%s  %s  %s  %s", padLeft(r.Old, wo), padLeft(r.New, wn), padLeft(r.Delta, wd), padLeft(r.Ratio, wr))
	}
	stacked := 4+wm+2+Width(numbers(head)) > width
	if stacked {
		fmt.Fprintf(b, "    %s\n      %s\n", head.Metric, numbers(head))
	} else {
		fmt.Fprintf(b, "    %s  %s\n", padRight(head.Metric, wm), numbers(head))
	}
	// The cells in the order of their largest change (ms is sorted by
	// relative change), each with its metrics in that order.
	var order []string
	byCell := map[string][]int{}
	for i, c := range ms {
		if _, ok := byCell[c.Key]; !ok {
			order = append(order, c.Key)
		}
		byCell[c.Key] = append(byCell[c.Key], i)
	}
	for _, key := range order {
		is := byCell[key]
		name := rows[is[0]].Cell
		if k := kinds[is[0]]; k != "" {
			name += " [" + k + "]"
		}
		b.WriteString(hanging("  ", name, width) + "\n")
		for _, i := range is {
			r := rows[i]
			if stacked {
				fmt.Fprintf(b, "    %s\n      %s\n", r.Metric, numbers(r))
			} else {
				fmt.Fprintf(b, "    %s  %s\n", padRight(r.Metric, wm), numbers(r))
			}
		}
	}
}

func padRight(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s)))
}

func padLeft(s string, n int) string {
	return strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s))) + s
}

// RenderHTML writes the diff as a page: per config its claims, its moved
// metrics in a table (old, new, delta, ratio; the full cell key on
// hover) and its other changes.
func (d *Diff) RenderHTML(w io.Writer, title string) error {
	type cfg struct {
		Config, Counts, Causes string
		Claims, Other          []string
		Rows                   []DiffRow
		Keys, Kinds            []string
	}
	data := struct {
		Title, Counts string
		Configs       []cfg
	}{Title: title}
	claims, metrics, other := d.Counts()
	data.Counts = changeCounts(claims, metrics, other)
	for _, cd := range d.Configs {
		c := cfg{Config: cd.Config, Counts: changeCounts(len(cd.Claims), len(cd.Metrics), len(cd.Other))}
		if len(cd.Causes) > 0 {
			c.Causes = causeLine(cd.Causes)
		}
		for _, ch := range cd.Claims {
			c.Claims = append(c.Claims, claimLine(ch))
		}
		for _, ch := range cd.Metrics {
			c.Rows = append(c.Rows, ch.Row())
			c.Keys = append(c.Keys, ch.Key)
			c.Kinds = append(c.Kinds, ch.CauseKinds())
		}
		for _, ch := range cd.Other {
			c.Other = append(c.Other, otherLine(ch))
		}
		data.Configs = append(data.Configs, c)
	}
	// Parsed here, not in a package variable: a variable whose value
	// calls a function would count in every code fingerprint that
	// reaches this package (internal/codefp).
	t, err := template.New("diff").Parse(diffPage)
	if err != nil {
		return err
	}
	return t.Execute(w, data)
}

const diffPage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1em; max-width: 72em; }
table { border-collapse: collapse; display: block; overflow-x: auto; }
th, td { padding: 0.2em 0.6em; border-bottom: 1px solid #ddd; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.claim { color: #a00; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>{{.Counts}}.</p>
{{- range .Configs}}
<h2>{{.Config}}</h2>
<p>{{.Counts}}.</p>
{{- if .Causes}}
<p>{{.Causes}}.</p>
{{- end}}
{{- if .Claims}}
<ul>
{{- range .Claims}}
<li class="claim">claim {{.}}</li>
{{- end}}
</ul>
{{- end}}
{{- if .Rows}}
{{- $keys := .Keys}}{{$kinds := .Kinds}}
<table>
<thead><tr><th>Cell</th><th>Metric</th><th>Old</th><th>New</th><th>Delta</th><th>Ratio</th><th>Cause</th></tr></thead>
<tbody>
{{- range $i, $r := .Rows}}
<tr><td title="{{index $keys $i}}">{{$r.Cell}}</td><td>{{$r.Metric}}</td><td class="n">{{$r.Old}}</td><td class="n">{{$r.New}}</td><td class="n">{{$r.Delta}}</td><td class="n">{{$r.Ratio}}</td><td>{{index $kinds $i}}</td></tr>
{{- end}}
</tbody>
</table>
{{- end}}
{{- if .Other}}
<ul>
{{- range .Other}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- end}}
{{- end}}
</body>
</html>
`
