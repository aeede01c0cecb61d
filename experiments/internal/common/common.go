// Package common holds what every experiment kind needs from records and
// the runner: numeric parameters, grid values, the corruption of a data
// set, and (through package setup, which the CLI shares) the model fit.
package common

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/setup"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// Num returns a numeric parameter value (records read back from JSON hold
// integral numbers as int), or NaN.
func Num(v any) float64 {
	if f, ok := config.Number(v); ok {
		return f
	}
	return math.NaN()
}

// Param returns the numeric parameter name of a record, or NaN.
func Param(r *report.Record, name string) float64 { return Num(r.Params[name]) }

// Values returns the distinct values of a numeric parameter over records,
// sorted increasingly.
func Values(recs []report.Record, name string) []float64 {
	seen := map[float64]bool{}
	var out []float64
	for i := range recs {
		v := Param(&recs[i], name)
		if !math.IsNaN(v) && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Float64s(out)
	return out
}

// Labels returns the distinct values of a string parameter in the order
// they first appear (grid order: the config's method order).
func Labels(recs []report.Record, name string) []string {
	seen := map[string]bool{}
	var out []string
	for i := range recs {
		v := fmt.Sprint(recs[i].Params[name])
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// LabelledTrain loads the cell's data and returns its training set, which
// the kind needs labelled: why says what for, in the error on a set
// without labels ("to measure purity against").
func LabelledTrain(env *runner.Env, why string) (*datasets.Set, error) {
	d, err := env.LoadData()
	if err != nil {
		return nil, err
	}
	if d.Train.Labels == nil {
		return nil, fmt.Errorf("%s: dataset %s has no labels %s", env.Config.Kind, d.Train.Name, why)
	}
	return d.Train, nil
}

// StatusText renders a record's status for a table cell.
func StatusText(r *report.Record) string {
	if r.Status == report.StatusFailed {
		return "failed: " + r.Error
	}
	return r.Status
}

// Model fits kernel PCA on x for the cell's kernel once per process
// (setup.Model): every cell, of every config, with the same data and kernel
// shares the fit. name is for logs; x is named by its content.
func Model(env *runner.Env, name string, x *mat.Dense, cell *runner.Cell) (*methods.KPCA, error) {
	return setup.Model(env, name, x, cell.Kernel)
}

// Components resolves the cell's subspace size by the one component rule
// (setup.Components): the PC count, or the smallest count holding the
// energy fraction, at most the numerical rank of the kernel matrix.
func Components(m *methods.KPCA, cell *runner.Cell) (int, error) {
	return setup.Components(m, cell.Model)
}

// Setup returns what a cell of a model-and-estimator experiment starts
// from: the shared kernel PCA fit on x, the cell's PC count and a fresh
// estimator (nil when the cell has none). Kinds that de-noise use
// setup.Denoiser instead, which builds the estimator through its declared
// capability.
func Setup(env *runner.Env, name string, x *mat.Dense, cell *runner.Cell) (*methods.KPCA, int, methods.Denoiser, error) {
	m, q, err := setup.Fit(env, name, x, cell)
	if err != nil {
		return nil, 0, nil, err
	}
	if cell.Method == nil {
		return m, q, nil, nil
	}
	est, err := cell.Method.NewDenoiser()
	if err != nil {
		return nil, 0, nil, err
	}
	return m, q, est, nil
}
