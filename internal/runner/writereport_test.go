package runner_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// reporter is an Instance whose Report writes the files named, then
// returns err; Run is never called by WriteReport.
type reporter struct {
	files []string
	err   error
}

func (reporter) Run(*runner.Cell, *report.Record) error { return nil }

func (r reporter) Report(out *runner.Output, recs []report.Record) error {
	for _, f := range r.files {
		if err := os.WriteFile(out.Path(f), []byte("x"), 0o644); err != nil {
			return err
		}
	}
	out.Path("asked-never-written.png")
	return r.err
}

// presenter is a reporter that also presents records: it keeps one
// reading of a report-only option, renaming mse_a to mse.
type presenter struct{ reporter }

func (presenter) Present(rec *report.Record) {
	rec.Metrics["mse"] = rec.Metrics["mse_a"]
	delete(rec.Metrics, "mse_a")
}

const reportConfig = `title: report test
paper: none
kind: fake-test
seed: 1
dataset: {name: none-test}
model: {kernel: gaussian, c: 1, components: 1}
methods:
  - {name: mika, label: Mine}
`

func recsOf(labels ...string) []report.Record {
	var out []report.Record
	for i, l := range labels {
		out = append(out, report.Record{Key: "method=" + l, Params: map[string]any{"method": l}, Status: report.StatusOK,
			Metrics: map[string]float64{"mse_a": float64(i + 1)}})
	}
	return out
}

