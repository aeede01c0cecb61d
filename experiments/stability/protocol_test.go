package stability_test

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// The echoing pre-imagers (kindtest.Echo) answer each row with its
// start: the spread of an input's solutions is then the spread of its
// start points, which a test can compute by hand. Row r is start r%5 of
// input r/5. "echo" fails nothing and stops the odd rows short of
// convergence; "fail-first" fails input 2's starts, input 4's but its
// first, and every input's last; "fail-all" fails every row.
func init() {
	kindtest.RegisterEcho("stability-test-echo", "stability-test-echo", kindtest.Echo{NotConverged: func(r int) bool { return r%2 == 1 }})
	kindtest.RegisterEcho("stability-test-echo-fail-first", "stability-test-echo-fail-first", kindtest.Echo{Fail: func(r int) bool {
		return r%5 == 4 || r/5 == 2 || (r/5 == 4 && r%5 > 0)
	}})
	kindtest.RegisterEcho("stability-test-echo-fail-all", "stability-test-echo-fail-all", kindtest.Echo{Fail: func(int) bool { return true }})
}

const echoConfig = head + `model: {kernel: gaussian, c: [0.5, 1000], components: 3}
methods:
  - {name: stability-test-echo, label: Echo}
experiment: {starts: 5}
`

// TestStartsShared checks the protocol of the package doc by hand: each
// test input's 5 starts are the first 5 of a permutation of the 18
// training rows drawn from the run's stream "starts", input by input, and
// the same starts serve every kernel width (a paired comparison). With a
// pre-imager that answers its start, each input's spread must be the mean
// pairwise distance of its start points, at both widths.
func TestStartsShared(t *testing.T) {
	recs, _ := kindtest.Run(t, echoConfig)
	kindtest.Metrics(t, echoConfig, recs)
	c, err := config.Parse("test.yaml", []byte(echoConfig))
	if err != nil {
		t.Fatal(err)
	}
	env := runner.NewEnv(c, "", nil)
	d, err := env.LoadData()
	if err != nil {
		t.Fatal(err)
	}
	n, _ := d.Train.X.Dims()
	m, _ := d.Test.X.Dims()
	if n != 12 || m != 6 {
		t.Fatalf("%d training and %d test rows, want 3 classes × (6 − 2) and × 2", n, m)
	}
	rnd := env.Rand("starts")
	want := make([]float64, m)
	for i := range want {
		var pts [][]float64
		for _, j := range rnd.Perm(n)[:5] {
			pts = append(pts, d.Train.X.RawRowView(j))
		}
		want[i] = metrics.MeanPairwiseDistance(pts)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want one per c", len(recs))
	}
	for _, r := range recs {
		got := r.Arrays["spread"]
		// The same arithmetic on the same rows: equal to rounding.
		for i := range want {
			if len(got) != m || math.Abs(got[i]-want[i]) > 1e-12*want[i] {
				t.Fatalf("c=%v: spreads %v, want %v by hand", r.Params["c"], got, want)
			}
		}
		if s := metrics.Summarize(want); r.Metrics["spread_mean"] != s.Mean || r.Metrics["spread_p95"] != s.P95 {
			t.Errorf("c=%v: spread_mean %v, p95 %v; want %v, %v", r.Params["c"], r.Metrics["spread_mean"], r.Metrics["spread_p95"], s.Mean, s.P95)
		}
		// Rows 1, 3, … of the 30 did not converge after an iteration.
		if r.Metrics["nonconverged_rows"] != 15 || r.Metrics["failed_rows"] != 0 || r.Status != report.StatusOK {
			t.Errorf("c=%v: %v not converged, %v failed, status %s; want 15, 0, ok", r.Params["c"], r.Metrics["nonconverged_rows"], r.Metrics["failed_rows"], r.Status)
		}
	}
}

