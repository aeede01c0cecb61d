package setup

import (
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/runner"
)

func randomData(seed uint64, n, d int) *mat.Dense {
	rnd := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rnd.NormFloat64())
		}
	}
	return x
}

// TestComponents checks the component rule on a linear kernel, whose
// centred kernel matrix on 10 points in R³ has rank 3: energy 1 keeps all
// 3, an energy below the first eigenvalue's share keeps 1, a count is kept
// as given, and neither or more than the rank is an error.
func TestComponents(t *testing.T) {
	m, err := Model(nil, "test", randomData(1, 10, 3), kernel.Linear{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Rank() != 3 {
		t.Fatalf("rank %d, want 3", m.Rank())
	}
	var sum float64
	for _, v := range m.Values {
		sum += v
	}
	first := m.Values[0] / sum
	for _, tc := range []struct {
		mp   config.ModelPoint
		want int
		err  string
	}{
		{config.ModelPoint{Components: 2}, 2, ""},
		{config.ModelPoint{Components: 3}, 3, ""},
		{config.ModelPoint{Energy: 1}, 3, ""},
		{config.ModelPoint{Energy: first / 2}, 1, ""},
		{config.ModelPoint{}, 0, "no default"},
		{config.ModelPoint{Components: 4}, 0, "numerical rank 3"},
	} {
		q, err := Components(m, tc.mp)
		if q != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%+v: %d, %v; want %d, %q", tc.mp, q, err, tc.want, tc.err)
		}
	}
}

// TestModelShared: the fit is named by content, so an equal copy of the
// data shares it, other data does not, and no kernel is an error.
func TestModelShared(t *testing.T) {
	x := randomData(2, 8, 2)
	a, err := Model(nil, "shared", x, kernel.Gaussian{C: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Model(nil, "shared", mat.DenseCopyOf(x), kernel.Gaussian{C: 1})
	c, _ := Model(nil, "shared", randomData(3, 8, 2), kernel.Gaussian{C: 1})
	d, _ := Model(nil, "shared", x, kernel.Gaussian{C: 2})
	if a != b || a == c || a == d {
		t.Errorf("shared: copy %v, other data %v, other width %v; want true, false, false", a == b, a == c, a == d)
	}
	if _, err := Model(nil, "shared", x, nil); err == nil || !strings.Contains(err.Error(), "no kernel") {
		t.Errorf("no kernel: %v", err)
	}
}

// TestDenoiser builds estimators through their declared capability and
// refuses what a cell cannot run.
func TestDenoiser(t *testing.T) {
	x := randomData(4, 12, 2)
	mika, err := Method("mika", map[string]any{"max_iter": 20})
	if err != nil {
		t.Fatal(err)
	}
	lin, err := Method("linear-pca", nil)
	if err != nil {
		t.Fatal(err)
	}
	g := config.ModelPoint{Kernel: "gaussian", WidthName: "c", Width: 1, Components: 3}
	cell := func(mp config.ModelPoint, k kernel.Kernel, b *runner.BoundMethod) *runner.Cell {
		return &runner.Cell{Model: mp, Kernel: k, Method: b}
	}
	m, q, den, err := Denoiser(nil, "den", x, cell(g, kernel.Gaussian{C: 1}, mika))
	if err != nil || m == nil || q != 3 {
		t.Fatalf("mika: %v, q %d", err, q)
	}
	var z mat.Dense
	if st, err := den.Denoise(&z, &methods.DenoiseInput{Model: m, Q: q, X0: x}); err != nil || len(st) != 12 {
		t.Errorf("mika as a Denoiser: %v", err)
	}
	// The linear kernel on 2-D data has rank 2.
	lp := config.ModelPoint{Kernel: "linear", Components: 2}
	if _, _, den, err = Denoiser(nil, "den", x, cell(lp, kernel.Linear{}, lin)); err != nil || den == nil {
		t.Errorf("linear-pca: %v", err)
	}
	for _, tc := range []struct {
		c    *runner.Cell
		want string
	}{
		{cell(g, kernel.Gaussian{C: 1}, nil), "no estimator"},
		{cell(g, kernel.Linear{}, mika), "Gaussian kernel"},
		{cell(config.ModelPoint{}, kernel.Gaussian{C: 1}, mika), "no default"},
	} {
		if _, _, _, err := Denoiser(nil, "den", x, tc.c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: want %q", err, tc.want)
		}
	}
	if _, err := Method("no-such-estimator", nil); err == nil || !strings.Contains(err.Error(), "unknown estimator") {
		t.Errorf("unknown estimator: %v", err)
	}
	if _, err := Method("mika", map[string]any{"max_iter": -1}); err == nil {
		t.Error("a bad parameter was bound")
	}
}
