package report_test

import (
	"fmt"
	"math"
	"os"

	"github.com/runexp/runexp/internal/report"
)

func ExampleFormatCompare() {
	// Ours against a paper value, to 3 significant digits.
	fmt.Println(report.FormatCompare(0.0125, 0.0121, true, 3))
	// No paper value.
	fmt.Println(report.FormatCompare(0.5, 0, false, 3))
	// Our method failed.
	fmt.Println(report.FormatCompare(math.NaN(), 0.02, true, 3))
	// Output:
	// 0.0125 0.0121 +0.0004
	// 0.5 — —
	// failed 0.02 —
}

func ExampleTable_RenderMarkdown() {
	t := report.Table{
		Title:   "Pre-image MSE",
		Caption: "Paper values: illustrative only.",
		Header:  []string{"method", "ours", "paper", "diff"},
	}
	o, p, d := report.FormatCompare(0.0125, 0.0121, true, 3)
	t.Rows = append(t.Rows, []string{"Mika", o, p, d})
	if err := t.RenderMarkdown(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// ### Pre-image MSE
	//
	// | method |  ours  | paper  |  diff   |
	// |:-------|-------:|-------:|--------:|
	// | Mika   | 0.0125 | 0.0121 | +0.0004 |
	//
	// Paper values: illustrative only.
}

func ExampleMarshalJSONL() {
	recs := []report.Record{{
		Key:     "lambda=0.1",
		Seed:    1,
		Params:  map[string]any{"lambda": 0.1},
		Metrics: map[string]float64{"mse": 0.25, "snr": math.Inf(1)},
		Status:  report.StatusOK,
	}}
	b, err := report.MarshalJSONL(recs)
	if err != nil {
		fmt.Println(err)
	}
	fmt.Print(string(b))
	// Output:
	// {"key":"lambda=0.1","seed":1,"params":{"lambda":0.1},"metrics":{"mse":0.25,"snr":"+Inf"},"status":"ok"}
}