// TestFailedStarts checks failed rows: an input that keeps fewer than two
// solutions has no spread (NaN in the per-input array) and is left out of
// the summary, the failures are counted with their reason, and the cell
// is partial; a cell where no input keeps two solutions fails, and its
// table row shows dashes and the reason.
func TestFailedStarts(t *testing.T) {
	src := strings.Replace(echoConfig, "c: [0.5, 1000]", "c: 1000", 1)
	src = strings.Replace(src, "  - {name: stability-test-echo, label: Echo}\n",
		"  - {name: stability-test-echo-fail-first, label: Some}\n  - {name: stability-test-echo-fail-all, label: All}\n", 1)
	recs, sum := kindtest.Run(t, src)
	if len(recs) != 2 {
		t.Fatalf("%d records", len(recs))
	}
	some, all := recs[0], recs[1]
	// Input 2 fails all 5 starts, input 4 all but its first, the other
	// four inputs their last: 5 + 4 + 4·1 = 13 failed rows; inputs 2 and
	// 4 have no spread (one point has no pairwise distance).
	sp := some.Arrays["spread"]
	if some.Status != report.StatusPartial || some.Metrics["failed_rows"] != 13 || len(sp) != 6 || !math.IsNaN(sp[2]) || !math.IsNaN(sp[4]) {
		t.Fatalf("Some: status %s, %v failed rows, spreads %v; want partial, 13, inputs 2 and 4 NaN", some.Status, some.Metrics["failed_rows"], sp)
	}
	kept := slices.DeleteFunc(slices.Clone(sp), math.IsNaN)
	if got, want := some.Metrics["spread_mean"], metrics.Summarize(kept).Mean; len(kept) != 4 || got != want {
		t.Errorf("Some: spread_mean %v, want the mean over the 4 inputs that kept two solutions, %v", got, want)
	}
	if got := some.FailureCounts(); got != "13 × echo: told to fail" {
		t.Errorf("Some: failure counts %q", got)
	}
	if all.Status != report.StatusFailed || !strings.Contains(all.Error, "no test input kept two successful solutions") {
		t.Errorf("All: status %s, error %q", all.Status, all.Error)
	}
	tb := kindtest.FindTable(t, kindtest.Tables(t, sum.Dir), "Fig. 5: spread of the pre-images")
	want := []string{"method", "c", "#PCs", "mean", "5th pct", "median", "95th pct", "failed rows", "not converged", "status"}
	if !slices.Equal(tb.Header, want) || len(tb.Rows) != 2 {
		t.Fatalf("table %q %q", tb.Header, tb.Rows)
	}
	if got := tb.Rows[0]; got[0] != "Some" || got[1] != "1000" || got[7] != "13" || got[9] != "partial" {
		t.Errorf("Some's row %q", got)
	}
	if got := tb.Rows[1]; !slices.Equal(got[2:9], []string{"—", "—", "—", "—", "—", "—", "—"}) || !strings.HasPrefix(got[9], "failed: ") {
		t.Errorf("All's row %q: want dashes and the failure", got)
	}
}

// TestSameWhateverWorkers checks that the records, tables and figure do
// not depend on the number of cell workers.
func TestSameWhateverWorkers(t *testing.T) {
	kindtest.SameWhateverWorkers(t, "stability.yaml", head+`model: {kernel: gaussian, c: [0.5, 2, 1000], components: 3}
methods:
  - {name: mika, label: Mika, params: {max_iter: 200}}
  - {name: stability-test-echo, label: Echo}
experiment: {starts: 5}
`)
}

// TestTooManyStarts checks that more starts than training points is an
// error at the config's line of experiment.starts, not a panic in the
// permutation.
func TestTooManyStarts(t *testing.T) {
	src := strings.Replace(echoConfig, "experiment: {starts: 5}", "experiment:\n  starts: 13", 1)
	line := 1 + strings.Count(src[:strings.Index(src, "starts: 13")], "\n")
	err := kindtest.StartError(t, "many.yaml", src)
	want := "many.yaml:" + strconv.Itoa(line) + ": experiment.starts: 13 starts but only 12 training points"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
}

// TestZoomMaxRefused checks that a negative close-up limit is refused when
// the config is validated.
func TestZoomMaxRefused(t *testing.T) {
	src := strings.Replace(echoConfig, "experiment: {starts: 5}", "experiment: {starts: 5, zoom_max: -1}", 1)
	c, err := config.Parse("zoom.yaml", []byte(src))
	if err == nil {
		_, err = runner.Validate(c)
	}
	if err == nil || !strings.Contains(err.Error(), "zoom_max") || !strings.HasPrefix(err.Error(), "zoom.yaml:") {
		t.Errorf("error %v, want zoom.yaml:LINE: … zoom_max", err)
	}
}
