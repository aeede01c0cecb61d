package classify

import (
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestTrainBinaryRefusals checks the inputs refused with an error naming
// them: labels other than ±1, a label count not matching the rows, a cost
// or tolerance that is not positive.
func TestTrainBinaryRefusals(t *testing.T) {
	x := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 1})
	for _, tc := range []struct {
		y    []float64
		o    LogRegOptions
		want string
	}{
		{[]float64{1, -1, 0}, LogRegOptions{}, "classify: label 0; binary labels are +1 or −1"},
		{[]float64{1, -1}, LogRegOptions{}, "classify: 2 labels for 3 rows"},
		{[]float64{1, -1, 1}, LogRegOptions{C: -1}, "classify: C = -1 and ε = 0.01 must be positive"},
		{[]float64{1, -1, 1}, LogRegOptions{Eps: -0.1}, "classify: C = 1 and ε = -0.1 must be positive"},
	} {
		if _, err := TrainBinary(x, tc.y, tc.o); err == nil || err.Error() != tc.want {
			t.Errorf("labels %v, options %+v: %v, want %q", tc.y, tc.o, err, tc.want)
		}
	}
	if _, err := TrainOneVsRest(x, []int{1, 2}, LogRegOptions{}); err == nil || !strings.Contains(err.Error(), "2 labels for 3 rows") {
		t.Errorf("one-vs-rest with 2 labels for 3 rows: %v", err)
	}
}

// TestTrainBinaryMaxIter checks the iteration cap: capped at one Newton
// step the solver stops there, not converged, having reduced the
// gradient; uncapped, at the same ε = 1e-4 (well above where LIBLINEAR's
// "reductions too small" stop takes over), it converges by the gradient
// test after more steps.
func TestTrainBinaryMaxIter(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 10))
	x, y := noisyProblem(rng, 200, 8)
	capped, err := TrainBinary(x, y, LogRegOptions{C: 10, Eps: 1e-4, MaxIter: 1})
	if err != nil {
		t.Fatal(err)
	}
	if capped.Converged || capped.Iterations != 1 || !(capped.GradNorm < capped.GradNorm0) {
		t.Errorf("capped at 1: converged %t after %d steps, ‖∇f‖ %g from %g", capped.Converged, capped.Iterations, capped.GradNorm, capped.GradNorm0)
	}
	free, err := TrainBinary(x, y, LogRegOptions{C: 10, Eps: 1e-4})
	if err != nil {
		t.Fatal(err)
	}
	if !free.Converged || free.Iterations <= 1 || free.GradNorm > free.Tol*free.GradNorm0 {
		t.Errorf("uncapped: converged %t after %d steps, ‖∇f‖ %g, tolerance %g·%g", free.Converged, free.Iterations, free.GradNorm, free.Tol, free.GradNorm0)
	}
}

// TestDefaults checks LIBLINEAR's defaults for -s 0: C = 1, ε = 0.01 and
// 1000 Newton iterations, and that given values are kept.
func TestDefaults(t *testing.T) {
	if d := (LogRegOptions{}).withDefaults(); d.C != 1 || d.Eps != 0.01 || d.MaxIter != 1000 {
		t.Errorf("defaults %+v", d)
	}
	if d := (LogRegOptions{C: 5, Eps: 1e-3, MaxIter: 7}).withDefaults(); d.C != 5 || d.Eps != 1e-3 || d.MaxIter != 7 {
		t.Errorf("given values changed: %+v", d)
	}
}

// TestPredictTies checks that a row scoring equally for several classes
// goes to the first of them (the smallest label).
func TestPredictTies(t *testing.T) {
	m := &Model{Classes: []int{2, 5, 9}, W: mat.NewDense(2, 3, []float64{1, 1, 0, 0, 0, 1})}
	got := m.Predict(mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 1}))
	if want := []int{2, 9, 2}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("Predict = %v, want %v", got, want)
	}
}