// TestWriteReportOutputs checks what WriteReport writes and lists: the
// records as given, CSV, tables and the kind's files, listed sorted and
// only when written; no claims.json for a config without claims.
func TestWriteReportOutputs(t *testing.T) {
	c := parse(t, reportConfig)
	dir := filepath.Join(t.TempDir(), "run")
	sum, err := runner.WriteReport(dir, c, reporter{files: []string{"z.png", "a.svg"}}, recsOf("Mine"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a.svg", "records.csv", "records.jsonl", "tables.md", "tables.txt", "z.png"}
	if !slices.Equal(sum.Outputs, want) {
		t.Errorf("outputs %q, want %q", sum.Outputs, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "claims.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("claims.json for a config without claims: %v", err)
	}
	if sum.Cells != 1 || sum.Failed != 0 || len(sum.ReportErrors) != 0 {
		t.Errorf("summary %+v", sum)
	}
}

// TestWriteReportError checks a Report that returns an error: counted in
// ReportErrors (exit status 3), shown in the "Report problems" table, and
// everything else still written.
func TestWriteReportError(t *testing.T) {
	c := parse(t, reportConfig)
	dir := t.TempDir()
	sum, err := runner.WriteReport(dir, c, reporter{files: []string{"fig.png"}, err: errors.New("figure 2: no finite point")}, recsOf("Mine"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sum.ReportErrors, []string{"report: figure 2: no finite point"}) || sum.Crashed != 0 {
		t.Errorf("report errors %q, crashed %d", sum.ReportErrors, sum.Crashed)
	}
	md, err := os.ReadFile(filepath.Join(dir, "tables.md"))
	if err != nil || !strings.Contains(string(md), "### Report problems") || !strings.Contains(string(md), "report: figure 2: no finite point") {
		t.Errorf("tables.md does not show the problem (%v)", err)
	}
	if !slices.Contains(sum.Outputs, "fig.png") || !slices.Contains(sum.Outputs, "records.jsonl") {
		t.Errorf("outputs %q", sum.Outputs)
	}
}

// TestWriteReportPresents checks a Presenter: the records written, drawn
// and judged are the presented ones, and the caller's records (a cached
// cell, a shard's records) are left as they were.
func TestWriteReportPresents(t *testing.T) {
	src := reportConfig + `claims:
  - id: mse-one
    check: {type: value, metric: mse, where: {method: Mine}, op: "<=", value: 1}
`
	c := parse(t, src)
	dir := t.TempDir()
	recs := recsOf("Mine")
	sum, err := runner.WriteReport(dir, c, presenter{}, recs)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := recs[0].Metrics["mse_a"]; !ok || len(recs[0].Metrics) != 1 {
		t.Errorf("the caller's record was changed: %v", recs[0].Metrics)
	}
	back, err := report.ReadJSONL(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 1 || back[0].Metrics["mse"] != 1 || back[0].Metrics["mse_a"] != 0 {
		t.Errorf("records.jsonl holds %v, want the presented mse", back[0].Metrics)
	}
	if len(sum.Claims) != 1 || sum.Claims[0].Status != "PASS" {
		t.Errorf("claims %+v, want mse-one judged on the presented record", sum.Claims)
	}
	if _, err := os.Stat(filepath.Join(dir, "claims.json")); err != nil {
		t.Errorf("claims.json: %v", err)
	}
}

// TestWriteReportScopesClaims checks that the records of an estimator
// added with --with do not enter the claims, which name the config file's
// methods: a claim that the file's method is the best stays true when a
// better method is added.
func TestWriteReportScopesClaims(t *testing.T) {
	src := reportConfig + `claims:
  - id: mine-best
    check: {type: best, metric: mse_a, among: method, winner: Mine, sense: min}
`
	c := parse(t, src)
	c.Methods = append(c.Methods, config.Method{Name: "tikhonov", Label: "Better", Added: true})
	recs := []report.Record{recsOf("Mine")[0], {Key: "method=Better", Params: map[string]any{"method": "Better"}, Status: report.StatusOK, Metrics: map[string]float64{"mse_a": 0.5}}}
	sum, err := runner.WriteReport(t.TempDir(), c, reporter{}, recs)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Claims) != 1 || sum.Claims[0].Status != "PASS" {
		t.Errorf("claims %+v, want mine-best to pass on the file's records", sum.Claims)
	}
	if sum.Cells != 2 {
		t.Errorf("%d cells reported, want both", sum.Cells)
	}
	// Without the mark, the added record counts and the claim fails.
	c.Methods[1].Added = false
	sum, err = runner.WriteReport(t.TempDir(), c, reporter{}, recs)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Claims[0].Status != "FAIL" {
		t.Errorf("claim %+v, want FAIL when Better is the file's own", sum.Claims[0])
	}
}

func init() {
	runner.RegisterKind(runner.Kind{
		Name: "hint-test", Doc: "declares its metrics (the hints' tests)",
		Start: func(*runner.Env, any) (runner.Instance, error) { return reporter{}, nil },
		Metrics: func(*config.Config, any) []report.Metric {
			return []report.Metric{"mse_mean", "mse_median", "ape_mean", "snr_pooled"}
		},
	})
	var many []report.Metric
	for _, p := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n"} {
		many = append(many, report.Metric("metric_"+p+p+p))
	}
	runner.RegisterKind(runner.Kind{
		Name: "hint-many-test", Doc: "declares fourteen metrics (the hints' tests)",
		Start:   func(*runner.Env, any) (runner.Instance, error) { return reporter{}, nil },
		Metrics: func(*config.Config, any) []report.Metric { return many },
	})
}

// TestMetricHints checks the refusal of a claim or a reference value
// naming a metric the kind does not record, at its line, with the closest
// names it does record, or else the names it records (the first twelve
// of a long list and the count).
func TestMetricHints(t *testing.T) {
	head := "title: t\npaper: none\nkind: %s\nseed: 1\ndataset: {name: none-test}\nmodel: {kernel: gaussian, c: 1, components: 1}\nmethods:\n  - {name: mika}\n"
	for _, tc := range []struct{ kind, tail, want string }{
		{"hint-test", "claims:\n  - id: c\n    check: {type: value, metric: mse_meen, op: \"<\", value: 1}\n",
			`fake.yaml:11: claim c: metric: "mse_meen" is not a metric this experiment records`},
		{"hint-test", "claims:\n  - id: c\n    check: {type: value, metric: mse_meen, op: \"<\", value: 1}\n",
			"; did you mean mse_mean?"},
		{"hint-test", "claims:\n  - id: c\n    check: {type: value, metric: zzz, op: \"<\", value: 1}\n",
			"; it records ape_mean, mse_mean, mse_median, snr_pooled"},
		{"hint-many-test", "claims:\n  - id: c\n    check: {type: value, metric: zzz, op: \"<\", value: 1}\n",
			"; it records metric_aaa, metric_bbb, metric_ccc, metric_ddd, metric_eee, metric_fff, metric_ggg, metric_hhh, metric_iii, metric_jjj, metric_kkk, metric_lll, … (14 names)"},
		{"hint-test", "reference:\n  - {source: s, metric: snr_poold, cell: {c: 1}, value: 1}\n",
			`fake.yaml:10: reference[0]: metric "snr_poold" is not a metric this experiment records; did you mean snr_pooled?`},
		{"hint-test", "claims:\n  - id: c\n    expect: fail\n    because: \"{metric:mse_meen}\"\n    check: {type: value, metric: mse_mean, op: \"<\", value: 1}\n",
			`fake.yaml:10: claim c: because: {metric:mse_meen} is not a metric this experiment records; did you mean mse_mean?`},
		{"hint-test", "claims:\n  - id: c\n    defect: {kind: threshold, evidence: \"{metric:snr_poold}\"}\n    check: {type: value, metric: mse_mean, op: \"<\", value: 1}\n",
			`fake.yaml:11: claim c: defect: {metric:snr_poold} is not a metric this experiment records; did you mean snr_pooled?`},
		{"hint-test", "paper_table: {title: T, corner: M, rows: [r], columns: [k]}\nreference:\n  - {source: s, row: r, column: k, metric: mse_mean, std: mse_sd, cell: {c: 1}, value: 1}\n",
			`fake.yaml:11: reference[0]: metric "mse_sd" is not a metric this experiment records`},
	} {
		src := strings.Replace(head, "%s", tc.kind, 1) + tc.tail
		_, err := runner.Validate(parse(t, src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s%s: error %v, want %q", tc.kind, tc.tail, err, tc.want)
		}
	}
	ok := strings.Replace(head, "%s", "hint-test", 1) + "claims:\n  - id: c\n    check: {type: value, metric: mse_mean, op: \"<\", value: 1}\n"
	if _, err := runner.Validate(parse(t, ok)); err != nil {
		t.Errorf("a declared metric: %v", err)
	}
}

// plotter is an Instance whose Report draws with the Output's helpers:
// a plot and a grid of plots under the names given, their size from the
// config, and a file it wrote itself added by its absolute path.
type plotter struct {
	plot, grid string
	size       *[2]vg.Length
}

func (plotter) Run(*runner.Cell, *report.Record) error { return nil }

func (p plotter) Report(out *runner.Output, _ []report.Record) error {
	w, h := out.Size(5*vg.Centimeter, 4*vg.Centimeter)
	*p.size = [2]vg.Length{w, h}
	pl := report.NewPanel("x")
	if err := out.SavePlot(pl, w, h, p.plot); err != nil {
		return err
	}
	if err := out.SaveGrid([][]*plot.Plot{{report.NewPanel("a"), report.NewPanel("b")}}, w, h, p.grid); err != nil {
		return err
	}
	own := filepath.Join(out.Dir, "own.csv")
	if err := os.WriteFile(own, []byte("a\n"), 0o644); err != nil {
		return err
	}
	out.Add(own)
	return nil
}

// TestOutputHelpers checks the Output a kind draws into: figures written
// as PNG and SVG and listed, a file added by its absolute path listed by
// its name, the panel size from the config's outputs (centimetres) or
// the kind's default, and a figure name that would leave the result
// directory refused as a report error.
func TestOutputHelpers(t *testing.T) {
	var size [2]vg.Length
	c := parse(t, reportConfig+"outputs: {width: 7}\n")
	dir := t.TempDir()
	sum, err := runner.WriteReport(dir, c, plotter{plot: "fig1", grid: "grid", size: &size}, recsOf("Mine"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"fig1.png", "fig1.svg", "grid.png", "grid.svg", "own.csv"} {
		if !slices.Contains(sum.Outputs, f) {
			t.Errorf("outputs %q lack %s", sum.Outputs, f)
		}
	}
	if size != [2]vg.Length{7 * vg.Centimeter, 4 * vg.Centimeter} {
		t.Errorf("panel size %v, want 7 cm (outputs.width) by the default 4 cm", size)
	}
	sum, err = runner.WriteReport(t.TempDir(), c, plotter{plot: "../escape", grid: "grid", size: &size}, recsOf("Mine"))
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.ReportErrors) != 1 || !strings.Contains(sum.ReportErrors[0], `figure "../escape" refused`) {
		t.Errorf("report errors %q, want the escaping figure refused", sum.ReportErrors)
	}
	sum, err = runner.WriteReport(t.TempDir(), c, plotter{plot: "ok", grid: "sub/grid", size: &size}, recsOf("Mine"))
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.ReportErrors) != 1 || !strings.Contains(sum.ReportErrors[0], `figure "sub/grid" refused`) {
		t.Errorf("report errors %q, want the grid in a subfolder refused", sum.ReportErrors)
	}
}
