// Package common holds what every experiment kind needs from records and
// the runner: numeric parameters, grid values, the shared model fit.
package common

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"sort"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// Num returns a numeric parameter value (records read back from JSON hold
// integral numbers as int), or NaN.
func Num(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case int:
		return float64(x)
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

// StatusText renders a record's status for a table cell.
func StatusText(r *report.Record) string {
	if r.Status == report.StatusFailed {
		return "failed: " + r.Error
	}
	return r.Status
}

// Model fits kernel PCA on x for the cell's kernel once per process and
// shares it with every cell, of every config, with the same data and
// kernel: the fit does not depend on the PC count or on any estimator
// parameter. name is for logs; x is identified by a hash of its contents.
func Model(env *runner.Env, name string, x *mat.Dense, cell *runner.Cell) (*methods.KPCA, error) {
	if cell.Kernel == nil {
		return nil, fmt.Errorf("the config gives no kernel")
	}
	key := fmt.Sprintf("%s|%s|%s", name, dataHash(x), cell.Kernel)
	return env.Model(key, func() (*methods.KPCA, error) {
		env.Log.Info("fitting kernel PCA", "data", name, "kernel", cell.Kernel.String())
		return methods.FitKPCA(x, cell.Kernel)
	})
}

var hashes sync.Map // *mat.Dense → string

// dataHash returns a SHA-256 of a matrix's shape and values, computed once
// per matrix (the data of a run is never modified after loading).
func dataHash(x *mat.Dense) string {
	if h, ok := hashes.Load(x); ok {
		return h.(string)
	}
	r, c := x.Dims()
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(r))
	h.Write(b[:])
	binary.LittleEndian.PutUint64(b[:], uint64(c))
	h.Write(b[:])
	for i := 0; i < r; i++ {
		for _, v := range x.RawRowView(i) {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
			h.Write(b[:])
		}
	}
	s := hex.EncodeToString(h.Sum(nil)[:16])
	hashes.Store(x, s)
	return s
}

// Components resolves the cell's subspace size: the PC count, or the
// smallest count holding the energy fraction. It fails when the count
// exceeds the numerical rank of the kernel matrix.
func Components(m *methods.KPCA, cell *runner.Cell) (int, error) {
	q := cell.Model.Components
	if cell.Model.Energy > 0 {
		q = m.Components(cell.Model.Energy)
	}
	if q < 1 {
		return 0, fmt.Errorf("the config gives neither components nor energy")
	}
	if q > m.Rank() {
		return 0, fmt.Errorf("%d components requested, the kernel matrix has numerical rank %d", q, m.Rank())
	}
	return q, nil
}

// CheckModel reports a config whose model lacks a kernel or a subspace size
// (components or energy), and, when needMethods is set, one that lists no
// estimator; kind and hint word the errors.
func CheckModel(c *config.Config, kind string, needMethods bool, hint string) error {
	if c.Model.Kernel == "" || (len(c.Model.Components) == 0 && len(c.Model.Energy) == 0) {
		return c.ModelErrorf("model: %s needs a kernel and components (or energy)", kind)
	}
	if needMethods && len(c.Methods) == 0 {
		return c.Errorf(0, "methods: %s needs %s", kind, hint)
	}
	return nil
}

// Setup returns what a cell of a model-and-estimator experiment starts
// from: the shared kernel PCA fit on x, the cell's PC count and a fresh
// estimator.
func Setup(env *runner.Env, name string, x *mat.Dense, cell *runner.Cell) (*methods.KPCA, int, any, error) {
	m, err := Model(env, name, x, cell)
	if err != nil {
		return nil, 0, nil, err
	}
	q, err := Components(m, cell)
	if err != nil {
		return nil, 0, nil, err
	}
	if cell.Method == nil {
		return m, q, nil, nil
	}
	est, err := cell.Method.New()
	if err != nil {
		return nil, 0, nil, err
	}
	return m, q, est, nil
}
