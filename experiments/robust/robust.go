package robust

import (
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	k := runner.Define("robust",
		"reconstruct occluded or noisy held-out images; region-wise mean absolute error, validation tuning (Nguyen & De la Torre Fig. 5, Table 2)",
		check, start)
	// 2: records carry the per-image errors (items.go) and, for noise,
	// the detail ratio and error.
	k.Version = "2"
	k.Items = items
	k.Parts = parts
	k.Takes = methods.Denoises
	k.Metrics = runner.MetricsOf(metricNames)
	k.Needs = runner.Needs{Model: true, Methods: "at least one estimator"}
	runner.RegisterKind(k)
}

// condition is one corruption setting with its corrupted validation and
// test sets.
type condition struct {
	name      string // metric suffix: "s<paper side>" or "" for noise
	paperSide int
	side      int
	paperFrac float64
	val, test corrupted
}

type corrupted struct {
	noisy  *mat.Dense
	region [][]bool // occluded pixels per row; nil for noise
}

type instance struct {
	env       *runner.Env
	opt       options
	set       *datasets.Set
	train     *mat.Dense
	val, test *mat.Dense
	counts    [3]int // images per split
	subjects  [3]int
	conds     []condition
	// Stacked inputs: every condition's rows, condition-major.
	valX, testX *mat.Dense
	exRows      []int // test rows shown in the figures
}

func stack(conds []condition, get func(*condition) *mat.Dense) *mat.Dense {
	var total, d int
	for i := range conds {
		r, c := get(&conds[i]).Dims()
		total += r
		d = c
	}
	out := mat.NewDense(total, d, nil)
	at := 0
	for i := range conds {
		x := get(&conds[i])
		r, _ := x.Dims()
		for k := 0; k < r; k++ {
			out.SetRow(at+k, x.RawRowView(k))
		}
		at += r
	}
	return out
}

// pickRows spreads n examples evenly over m rows.
func pickRows(m, n int) []int {
	var out []int
	for k := 0; k < n && k < m; k++ {
		out = append(out, k*m/n)
	}
	return out
}

func suffix(name string) string {
	if name == "" {
		return ""
	}
	return "_" + name
}
