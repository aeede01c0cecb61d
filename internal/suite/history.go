package suite

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/safefs"
)

// Night is one suite run as a history keeps it (runexp suite --history
// DIR): its suite.json, and per config the verdict of every claim and
// the headline metrics, so that a series across nights can be shown
// without the results of each night.
type Night struct {
	Started  time.Time     `json:"started"`
	Revision string        `json:"revision"`
	Status   int           `json:"status"`
	Configs  []NightConfig `json:"configs"`
	Suite    *Report       `json:"suite"`
}

// NightConfig is one config of a Night.
type NightConfig struct {
	Name   string            `json:"name"`
	Claims map[string]string `json:"claims"`
	// Metrics are the headline metrics: for each metric a claim of the
	// config reads, its mean over each method's cells that did not fail,
	// named "metric · method" ("metric" for cells without a method).
	// Means that are not finite are left out.
	Metrics map[string]float64 `json:"metrics"`
	// ConfigSHA256 is the config file's SHA-256 (its manifest's); Code
	// the fingerprint of the code that computed its records (their code
	// fingerprints, report.Record.Code, hashed together); Data that of
	// the data files its run read (the manifest's list, path and SHA-256).
	// The history marks the nights where they changed. Empty where the
	// night did not record them.
	ConfigSHA256 string `json:"config_sha256,omitempty"`
	Code         string `json:"code,omitempty"`
	Data         string `json:"data,omitempty"`
}

// Inputs are the three things that make a night's numbers: the
// configs, the code and the data, each as one fingerprint over the
// night's configs (NightConfig's, hashed together in name order).
type Inputs struct {
	Config, Code, Data string
}

// Inputs returns the night's fingerprints; each is "" when no config of
// the night recorded its own.
func (n Night) Inputs() Inputs {
	cs := slices.Clone(n.Configs)
	sort.Slice(cs, func(i, j int) bool { return cs[i].Name < cs[j].Name })
	hash := func(get func(NightConfig) string) string {
		h := sha256.New()
		seen := false
		for _, c := range cs {
			v := get(c)
			seen = seen || v != ""
			fmt.Fprintf(h, "%s\x00%s\x00", c.Name, v)
		}
		if !seen {
			return ""
		}
		return hex.EncodeToString(h.Sum(nil))[:12]
	}
	return Inputs{
		Config: hash(func(c NightConfig) string { return c.ConfigSHA256 }),
		Code:   hash(func(c NightConfig) string { return c.Code }),
		Data:   hash(func(c NightConfig) string { return c.Data }),
	}
}

// InputChanges says, per input (config, code, data), which configs'
// fingerprint differs between the nights prev and cur (configs in only
// one of them are not compared).
func InputChanges(prev, cur Night) map[string][]string {
	was := map[string]NightConfig{}
	for _, c := range prev.Configs {
		was[c.Name] = c
	}
	out := map[string][]string{}
	for _, c := range cur.Configs {
		p, ok := was[c.Name]
		if !ok {
			continue
		}
		for _, x := range []struct{ what, a, b string }{{"config", p.ConfigSHA256, c.ConfigSHA256}, {"code", p.Code, c.Code}, {"data", p.Data, c.Data}} {
			if x.a != x.b && x.a != "" && x.b != "" {
				out[x.what] = append(out[x.what], c.Name)
			}
		}
	}
	for _, v := range out {
		sort.Strings(v)
	}
	return out
}

// inputs are the kinds of inputs, in the order the views name them.
var inputs = []string{"config", "code", "data"}

// KeepNight adds the suite run rep of entries (its results under root)
// to the history in dir: dir/nights/STARTED-REVISION.json. It returns the
// file written.
func KeepNight(dir, root string, rep *Report, entries []Entry) (string, error) {
	n := Night{Started: rep.Started.UTC(), Status: rep.Status, Suite: rep, Revision: "unknown"}
	if rep.Manifest != nil && rep.Manifest.Revision != "" {
		n.Revision = rep.Manifest.Revision
	}
	claimMetrics := map[string][]string{}
	for _, e := range entries {
		for _, cl := range e.Config.Claims {
			if m, ok := cl.Check.Values["metric"].(string); ok && m != "" && !containsStr(claimMetrics[e.Config.Name], m) {
				claimMetrics[e.Config.Name] = append(claimMetrics[e.Config.Name], m)
			}
		}
	}
	for _, r := range rep.Runs {
		if r.Error != "" || r.Interrupted || r.Dir == "" {
			continue
		}
		nc, err := nightConfig(r, claimMetrics[r.Name])
		if err != nil {
			return "", err
		}
		n.Configs = append(n.Configs, nc)
	}
	b, err := json.MarshalIndent(n, "", "  ")
	if err != nil {
		return "", err
	}
	rev := n.Revision
	if len(rev) > 12 {
		rev = rev[:12]
	}
	file := filepath.Join(dir, "nights", n.Started.Format("20060102T150405.000Z")+"-"+safeName(rev)+".json")
	if err := os.MkdirAll(filepath.Dir(file), 0o777); err != nil {
		return "", fmt.Errorf("--history: %w", err)
	}
	if err := report.WriteFileAtomic(file, append(b, '\n')); err != nil {
		return "", fmt.Errorf("--history: %w", err)
	}
	return file, nil
}

