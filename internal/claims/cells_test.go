package claims_test

import (
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/report"
)

// TestInvolves: a claim reads its metric of the cells its where selects,
// and of a compare or ratio check only its left and right cells.
func TestInvolves(t *testing.T) {
	cell := func(method string, s float64) *report.Record {
		return &report.Record{Params: map[string]any{"method": method, "s": s}}
	}
	cmp := claim(t, `{type: compare, metric: mse, op: "<", left: {method: a}, right: {method: b, s: 5}}`)
	best := claim(t, `{type: best, metric: mse, winner: a, where: {method: [a, b]}}`)
	for _, tc := range []struct {
		name   string
		rec    *report.Record
		metric string
		want   bool
	}{
		{"compare left", cell("a", 1), "mse", true},
		{"compare right", cell("b", 5), "mse", true},
		{"compare neither", cell("b", 3), "mse", false},
		{"other metric", cell("a", 1), "snr", false},
	} {
		if got := claims.Involves(cmp, tc.rec, tc.metric); got != tc.want {
			t.Errorf("%s: Involves = %v, want %v", tc.name, got, tc.want)
		}
	}
	if !claims.Involves(best, cell("b", 1), "mse") || claims.Involves(best, cell("c", 1), "mse") {
		t.Error("best: want the cells of where, and only those")
	}
}
