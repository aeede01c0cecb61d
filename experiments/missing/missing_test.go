package missing_test

import (
	"context"
	"github.com/runexp/runexp/experiments/internal/kindtest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/runexp/runexp/experiments" // the kinds and the synthetic-images dataset
	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

func run(t *testing.T, src string) ([]report.Record, *runner.Summary) {
	t.Helper()
	return kindtest.Run(t, src)
}

const head = `title: missing test
paper: test
kind: missing
seed: 4
`

// TestMissingIdenticalRows: one subject under one lighting with no noise
// gives identical images, so the observed mean of every attribute, and
// every neighbour's value, is the deleted value itself: both imputers must
// score exactly 0 at every p(del). PPCA on noisy classes must do better
// than nothing and report its numbers beside the paper's row.
func TestMissingIdenticalRows(t *testing.T) {
	src := head + `dataset: {name: synthetic-images, classes: 1, groups: 1, per_cell: 12, noise: 0}
methods: [{name: impute-mean, label: mean}, {name: impute-nn, label: 1-NN}]
experiment:
  p_del: [0.1, 0.3]
  repetitions: 3
  points: 10
  paper_rows:
    - {label: PKPCA, source: "Sanguinetti & Lawrence", mean: [1.5, NA], std: [0.5, NA]}
`
	recs, sum := run(t, src)
	if sum.Failed != 0 || len(recs) != 2 {
		t.Fatalf("%d records, %d failed", len(recs), sum.Failed)
	}
	kindtest.Metrics(t, src, recs)
	for _, r := range recs {
		// 1-NN copies the value: exactly 0. The mean of 10 equal values in
		// floating point is off by at most 10ε·|v| (|v| ≤ 1), squared
		// ≤ 5e-30 per entry, over at most 10×64 entries: below 1e-26.
		tol := 0.0
		if r.Params["method"] == "mean" {
			tol = 1e-26
		}
		for _, k := range []string{"err_mean_p10", "err_std_p10", "err_mean_p30", "err_std_p30"} {
			if v, ok := r.Metrics[k]; !ok || !(v >= 0 && v <= tol) {
				t.Errorf("%v: %s = %v, want 0 (within %g)", r.Params["method"], k, v, tol)
			}
		}
	}
	tables, err := os.ReadFile(filepath.Join(sum.Dir, "tables.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"PKPCA (paper)", "NA", "Sanguinetti & Lawrence"} {
		if !strings.Contains(string(tables), want) {
			t.Errorf("tables.md lacks %q", want)
		}
	}
}

// TestMissingSubjects: on four noisy subjects the error of mean
// imputation is positive and the same draws are shared by every method
// (paired): 1-NN, which copies a value of the same subject, beats the mean
// over all subjects.
func TestMissingSubjects(t *testing.T) {
	recs, sum := run(t, head+`dataset: {name: synthetic-images, classes: 4, groups: 1, per_cell: 6, noise: 0.01}
methods: [{name: impute-mean, label: mean}, {name: impute-nn, label: 1-NN}, {name: ppca, params: {latent: 2, max_iter: 100}}]
experiment: {p_del: [0.2], repetitions: 4, points: 20}
`)
	if sum.Failed != 0 || len(recs) != 3 {
		t.Fatalf("%d records, %d failed", len(recs), sum.Failed)
	}
	m := map[string]float64{}
	for _, r := range recs {
		m[r.Params["method"].(string)] = r.Metrics["err_mean_p20"]
	}
	if !(m["mean"] > 0) || !(m["1-NN"] < m["mean"]) {
		t.Errorf("squared errors %v: want 0 < 1-NN < mean", m)
	}
}

func TestMissingConfigErrors(t *testing.T) {
	base := head + "dataset: {name: synthetic-images}\n"
	for _, tc := range []struct{ methods, exp, want string }{
		{"[{name: impute-mean}]", "{repetitions: 2}", "needs p_del"},
		{"[{name: impute-mean}]", "{p_del: [0.125]}", "whole percent"},
		{"[{name: impute-mean}]", "{p_del: [1.5]}", "whole percent"},
		{"[{name: linear-pca}]", "{p_del: [0.1]}", "does not impute"},
		{"[{name: impute-mean}]", "{p_del: [0.1], paper_rows: 3}", "want a list"},
		{"[{name: impute-mean}]", "{p_del: [0.1], paper_rows: [{label: x}]}", "want label, source"},
		{"[{name: impute-mean}]", "{p_del: [0.1], paper_rows: [{label: x, source: y, mean: [1, 2], std: [1]}]}", "want 1 numbers"},
		{"[{name: impute-mean}]", "{p_del: [0.1], paper_rows: [{label: x, source: y, mean: [z], std: [1]}]}", "numbers or NA"},
	} {
		c, err := config.Parse("bad.yaml", []byte(base+"methods: "+tc.methods+"\nexperiment: "+tc.exp+"\n"))
		if err == nil {
			_, err = runner.Validate(c)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("methods %s, experiment %s: error %v, want one containing %q", tc.methods, tc.exp, err, tc.want)
		}
	}
	// More points than the data has: an error from start, with the key.
	c, err := config.Parse("bad.yaml", []byte(base+"methods: [{name: impute-mean}]\nexperiment: {p_del: [0.1], points: 1000}\n"))
	if err != nil {
		t.Fatal(err)
	}
	c.Outputs.Dir = t.TempDir()
	if _, err := runner.Run(context.Background(), c, runner.Options{NoCache: true}); err == nil || !strings.Contains(err.Error(), "points") {
		t.Errorf("1000 points of 36: error %v", err)
	}
}

// TestMissingRepetitionIntervals: each record holds the error of every
// repetition (err_p20, paired across methods: the same subsets and
// masks), whose mean and sample standard deviation are the recorded
// err_mean_p20 and err_std_p20; a best claim on err_mean_p20 is judged on
// the paired bootstrap interval over the repetitions. 1-NN copies a value
// of the same subject and beats the mean over all subjects by far more
// than the spread of 12 repetitions.
func TestMissingRepetitionIntervals(t *testing.T) {
	recs, sum := run(t, head+`dataset: {name: synthetic-images, classes: 4, groups: 1, per_cell: 6, noise: 0.01}
methods: [{name: impute-mean, label: mean}, {name: impute-nn, label: 1-NN}]
experiment: {p_del: [0.2], repetitions: 12, points: 20}
claims:
  - id: c3-best
    statement: 1-NN has the lowest error.
    check: {type: best, metric: err_mean_p20, among: method, winner: 1-NN, sense: min}
`)
	for _, r := range recs {
		e := r.Arrays["err_p20"]
		if len(e) != 12 {
			t.Fatalf("%v: %d per-repetition errors, want 12", r.Params["method"], len(e))
		}
		if got, want := metrics.Mean(e), r.Metrics["err_mean_p20"]; got != want {
			t.Errorf("%v: mean of err_p20 %v, err_mean_p20 %v", r.Params["method"], got, want)
		}
		if got, want := metrics.Std(e), r.Metrics["err_std_p20"]; got != want {
			t.Errorf("%v: std of err_p20 %v, err_std_p20 %v", r.Params["method"], got, want)
		}
	}
	if len(sum.Claims) != 1 {
		t.Fatalf("%d claims", len(sum.Claims))
	}
	c := sum.Claims[0]
	if c.Basis != "interval" || c.Verdict != claims.Pass || !strings.Contains(c.CIMethod, "repetitions") || c.CIItems == nil || *c.CIItems != 12 {
		t.Errorf("claim %s (%s), method %q, items %v; evidence %s", c.Verdict, c.Basis, c.CIMethod, c.CIItems, c.Evidence)
	}
}