func containsStr(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// nightConfig reads a config's claims and headline metrics from its
// result folder.
func nightConfig(r ConfigRun, metrics []string) (NightConfig, error) {
	nc := NightConfig{Name: r.Name, Claims: map[string]string{}, Metrics: map[string]float64{}}
	b, err := safefs.ReadFile(filepath.Join(r.Dir, "claims.json"), report.MaxJSONBytes)
	if err == nil {
		var cl []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		}
		if err := json.Unmarshal(b, &cl); err != nil {
			return nc, fmt.Errorf("--history: %s: %w", filepath.Join(r.Dir, "claims.json"), err)
		}
		for _, c := range cl {
			nc.Claims[c.ID] = c.Status
		}
	}
	nc.ConfigSHA256, nc.Data = nightInputs(r.Dir)
	recs, err := report.ReadJSONL(filepath.Join(r.Dir, "records.jsonl"))
	if err != nil {
		return nc, fmt.Errorf("--history: %w", err)
	}
	nc.Code = codeFingerprint(recs)
	if len(metrics) == 0 {
		return nc, nil
	}
	type acc struct {
		sum float64
		n   int
	}
	means := map[string]*acc{}
	for _, rec := range recs {
		if rec.Status == report.StatusFailed {
			continue
		}
		for _, m := range metrics {
			v, ok := rec.Metrics[m]
			if !ok {
				continue
			}
			name := m
			if meth := rec.Method(); meth != "" {
				name += " · " + meth
			}
			a := means[name]
			if a == nil {
				a = &acc{}
				means[name] = a
			}
			a.sum += v
			a.n++
		}
	}
	for name, a := range means {
		if v := a.sum / float64(a.n); !math.IsNaN(v) && !math.IsInf(v, 0) {
			nc.Metrics[name] = v
		}
	}
	return nc, nil
}

// nightInputs returns what a run's manifest says of its inputs: the
// config file's SHA-256 and a fingerprint of the data files it read
// (their paths and SHA-256); empty where there is no manifest.
func nightInputs(dir string) (config, data string) {
	b, err := safefs.ReadFile(filepath.Join(dir, "manifest.json"), report.MaxJSONBytes)
	if err != nil {
		return "", ""
	}
	var m struct {
		ConfigSHA256 string           `json:"config_sha256"`
		Data         []report.FileSum `json:"data"`
	}
	if json.Unmarshal(b, &m) != nil {
		return "", ""
	}
	h := sha256.New()
	for _, f := range m.Data {
		fmt.Fprintf(h, "%s %s\n", f.Path, f.SHA256)
	}
	return m.ConfigSHA256, hex.EncodeToString(h.Sum(nil))[:16]
}

// codeFingerprint hashes together the distinct code fingerprints of
// records ("" when none has one).
func codeFingerprint(recs []report.Record) string {
	var codes []string
	for _, rec := range recs {
		if rec.Code != "" && !slices.Contains(codes, rec.Code) {
			codes = append(codes, rec.Code)
		}
	}
	if len(codes) == 0 {
		return ""
	}
	sort.Strings(codes)
	h := sha256.Sum256([]byte(strings.Join(codes, ",")))
	return hex.EncodeToString(h[:])[:16]
}

// ReadHistory reads the nights kept in dir, oldest first.
func ReadHistory(dir string) ([]Night, error) {
	files, err := filepath.Glob(filepath.Join(dir, "nights", "*.json"))
	if err != nil {
		return nil, err
	}
	var out []Night
	for _, f := range files {
		b, err := safefs.ReadFile(f, maxReportBytes)
		if err != nil {
			return nil, fmt.Errorf("--history: %w", err)
		}
		var n Night
		if err := json.Unmarshal(b, &n); err != nil {
			return nil, fmt.Errorf("--history: %s: %w", f, err)
		}
		out = append(out, n)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Started.Before(out[j].Started) })
	return out, nil
}

// Series is one claim's verdicts or one headline metric's values across
// the nights of a history (Values[i] is the night's; "" where the night
// did not have it).
type Series struct {
	Config, Name string
	Claim        bool
	Values       []string
	nums         []float64
	// Moved is set when the last night's value differs from the one
	// before (a verdict, or a metric beyond the tolerance).
	Moved bool
}

