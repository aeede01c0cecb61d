package conformance

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/methods"
)

// snapshot holds bit-exact copies of everything an estimator can reach.
type snapshot map[string][]float64

func (s snapshot) add(name string, m mat.Matrix) {
	if m == nil {
		return
	}
	if d, ok := m.(*mat.Dense); ok && d == nil {
		return
	}
	r, c := m.Dims()
	v := make([]float64, 0, r*c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			v = append(v, m.At(i, j))
		}
	}
	s[name] = v
}

func snapshotProblem(p *methods.Problem) snapshot {
	s := snapshot{}
	s.add("Basis.X", p.Basis.X)
	s.add("Basis.K", p.Basis.K)
	s["Basis.Diag"] = slices.Clone(p.Basis.Diag)
	s.add("Gamma", p.Gamma)
	s.add("Terms.GK", p.Terms.GK)
	s["Terms.Norm2"] = slices.Clone(p.Terms.Norm2)
	s.add("X0", p.X0)
	s.add("Start", p.Start)
	return s
}

func snapshotModel(m *methods.KPCA, x0 *mat.Dense) snapshot {
	s := snapshot{}
	s.add("Model.X", m.X)
	s.add("Model.K", m.K)
	s.add("Model.Alpha", m.Alpha(m.Rank()))
	s["Model.Values"] = slices.Clone(m.Values)
	s["Model.Diag"] = slices.Clone(m.Diag())
	s.add("X0", x0)
	return s
}

// diff names the first field that differs bit-for-bit, or returns "".
func (s snapshot) diff(old snapshot) string {
	names := make([]string, 0, len(old))
	for k := range old {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		a, b := old[k], s[k]
		if len(a) != len(b) {
			return fmt.Sprintf("%s changed size from %d to %d", k, len(a), len(b))
		}
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				return fmt.Sprintf("%s[%d] changed from %v to %v", k, i, a[i], b[i])
			}
		}
	}
	return ""
}
