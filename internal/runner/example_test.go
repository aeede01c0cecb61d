package runner_test

import (
	"fmt"
	"log"

	"gonum.org/v1/gonum/floats"

	_ "github.com/runexp/runexp/experiments/catalog" // the datasets a config can name
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// meanNorm is the prepared experiment of the example kind: the data's
// points, shared by every cell.
type meanNorm struct {
	rows  [][]float64
	scale float64
}

func (m *meanNorm) Run(cell *runner.Cell, rec *report.Record) error {
	var sum float64
	for _, r := range m.rows {
		sum += floats.Norm(r, 2)
	}
	rec.Metrics = map[string]float64{"mean_norm": m.scale * sum / float64(len(m.rows))}
	return nil
}

func (m *meanNorm) Report(out *runner.Output, recs []report.Record) error { return nil }

// A kind is defined once with its options type: parse reads and checks
// the config's experiment section when the config is validated, start
// prepares what every cell shares, and the typed options reach start
// without a type assertion.
func ExampleDefine() {
	type options struct{ scale float64 }
	k := runner.Define("example-mean-norm", "mean Euclidean norm of the data's points, scaled",
		func(c *config.Config) (options, error) {
			r := c.Experiment.Reader("experiment")
			o := options{scale: r.Float("scale", 1, func(v float64) bool { return v > 0 }, "a positive number")}
			return o, r.Err()
		},
		func(env *runner.Env, o options) (runner.Instance, error) {
			d, err := env.LoadData()
			if err != nil {
				return nil, err
			}
			rows := make([][]float64, d.Train.X.RawMatrix().Rows)
			for i := range rows {
				rows[i] = d.Train.X.RawRowView(i)
			}
			return &meanNorm{rows: rows, scale: o.scale}, nil
		})
	runner.RegisterKind(k)

	c, err := config.Parse("example.yaml", []byte(`
title: the example kind
paper: none
kind: example-mean-norm
dataset: {name: two-rings, n: 200}
experiment: {scale: 2}
`))
	if err != nil {
		log.Fatal(err)
	}
	plan, err := runner.Validate(c)
	if err != nil {
		log.Fatal(err)
	}
	inst, err := plan.Start(runner.NewEnv(c, "", nil))
	if err != nil {
		log.Fatal(err)
	}
	rec := runner.RunCell(inst, plan.Cells[0])
	fmt.Println(len(plan.Cells), "cell:", rec.Status, rec.Metrics["mean_norm"] > 0)

	// A bad option is reported at its line when the config is validated.
	bad, _ := config.Parse("bad.yaml", []byte("title: t\npaper: p\nkind: example-mean-norm\ndataset: {name: two-rings}\nexperiment: {scale: -1}\n"))
	_, err = runner.Validate(bad)
	fmt.Println(err)
	// Output:
	// 1 cell: ok true
	// bad.yaml:5: experiment.scale: -1 is impossible, want a positive number
}

// Memo computes a value once per key, however many cells, configs or
// goroutines ask for it: the key names by content everything the value
// is computed from.
func ExampleMemo() {
	calls := 0
	fit := func() (float64, error) {
		calls++
		return 42, nil
	}
	for i := 0; i < 3; i++ {
		v, err := runner.Memo(nil, "example/fit/data=sha256:ab12/kernel=gaussian(c=5)", fit)
		fmt.Println(v, err)
	}
	fmt.Println("computed", calls, "time(s)")
	// Output:
	// 42 <nil>
	// 42 <nil>
	// 42 <nil>
	// computed 1 time(s)
}
