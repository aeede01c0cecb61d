package conformance

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

// checkOutput checks the shape of a result, one Status per row, and that
// every row not marked failed is finite; it notes the failed rows.
func (f *fixture) checkOutput(t T, what string, z *mat.Dense, st []methods.Status, m int) {
	t.Helper()
	f.checkShape(t, what, z, st, m)
	if msg := f.failures(st, func(i int) string { return fmt.Sprint(i) }); msg != "" {
		t.Logf("%s: %s", what, msg)
	}
}

// checkShape checks the shape of a result, one Status per row, and that
// every row not marked failed is finite.
func (f *fixture) checkShape(t T, what string, z *mat.Dense, st []methods.Status, m int) {
	t.Helper()
	if len(st) != m {
		t.Fatalf("%s: want one status per row, got %d for %d rows", what, len(st), m)
	}
	if r, c := z.Dims(); r != m || c != dim {
		t.Fatalf("%s: result is %d×%d, want %d×%d", what, r, c, m, dim)
	}
	for i := 0; i < m; i++ {
		if st[i].Err != nil {
			continue
		}
		for _, v := range z.RawRowView(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("%s: row %d is %v, not finite, and its status gives no error; want a finite row or a failed status", what, i, z.RawRowView(i))
				break
			}
		}
	}
}

// checkFiniteOutput is checkOutput on the kit's generic problem, which
// is well conditioned: an estimator that solves none of its rows (NaN in
// every row, say) fails, whatever its statuses say.
func (f *fixture) checkFiniteOutput(t T, z *mat.Dense, st []methods.Status) {
	t.Helper()
	f.checkShape(t, f.name, z, st, numTest)
	msg := f.failures(st, func(i int) string { return fmt.Sprint(i) })
	if msg == "" {
		return
	}
	for _, s := range st {
		if s.Err == nil {
			t.Logf("%s: %s", f.name, msg)
			return
		}
	}
	t.Errorf("%s: every row failed (%s); want at least one row solved", f.name, msg)
}

// failures summarises the failed rows of st by reason, "rows 0, 1, 2
// failed: pre-image is not finite", or returns "" when none failed; label
// names row i.
func (f *fixture) failures(st []methods.Status, label func(i int) string) string {
	var reasons []string
	rows := map[string][]string{}
	for i, s := range st {
		if s.Err == nil {
			continue
		}
		r := f.errText(s.Err)
		if rows[r] == nil {
			reasons = append(reasons, r)
		}
		rows[r] = append(rows[r], label(i))
	}
	parts := make([]string, len(reasons))
	for k, r := range reasons {
		noun := "row"
		if len(rows[r]) > 1 {
			noun = "rows"
		}
		parts[k] = fmt.Sprintf("%s %s failed: %s", noun, strings.Join(rows[r], ", "), r)
	}
	return strings.Join(parts, "; ")
}

// checkExact checks that row i of z is want's row rows[i].
func (f *fixture) checkExact(t T, what string, z *mat.Dense, st []methods.Status, want *mat.Dense, rows []int) {
	t.Helper()
	tol := f.cfg.exactTol()
	f.checkShape(t, what, z, st, len(rows))
	if msg := f.failures(st, func(i int) string { return fmt.Sprintf("x_%d", rows[i]) }); msg != "" {
		t.Errorf("%s: want each x_j back, but %s", what, msg)
	}
	for i, j := range rows {
		if st[i].Err != nil {
			continue
		}
		wj := want.RawRowView(j)
		got := z.RawRowView(i)
		if d := floats.Distance(got, wj, 2); !(d <= tol*math.Max(1, floats.Norm(wj, 2))) {
			t.Errorf("%s: got %v, want x_%d = %v (distance %.3g, tolerance %.3g relative)", what, got, j, wj, d, tol)
		}
	}
}

// outcome is what one call of the estimator gave.
type outcome struct {
	z   *mat.Dense
	st  []methods.Status
	err error
	// changed names the first input the estimator modified, "" when
	// none.
	changed string
}

// text says what a call returned, for a message.
func (o outcome) text(f *fixture) string {
	if o.err != nil {
		return "returned the error " + f.errText(o.err)
	}
	return fmt.Sprintf("returned %d rows", len(o.st))
}

// checkSame checks that two runs gave identical bytes and statuses.
func (f *fixture) checkSame(t T, what string, a, b outcome) {
	t.Helper()
	if (a.err == nil) != (b.err == nil) {
		t.Errorf("%s: the first run %s, the second %s; want the same", what, a.text(f), b.text(f))
		return
	}
	if len(a.st) != len(b.st) {
		t.Errorf("%s: %d statuses, then %d; want the same", what, len(a.st), len(b.st))
		return
	}
	for i := range a.st {
		x, y := a.st[i], b.st[i]
		if x.Iterations != y.Iterations || x.Converged != y.Converged || errString(x.Err) != errString(y.Err) {
			t.Errorf("%s: row %d %s, then %s; want the same", what, i, f.statusText(x), f.statusText(y))
		}
	}
	if a.z == nil || b.z == nil {
		return
	}
	r, c := a.z.Dims()
	if r2, c2 := b.z.Dims(); r != r2 || c != c2 {
		t.Errorf("%s: result %d×%d, then %d×%d; want the same", what, r, c, r2, c2)
		return
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if math.Float64bits(a.z.At(i, j)) != math.Float64bits(b.z.At(i, j)) {
				t.Errorf("%s: element (%d,%d) is %v, then %v; want the same bits", what, i, j, a.z.At(i, j), b.z.At(i, j))
				return
			}
		}
	}
}

// checkRow compares row i of a batch result with the same row solved
// alone.
func (f *fixture) checkRow(t T, i int, batch, alone outcome) {
	t.Helper()
	if alone.err != nil {
		t.Errorf("row %d solved alone %s; want the batch's row", i, alone.text(f))
		return
	}
	if len(alone.st) != 1 {
		t.Errorf("row %d solved alone gave %d statuses, want 1", i, len(alone.st))
		return
	}
	b, a := batch.st[i], alone.st[0]
	if (b.Err == nil) != (a.Err == nil) {
		t.Errorf("row %d %s in the batch but %s alone; want the same", i, f.statusText(b), f.statusText(a))
		return
	}
	if b.Err != nil {
		return
	}
	x, y := batch.z.RawRowView(i), alone.z.RawRowView(0)
	if d := floats.Distance(x, y, 2); !(d <= rowTol*math.Max(1, floats.Norm(x, 2))) {
		t.Errorf("row %d is %v in the batch but %v alone (distance %.3g, tolerance %.3g relative)", i, x, y, d, rowTol)
	}
}

// statusText says how a row went, for a message.
func (f *fixture) statusText(s methods.Status) string {
	if s.Err != nil {
		return "failed (" + f.errText(s.Err) + ")"
	}
	txt := "solved"
	if s.Iterations > 0 {
		txt += fmt.Sprintf(" in %d iterations", s.Iterations)
	}
	if !s.Converged {
		txt += " (not converged)"
	}
	return txt
}

// kernelName is a check's name for k, without its parameters.
func kernelName(k kernel.Kernel) string {
	switch k.(type) {
	case kernel.Gaussian:
		return "gaussian"
	case kernel.Linear:
		return "linear"
	}
	return fmt.Sprintf("%T", k)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func rowOf(m *mat.Dense, i int) *mat.Dense {
	_, c := m.Dims()
	return mat.NewDense(1, c, slices.Clone(m.RawRowView(i)))
}
