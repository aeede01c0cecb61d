package stability_test

import (
	"github.com/runexp/runexp/experiments/internal/kindtest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/runexp/runexp/experiments" // the kinds and the synthetic-images dataset
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

func run(t *testing.T, src string) ([]report.Record, *runner.Summary) {
	t.Helper()
	return kindtest.Run(t, src)
}

const head = `title: stability test
paper: test
kind: stability
seed: 2
dataset: {name: synthetic-images, classes: 3, groups: 1, per_cell: 6, test_per_cell: 2, noise: 0.01}
corruption: {type: gaussian, std: 0.05}
`

func TestStabilitySynthetic(t *testing.T) {
	recs, sum := run(t, head+`model: {kernel: gaussian, c: [0.5, 1000], components: 3}
methods:
  - {name: mika, label: Mika, params: {max_iter: 5000, tol: 1.0e-12}}
  - {name: honeine-richard, label: HR}
experiment: {starts: 5}
`)
	if sum.Failed != 0 || len(recs) != 4 {
		t.Fatalf("%d records, %d failed", len(recs), sum.Failed)
	}
	for _, r := range recs {
		m, c := r.Metrics, r.Params["c"]
		switch {
		case r.Params["method"] == "HR":
			// Honeine–Richard is direct: it never reads the start, so the
			// 5 solutions of an input are one point (up to the rounding of
			// the batched product) and nothing is "not converged".
			if !(m["spread_p95"] <= 1e-12) || m["nonconverged_rows"] != 0 {
				t.Errorf("HR c=%v: spread up to %v, %v rows not converged; want 0, 0", c, m["spread_p95"], m["nonconverged_rows"])
			}
		case c == 1000:
			// Nearly linear kernel: one minimum, every start converges to
			// it (tol 1e-12 on the step), so the spread is rounding only.
			if !(m["spread_p95"] <= 1e-9) {
				t.Errorf("Mika c=1000: spread up to %v, want 0 (≤ 1e-9)", m["spread_p95"])
			}
		default:
			// c = 0.5 on 8×8 images (squared distances ≈ 1–4): several
			// local minima, the starts disagree (A&H Fig. 5, small c).
			if !(m["spread_mean"] > 1e-3) {
				t.Errorf("Mika c=%v: mean spread %v, want the starts to disagree", c, m["spread_mean"])
			}
		}
		if len(r.Arrays["spread"]) != 6 {
			t.Errorf("%d per-input spreads, want one per test input (6)", len(r.Arrays["spread"]))
		}
	}
	for _, f := range []string{"fig5-stability.png", "tables.md"} {
		if _, err := os.Stat(filepath.Join(sum.Dir, f)); err != nil {
			t.Error(err)
		}
	}
	// Every spread metric is its declared statistic of the per-input
	// spreads (Kind.Items), so claims on it get intervals.
	k, _ := runner.LookupKind("stability")
	for _, r := range recs {
		for _, metric := range []string{"spread_mean", "spread_p5", "spread_median", "spread_p95"} {
			st, ok := k.Items(&r, metric)
			if !ok {
				t.Fatalf("%s not declared", metric)
			}
			var x []float64
			for _, v := range r.Arrays[st.Array] {
				if v == v {
					x = append(x, v)
				}
			}
			if got, want := st.Stat(&r, x), r.Metrics[metric]; got != want {
				t.Errorf("%v c=%v: %s from the spreads %v, recorded %v", r.Params["method"], r.Params["c"], metric, got, want)
			}
		}
	}
}

// TestStabilityClaimInterval: "HR is less spread than Mika at c = 0.5" is
// judged on the paired bootstrap interval over the 6 test inputs.
func TestStabilityClaimInterval(t *testing.T) {
	_, sum := run(t, head+`model: {kernel: gaussian, c: [0.5], components: 3}
methods:
  - {name: mika, label: Mika, params: {max_iter: 5000, tol: 1.0e-12}}
  - {name: honeine-richard, label: HR}
experiment: {starts: 5}
claims:
  - id: c4
    statement: HR is stable where Mika is not.
    check: {type: compare, metric: spread_mean, left: {method: HR}, op: "<", right: {method: Mika}}
`)
	if len(sum.Claims) != 1 || sum.Claims[0].Basis != "interval" || !strings.Contains(sum.Claims[0].CIMethod, "test inputs") {
		t.Errorf("claims %+v", sum.Claims)
	}
}

func TestStabilityConfigErrors(t *testing.T) {
	for _, tc := range []struct{ methods, exp, want string }{
		{"[{name: robust-pca}]", "{}", "not a pre-image estimator"},
		{"[{name: mika}]", "{starts: 1}", "starts"},
		{"[]", "{}", "iterative pre-image estimators"},
	} {
		c, err := config.Parse("bad.yaml", []byte(head+"model: {kernel: gaussian, c: 1, components: 2}\nmethods: "+tc.methods+"\nexperiment: "+tc.exp+"\n"))
		if err == nil {
			_, err = runner.Validate(c)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("methods %s, experiment %s: error %v, want one containing %q", tc.methods, tc.exp, err, tc.want)
		}
	}
}