// HistorySeries returns every claim's and headline metric's series over
// nights, in config order, claims first; o decides when a metric moved.
func HistorySeries(nights []Night, o report.CompareOptions) []Series {
	type id struct {
		config, name string
		claim        bool
	}
	var order []id
	at := map[id]*Series{}
	get := func(k id) *Series {
		s := at[k]
		if s == nil {
			s = &Series{Config: k.config, Name: k.name, Claim: k.claim, Values: make([]string, len(nights)), nums: make([]float64, len(nights))}
			for i := range s.nums {
				s.nums[i] = math.NaN()
			}
			at[k] = s
			order = append(order, k)
		}
		return s
	}
	for i, n := range nights {
		for _, c := range n.Configs {
			for _, cl := range sortedKeys(c.Claims) {
				get(id{c.Name, cl, true}).Values[i] = c.Claims[cl]
			}
			for _, m := range sortedKeys(c.Metrics) {
				s := get(id{c.Name, m, false})
				s.nums[i] = c.Metrics[m]
				s.Values[i] = strconv.FormatFloat(c.Metrics[m], 'g', 6, 64)
			}
		}
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if a.config != b.config {
			return a.config < b.config
		}
		if a.claim != b.claim {
			return a.claim
		}
		return a.name < b.name
	})
	out := make([]Series, 0, len(order))
	for _, k := range order {
		s := at[k]
		if last := len(nights) - 1; last > 0 {
			if s.Claim {
				s.Moved = s.Values[last] != s.Values[last-1]
			} else {
				a, b := s.nums[last-1], s.nums[last]
				s.Moved = (math.IsNaN(a) != math.IsNaN(b)) || math.Abs(b-a) > o.AbsTol+o.RelTol*math.Abs(a)
			}
		}
		out = append(out, *s)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// nightName is a night as the views head it: its date and revision.
func nightName(n Night) string {
	rev := n.Revision
	if len(rev) > 8 {
		rev = rev[:8]
	}
	return n.Started.Format("2006-01-02 15:04") + " " + rev
}

// WriteHistoryText writes the series that moved on the last night, each
// over the last shown nights, for a log: "config claim id: PASS PASS
// FAIL", "config metric · method: 0.1234 0.1234 0.1235".
func WriteHistoryText(w io.Writer, dir string, nights []Night, series []Series, shown int) {
	var names []string
	for _, n := range nights[max(0, len(nights)-shown):] {
		names = append(names, nightName(n))
	}
	fmt.Fprintf(w, "history: %s in %s (shown: %s)\n", plural(len(nights), "night"), dir, strings.Join(names, ", "))
	// Each night shown with its inputs' fingerprints, a * where one
	// changed from the night before, and which configs' did.
	first := max(0, len(nights)-shown)
	for i := first; i < len(nights); i++ {
		in := nights[i].Inputs()
		var ch map[string][]string
		if i > 0 {
			ch = InputChanges(nights[i-1], nights[i])
		}
		line := "  " + nightName(nights[i]) + ":"
		for _, what := range inputs {
			v := map[string]string{"config": in.Config, "code": in.Code, "data": in.Data}[what]
			if v == "" {
				v = report.Dash
			} else if len(v) > 8 {
				v = v[:8]
			}
			mark := " "
			if len(ch[what]) > 0 {
				mark = "*"
			}
			line += fmt.Sprintf(" %s %s%s", what, v, mark)
		}
		if s := changeNote(ch); s != "" {
			line = strings.TrimRight(line, " ") + " (" + s + ")"
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	var last map[string][]string
	if len(nights) > 1 {
		last = InputChanges(nights[len(nights)-2], nights[len(nights)-1])
	}
	moved := 0
	for _, s := range series {
		if !s.Moved {
			continue
		}
		moved++
		what := s.Name
		if s.Claim {
			what = "claim " + what
		}
		vals := s.Values[max(0, len(s.Values)-shown):]
		for i, v := range vals {
			if v == "" {
				vals[i] = report.Dash
			}
		}
		var why []string
		for _, x := range inputs {
			if slices.Contains(last[x], s.Config) {
				why = append(why, x)
			}
		}
		note := ""
		if len(why) > 0 {
			note = " [" + strings.Join(why, ", ") + " changed]"
		} else if len(nights) > 1 {
			note = " [config, code and data the same]"
		}
		fmt.Fprintf(w, "  %s %s: %s%s\n", s.Config, what, strings.Join(vals, " → "), note)
	}
	if moved == 0 {
		fmt.Fprintln(w, "  no claim or headline metric moved on the last night")
	}
}

// changeNote is "config changed: fig3; code changed: 12 configs".
func changeNote(ch map[string][]string) string {
	var parts []string
	for _, what := range inputs {
		cs := ch[what]
		switch {
		case len(cs) == 0:
		case len(cs) <= 3:
			parts = append(parts, what+" changed: "+strings.Join(cs, ", "))
		default:
			parts = append(parts, fmt.Sprintf("%s changed: %d configs", what, len(cs)))
		}
	}
	return strings.Join(parts, "; ")
}

// WriteHistoryPage writes dir/index.html: per config, every claim's
// verdicts and every headline metric's values across the nights, the
// last ones first moved marked.
func WriteHistoryPage(dir string, nights []Night, series []Series) (string, error) {
	type row struct {
		Name   string
		Claim  bool
		Moved  bool
		Values []string
	}
	type cfg struct {
		Name   string
		Rows   []row
		Inputs []inputRow
	}
	data := struct {
		Nights  []string
		Inputs  []inputRow
		Configs []cfg
	}{}
	for _, n := range nights {
		data.Nights = append(data.Nights, nightName(n))
	}
	data.Inputs = inputRows(nights, "")
	for _, s := range series {
		if len(data.Configs) == 0 || data.Configs[len(data.Configs)-1].Name != s.Config {
			data.Configs = append(data.Configs, cfg{Name: s.Config, Inputs: inputRows(nights, s.Config)})
		}
		c := &data.Configs[len(data.Configs)-1]
		c.Rows = append(c.Rows, row{Name: s.Name, Claim: s.Claim, Moved: s.Moved, Values: s.Values})
	}
	t, err := template.New("history").Parse(historyPage)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return "", err
	}
	file := filepath.Join(dir, "index.html")
	return file, report.WriteFileAtomic(file, b.Bytes())
}

// inputRow is an input's fingerprint night by night (of the whole
// night, or of one config), each cell marked where it changed.
type inputRow struct {
	Name  string
	Cells []inputCell
}

type inputCell struct {
	Value, Title string
	Changed      bool
}

// inputRows returns the config, code and data rows of the nights, or of
// config's in them.
func inputRows(nights []Night, config string) []inputRow {
	var out []inputRow
	for _, what := range inputs {
		r := inputRow{Name: what}
		for i, n := range nights {
			var v string
			if config == "" {
				in := n.Inputs()
				v = map[string]string{"config": in.Config, "code": in.Code, "data": in.Data}[what]
			} else {
				for _, c := range n.Configs {
					if c.Name == config {
						v = map[string]string{"config": c.ConfigSHA256, "code": c.Code, "data": c.Data}[what]
					}
				}
			}
			cell := inputCell{Value: report.Dash}
			if v != "" {
				cell.Value = v[:min(8, len(v))]
			}
			if i > 0 {
				cs := InputChanges(nights[i-1], n)[what]
				if config == "" && len(cs) > 0 || config != "" && slices.Contains(cs, config) {
					cell.Changed = true
					cell.Title = what + " changed: " + strings.Join(cs, ", ")
				}
			}
			r.Cells = append(r.Cells, cell)
		}
		out = append(out, r)
	}
	return out
}

const historyPage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>runexp history</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1em; }
table { border-collapse: collapse; display: block; overflow-x: auto; }
th, td { padding: 0.2em 0.5em; border-bottom: 1px solid #ddd; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; position: sticky; left: 0; background: #fff; }
tr.moved td:first-child { font-weight: bold; }
tr.moved td:last-child { background: #fde8e8; }
tr.input td { color: #555; font-family: monospace; }
td.changed { background: #fff3cd; font-weight: bold; }
</style>
</head>
<body>
<h1>runexp history</h1>
<p>{{len .Nights}} nights. Per config, each claim's verdict and each headline metric (the metrics the config's claims read, averaged over each method's cells) night by night; a row in bold moved on the last night. The config, code and data rows are fingerprints of the config files, of the code that computed the records and of the data files read; a marked one changed from the night before (its title says in which configs).</p>
{{- $nights := .Nights}}
<h2>Inputs</h2>
<table>
<thead><tr><th></th>{{range $nights}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Inputs}}
<tr class="input"><td>{{.Name}}</td>{{range .Cells}}<td{{if .Changed}} class="changed" title="{{.Title}}"{{end}}>{{.Value}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table>
{{- range .Configs}}
<h2>{{.Name}}</h2>
<table>
<thead><tr><th></th>{{range $nights}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{- range .Rows}}
<tr{{if .Moved}} class="moved"{{end}}><td>{{if .Claim}}claim {{end}}{{.Name}}</td>{{range .Values}}<td>{{if .}}{{.}}{{else}}—{{end}}</td>{{end}}</tr>
{{- end}}
{{- range .Inputs}}
<tr class="input"><td>{{.Name}}</td>{{range .Cells}}<td{{if .Changed}} class="changed" title="{{.Title}}"{{end}}>{{.Value}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table>
{{- end}}
</body>
</html>
`

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
