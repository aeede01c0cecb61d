package huang

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// TestBuildRule: five points on a line at 0, 1, 2, 3, 10. The 10 pairwise
// distances sum to 1+2+3+10 + 1+2+9 + 1+8 + 7 = 44, mean 4.4. Within 4.4 of
// each point: 0 → {1,2,3} 3; 1 → 3; 2 → 3; 3 → 3; 10 → 0; mean 12/5 = 2.4 → 2.
func TestBuildRule(t *testing.T) {
	x := mat.NewDense(5, 1, []float64{0, 1, 2, 3, 10})
	f, err := Build(KernelOpts{Kind: "raw"}, x, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(f.Sigma-4.4) > 1e-12 || f.Neighbors != 2 {
		t.Errorf("σ = %g (want 4.4), neighbours %d (want 2)", f.Sigma, f.Neighbors)
	}
	g, ok := f.Kernel.(kernel.Gaussian)
	if !ok || math.Abs(g.C-4.4*4.4) > 1e-9 {
		t.Errorf("kernel %v, want exp(−d²/4.4²)", f.Kernel)
	}
	// Given values win; the count is clamped to N−1.
	f, err = Build(KernelOpts{Kind: "raw", Sigma: 2, Neighbors: 9}, x, 0, 0)
	if err != nil || f.Sigma != 2 || f.Neighbors != 4 {
		t.Errorf("given σ 2 and 9 neighbours gave %+v, %v", f, err)
	}
	// HOG: distances are taken between descriptors.
	img := mat.NewDense(3, 64, nil)
	for i := 0; i < 3; i++ {
		for j := 0; j < 64; j++ {
			img.Set(i, j, float64((i+1)*(j%8)))
		}
	}
	img.Set(2, 0, 50)
	f, err = Build(KernelOpts{Kind: "hog", HOGCell: 4, HOGBlock: 1, HOGBins: 6}, img, 8, 8)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.Kernel.(kernel.MappedGaussian); !ok {
		t.Errorf("hog kernel is %T", f.Kernel)
	}
	// Rows 0 and 1 are the same ramp at different gains: equal HOG.
	if v := kernel.SelfGram(f.Kernel, img).At(0, 1); math.Abs(v-1) > 1e-6 {
		t.Errorf("k_HOG of two gains of one image = %g, want 1", v)
	}
}

// TestBuildWidth: σ enters through kernel.NewGaussian, as a config's width
// would: the raw kernel is NewGaussian("sigma", σ) and the HOG kernel the
// same Gaussian (C = σ²) on the descriptors.
func TestBuildWidth(t *testing.T) {
	x := mat.NewDense(3, 64, nil)
	for i := 0; i < 3; i++ {
		for j := 0; j < 64; j++ {
			x.Set(i, j, float64((i+1)*(j%8))/10)
		}
	}
	want, err := kernel.NewGaussian("sigma", 1.5)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Build(KernelOpts{Kind: "raw", Sigma: 1.5}, x, 8, 8)
	if err != nil || f.Kernel != kernel.Kernel(want) {
		t.Errorf("raw kernel %v (%v), want %v", f.Kernel, err, want)
	}
	f, err = Build(KernelOpts{Kind: "hog", Sigma: 1.5, HOGCell: 4, HOGBlock: 1, HOGBins: 6}, x, 8, 8)
	if err != nil {
		t.Fatal(err)
	}
	if mg, ok := f.Kernel.(kernel.MappedGaussian); !ok || mg.C != want.C {
		t.Errorf("hog kernel %v, want C = %v", f.Kernel, want.C)
	}
	// Coincident points have no width.
	if _, err := Build(KernelOpts{Kind: "raw"}, mat.NewDense(2, 2, nil), 0, 0); err == nil {
		t.Error("coincident points gave a kernel")
	}
}

func cell(t *testing.T, name string, raw map[string]any) *runner.Cell {
	t.Helper()
	spec, ok := methods.Lookup(name)
	if !ok {
		t.Fatalf("no estimator %s", name)
	}
	p, err := spec.Bind(raw)
	if err != nil {
		t.Fatal(err)
	}
	return &runner.Cell{Method: &runner.BoundMethod{Spec: spec, Label: name, Params: p}}
}

// TestNeighborsByRole: the count is written to the parameter that plays
// methods.NeighborsRole, whatever it is called, and only there.
func TestNeighborsByRole(t *testing.T) {
	lg := cell(t, "local-gram", map[string]any{"neighbors": 4})
	p, ok, err := Params(lg, KernelOpts{}, 7)
	if err != nil || !ok || p.Int("neighbors") != 7 {
		t.Errorf("local-gram: %v, set %v, %v; want neighbors 7", p, ok, err)
	}
	if lg.Method.Params.Int("neighbors") != 4 {
		t.Error("Params modified the cell's own map")
	}
	// A count the config gives itself stands: the one precedence rule.
	own := KernelOpts{Explicit: map[int]bool{0: true}}
	if p, ok, err := Params(lg, own, 7); err != nil || ok || p.Int("neighbors") != 4 {
		t.Errorf("explicit local-gram: %v, set %v, %v; want its own neighbors 4", p, ok, err)
	}
	if k := Neighbors(lg, own, 7); k != 4 {
		t.Errorf("Neighbors with an explicit 4 = %d", k)
	}
	if k := Neighbors(lg, KernelOpts{}, 7); k != 7 {
		t.Errorf("Neighbors with the kind's 7 = %d", k)
	}
	hr := cell(t, "honeine-richard", map[string]any{})
	if p, ok, err := Params(hr, KernelOpts{}, 7); err != nil || ok || len(p) != len(hr.Method.Params) {
		t.Errorf("honeine-richard has no neighbour count, got %v, %v, %v", p, ok, err)
	}
	if _, _, err := Params(&runner.Cell{}, KernelOpts{}, 7); err == nil {
		t.Error("a cell without an estimator gave parameters")
	}
	// Out of the parameter's range: an error, not a silent clamp.
	if _, _, err := Params(lg, KernelOpts{}, 1); err == nil {
		t.Error("local-gram took 1 neighbour (its minimum is 2)")
	}

	rec := report.Record{Params: map[string]any{"method": "LG", "neighbors": 4}}
	orig := rec.Params
	MarkNeighbors(&rec, lg, KernelOpts{})
	if rec.Params["neighbors"] != MeanDistance || orig["neighbors"] != 4 {
		t.Errorf("marked %v (original %v), want %s and the original kept", rec.Params, orig, MeanDistance)
	}
	MarkNeighbors(&rec, lg, KernelOpts{Neighbors: 5})
	if rec.Params["neighbors"] != 5 {
		t.Errorf("marked %v, want the given count 5", rec.Params)
	}
	rec = report.Record{Params: map[string]any{"method": "LG", "neighbors": 4}}
	MarkNeighbors(&rec, lg, own)
	if rec.Params["neighbors"] != 4 {
		t.Errorf("marked %v, want the explicit 4 left", rec.Params)
	}
	rec = report.Record{Params: map[string]any{"method": "HR", "nu": 0.0}}
	MarkNeighbors(&rec, hr, KernelOpts{})
	if len(rec.Params) != 2 {
		t.Errorf("an estimator without a neighbour count was marked: %v", rec.Params)
	}
}

func parseExp(t *testing.T, exp string) (*config.Config, KernelOpts, error) {
	t.Helper()
	c, err := config.Parse("t.yaml", []byte("title: t\npaper: t\nkind: kkcluster\nseed: 1\ndataset: {name: synthetic-images}\nmethods: [{name: local-gram}]\nexperiment: "+exp+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := c.Experiment.Reader("experiment")
	o := Parse(c.Experiment, r)
	return c, o, r.Err()
}

func TestParse(t *testing.T) {
	_, o, err := parseExp(t, "{kernel: hog, sigma: mean-distance, neighbors: 6, hog_cell: 8}")
	if err != nil || o.Kind != "hog" || o.Sigma != 0 || o.Neighbors != 6 || o.HOGCell != 8 || o.HOGBlock != 2 || o.HOGBins != 9 {
		t.Errorf("parsed %+v, %v", o, err)
	}
	_, o, err = parseExp(t, "{sigma: 2.5, neighbors: mean-distance}")
	if err != nil || o.Kind != "raw" || o.Sigma != 2.5 || o.Neighbors != 0 {
		t.Errorf("parsed %+v, %v", o, err)
	}
	for _, bad := range []string{"{sigma: median}", "{neighbors: all}", "{sigma: 0}", "{neighbors: 1}", "{kernel: sift}"} {
		if _, _, err := parseExp(t, bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestCheckConfig(t *testing.T) {
	c, _, _ := parseExp(t, "{}")
	if err := CheckConfig(c, "kkcluster"); err != nil {
		t.Errorf("a config without a model section: %v", err)
	}
	c.Methods = nil
	if err := CheckConfig(c, "kkcluster"); err == nil || !strings.Contains(err.Error(), "at least one estimator") {
		t.Errorf("no estimator: %v", err)
	}
	c.Model.Kernel = "gaussian"
	if err := CheckConfig(c, "kkcluster"); err == nil || !strings.Contains(err.Error(), "remove the model section") {
		t.Errorf("a model section: %v", err)
	}
}
