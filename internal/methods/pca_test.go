package methods_test

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/methods"
)

// TestPCAByHand checks linear PCA on four points whose scatter is known:
// μ + (±3, 0, 0) and μ + (0, ±1, 0), μ = (10, −5, 2), have mean μ and
// centred scatter diag(18, 2, 0), so two directions are kept, with
// eigenvalues 18 and 2 along e₁ and e₂; 90% of the variance is 18/20
// exactly, one component; a point is reconstructed as μ plus its offset
// from μ without the coordinates beyond the kept directions.
func TestPCAByHand(t *testing.T) {
	x := mat.NewDense(4, 3, []float64{13, -5, 2, 7, -5, 2, 10, -4, 2, 10, -6, 2})
	p, err := methods.FitPCA(x)
	if err != nil {
		t.Fatal(err)
	}
	// An SVD of exact small integers: 1e-12 relative.
	if p.Rank() != 2 || math.Abs(p.Values[0]-18) > 1e-12*18 || math.Abs(p.Values[1]-2) > 1e-12*2 {
		t.Fatalf("rank %d, values %v; want 2, [18 2]", p.Rank(), p.Values)
	}
	for j, m := range []float64{10, -5, 2} {
		if math.Abs(p.Mean[j]-m) > 1e-14*math.Abs(m) {
			t.Errorf("mean %v, want [10 -5 2]", p.Mean)
			break
		}
	}
	if e := math.Abs(p.Vectors.At(0, 0)); math.Abs(e-1) > 1e-12 {
		t.Errorf("first direction %v, want ±e₁", mat.Col(nil, 0, p.Vectors))
	}
	for _, tc := range []struct {
		energy float64
		q      int
	}{{0.5, 1}, {0.9, 1}, {0.91, 2}, {1, 2}} {
		if got := p.Components(tc.energy); got != tc.q {
			t.Errorf("Components(%v) = %d, want %d", tc.energy, got, tc.q)
		}
	}
	in := mat.NewDense(1, 3, []float64{11, -4, 3})
	for q, want := range map[int][]float64{1: {11, -5, 2}, 2: {11, -4, 2}} {
		var z mat.Dense
		p.Reconstruct(&z, in, q)
		for j, w := range want {
			if math.Abs(z.At(0, j)-w) > 1e-12 {
				t.Errorf("q=%d: reconstruction %v, want %v", q, z.RawRowView(0), want)
				break
			}
		}
	}
}

// TestPCARefusals checks the inputs PCA refuses: fewer than two points,
// points that all coincide (no direction), and, as programmer errors, a
// component count beyond the rank or an input of another dimension.
func TestPCARefusals(t *testing.T) {
	if _, err := methods.FitPCA(mat.NewDense(1, 2, []float64{1, 2})); err == nil || !strings.Contains(err.Error(), "at least 2 points, have 1") {
		t.Errorf("one point: %v", err)
	}
	if _, err := methods.FitPCA(mat.NewDense(3, 2, []float64{1, 2, 1, 2, 1, 2})); err == nil || !strings.Contains(err.Error(), "all training points coincide") {
		t.Errorf("coincident points: %v", err)
	}
	p, err := methods.FitPCA(mat.NewDense(3, 2, []float64{0, 0, 1, 0, 0, 1}))
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func(){
		"q beyond the rank": func() { p.Reconstruct(&mat.Dense{}, mat.NewDense(1, 2, nil), 3) },
		"q of 0":            func() { p.Reconstruct(&mat.Dense{}, mat.NewDense(1, 2, nil), 0) },
		"wrong dimension":   func() { p.Reconstruct(&mat.Dense{}, mat.NewDense(1, 3, nil), 1) },
	} {
		func() {
			defer func() {
				if r, _ := recover().(string); !strings.HasPrefix(r, "methods: ") {
					t.Errorf("%s: recovered %q, want a methods: panic", name, r)
				}
			}()
			f()
		}()
	}
}
