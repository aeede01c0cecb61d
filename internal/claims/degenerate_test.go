package claims_test

import (
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/report"
)

func degRec(method string, c float64, own map[string]any, mse float64) report.Record {
	p := map[string]any{"method": method, "c": c}
	for k, v := range own {
		p[k] = v
	}
	return report.Record{Params: p, Metrics: map[string]float64{"mse_median": mse}}
}

// TestDegenerate flags a cell of the model grid in which every estimator
// scores the same, and nothing else: each method's own parameters do not
// split a cell, one method alone is no comparison.
func TestDegenerate(t *testing.T) {
	kt := map[string]any{"neighbors": 10}
	for _, tc := range []struct {
		name string
		recs []report.Record
		want string // prefix; "" for none
	}{
		{"every estimator 0", []report.Record{degRec("A", 1, nil, 0), degRec("B", 1, kt, 0), degRec("A", 2, nil, 0), degRec("B", 2, kt, 0)},
			"degenerate: every estimator scores 0 in 2 of 2 cells of mse_median"},
		{"one cell equal", []report.Record{degRec("A", 1, nil, 0.5), degRec("B", 1, kt, 0.5), degRec("A", 2, nil, 0.1), degRec("B", 2, kt, 0.2)},
			"degenerate: every estimator scores 0.5 in 1 of 2 cells"},
		{"all differ", []report.Record{degRec("A", 1, nil, 0.5), degRec("B", 1, kt, 0.4)}, ""},
		// tol is each estimator's own: A's 1e-9 and B's 1e-6 do not make
		// two cells of one.
		{"own parameters", []report.Record{degRec("A", 1, map[string]any{"tol": 1e-9}, 0), degRec("B", 1, map[string]any{"tol": 1e-6}, 0), degRec("C", 1, map[string]any{"tol": 1e-6}, 0.5)}, ""},
		{"one method", []report.Record{degRec("A", 1, nil, 0), degRec("A", 2, nil, 0)}, ""},
	} {
		got := claims.Degenerate(tc.recs, "mse_median", nil)
		if (tc.want == "") != (got == "") || !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
