package localminima_test

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// The echoing pre-imagers answer each start with itself: the solutions
// are then the training points, whose distances and clusters the test
// computes by hand. "half" fails the even starts, "all" every start.
func init() {
	kindtest.RegisterEcho("localminima-test-echo", "Echo", kindtest.Echo{NotConverged: func(r int) bool { return r < 5 }})
	kindtest.RegisterEcho("localminima-test-half", "Half", kindtest.Echo{Fail: func(r int) bool { return r%2 == 0 }})
	kindtest.RegisterEcho("localminima-test-all", "All", kindtest.Echo{Fail: func(int) bool { return true }})
}

const echoConfig = head + `model: {kernel: gaussian, c: 5, components: 5}
methods:
  - {name: localminima-test-echo}
  - {name: localminima-test-half}
  - {name: localminima-test-all}
experiment: {point: [0.5, -0.25], distinct_tol: 1.0e-3}
`

// TestStartsByHand checks the measures of Fig. 3 on solutions known by
// hand: with every start its own answer, the 80 solutions are the 80
// training points of the rings, so the mean distance to x0 is theirs and
// there are as many distinct solutions as distinct points (the rings'
// points are far more than 10⁻³ apart); a start that failed is counted,
// its cost NaN in the record, the cell partial and the measures over the
// others; a cell whose every start fails is a failed cell.
func TestStartsByHand(t *testing.T) {
	recs, sum := kindtest.Run(t, echoConfig)
	c, err := config.Parse("test.yaml", []byte(echoConfig))
	if err != nil {
		t.Fatal(err)
	}
	d, err := runner.NewEnv(c, "", nil).LoadData()
	if err != nil {
		t.Fatal(err)
	}
	x := d.Train.X
	n, _ := x.Dims()
	x0 := []float64{0.5, -0.25}
	meanDist := func(rows []int) float64 {
		var s float64
		for _, i := range rows {
			s += floats.Distance(x.RawRowView(i), x0, 2)
		}
		return s / float64(len(rows))
	}
	all, odd := make([]int, n), []int{}
	for i := range all {
		all[i] = i
		if i%2 == 1 {
			odd = append(odd, i)
		}
	}
	echo, half, none := recs[0], recs[1], recs[2]
	if sum.Failed != 1 {
		t.Errorf("%d failed cells, want 1", sum.Failed)
	}
	// Sums of 80 distances in another order: 1e-12 relative.
	if got, want := echo.Metrics["mean_distance_to_x0"], meanDist(all); math.Abs(got-want) > 1e-12*want {
		t.Errorf("Echo: mean distance to x0 %v, want %v", got, want)
	}
	if echo.Metrics["distinct_preimages"] != float64(n) || echo.Metrics["largest_cluster_fraction"] != 1/float64(n) {
		t.Errorf("Echo: %v distinct, largest cluster %v; want %d, 1/%d", echo.Metrics["distinct_preimages"], echo.Metrics["largest_cluster_fraction"], n, n)
	}
	if echo.Metrics["nonconverged_rows"] != 5 || echo.Metrics["failed_rows"] != 0 || echo.Status != report.StatusOK {
		t.Errorf("Echo: %v not converged, %v failed, %s", echo.Metrics["nonconverged_rows"], echo.Metrics["failed_rows"], echo.Status)
	}
	if !slices.Equal(echo.Arrays["z"], x.RawMatrix().Data) {
		t.Error("Echo: the recorded solutions are not the training points")
	}
	if echo.Metrics["cost_min"] > echo.Metrics["cost_median"] || echo.Metrics["cost_median"] > echo.Metrics["cost_max"] {
		t.Errorf("Echo: costs min %v, median %v, max %v out of order", echo.Metrics["cost_min"], echo.Metrics["cost_median"], echo.Metrics["cost_max"])
	}

	if half.Status != report.StatusPartial || half.Metrics["failed_rows"] != float64(n/2) || half.FailureCounts() != "40 × echo: told to fail" {
		t.Errorf("Half: %s, %v failed, %q", half.Status, half.Metrics["failed_rows"], half.FailureCounts())
	}
	if got, want := half.Metrics["mean_distance_to_x0"], meanDist(odd); math.Abs(got-want) > 1e-12*want {
		t.Errorf("Half: mean distance to x0 %v, want %v over the odd starts", got, want)
	}
	cost := half.Arrays["cost"]
	for i, v := range cost {
		if (i%2 == 0) != math.IsNaN(v) {
			t.Errorf("Half: cost of start %d is %v", i, v)
			break
		}
	}
	if half.Metrics["distinct_preimages"] != float64(n/2) {
		t.Errorf("Half: %v distinct, want %d", half.Metrics["distinct_preimages"], n/2)
	}
	if none.Status != report.StatusFailed || !strings.Contains(none.Error, "every start failed") {
		t.Errorf("All: %s, %q", none.Status, none.Error)
	}

	tb := kindtest.FindTable(t, kindtest.Tables(t, sum.Dir), "Fig. 3: pre-images of x0")
	if len(tb.Rows) != 3 || tb.Rows[0][3] != "80" || tb.Rows[1][10] != "40" || tb.Rows[2][2] != "—" || !strings.HasPrefix(tb.Rows[2][3], "failed: every start failed") {
		t.Errorf("table rows %q", tb.Rows)
	}
}

// TestWideTolerance checks the clustering radius: with distinct_tol
// beyond the rings' diameter every solution is one cluster.
func TestWideTolerance(t *testing.T) {
	recs, _ := kindtest.Run(t, strings.Replace(echoConfig, "distinct_tol: 1.0e-3", "distinct_tol: 100", 1))
	if m := recs[0].Metrics; m["distinct_preimages"] != 1 || m["largest_cluster_fraction"] != 1 {
		t.Errorf("radius 100: %v distinct, largest cluster %v; want 1, 1", m["distinct_preimages"], m["largest_cluster_fraction"])
	}
}

// TestPointDimension checks that a point of another dimension than the
// data's is refused when the config is validated, from the dataset's
// options, at the line of experiment.point.
func TestPointDimension(t *testing.T) {
	src := strings.Replace(echoConfig, "experiment: {point: [0.5, -0.25], distinct_tol: 1.0e-3}", "experiment:\n  point: [0, 0, 0]", 1)
	c, err := config.Parse("dim.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	line := 1 + strings.Count(src[:strings.Index(src, "point:")], "\n")
	_, err = runner.Validate(c)
	if err == nil || !strings.HasPrefix(err.Error(), "dim.yaml:"+strconv.Itoa(line)+": experiment.point: has 3 coordinates, the data has 2") {
		t.Errorf("error %v", err)
	}
}
