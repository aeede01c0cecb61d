package common

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// TestRecordHelpers: numbers read back from JSON (int or float64) are
// numbers, anything else NaN; Values sorts distinct numbers, Labels keeps
// first-appearance order; a failed record shows its error.
func TestRecordHelpers(t *testing.T) {
	if Num(3) != 3 || Num(2.5) != 2.5 || !math.IsNaN(Num("x")) || !math.IsNaN(Num(nil)) {
		t.Error("Num")
	}
	recs := []report.Record{
		{Params: map[string]any{"c": 10, "method": "b"}},
		{Params: map[string]any{"c": 0.5, "method": "a"}},
		{Params: map[string]any{"c": 10.0, "method": "b"}, Status: report.StatusFailed, Error: "boom"},
		{Params: map[string]any{"method": "c"}, Status: report.StatusOK},
	}
	if got := Values(recs, "c"); len(got) != 2 || got[0] != 0.5 || got[1] != 10 {
		t.Errorf("Values %v, want [0.5 10]", got)
	}
	if got := strings.Join(Labels(recs, "method"), ","); got != "b,a,c" {
		t.Errorf("Labels %s, want b,a,c", got)
	}
	if Param(&recs[1], "c") != 0.5 || !math.IsNaN(Param(&recs[3], "c")) {
		t.Error("Param")
	}
	if StatusText(&recs[2]) != "failed: boom" || StatusText(&recs[3]) != report.StatusOK {
		t.Errorf("StatusText %q %q", StatusText(&recs[2]), StatusText(&recs[3]))
	}
}

// TestSetup: the wrappers the kinds call give the shared fit (one per
// data content and kernel), the component rule and a fresh estimator.
func TestSetup(t *testing.T) {
	x := mat.NewDense(6, 2, []float64{0, 0, 1, 0, 0, 1, 1, 1, 2, 1, 1, 3})
	spec, _ := methods.Lookup("kwok-tsang")
	p, err := spec.Bind(map[string]any{"neighbors": 3})
	if err != nil {
		t.Fatal(err)
	}
	cell := &runner.Cell{Model: config.ModelPoint{Kernel: "gaussian", WidthName: "c", Width: 2, Components: 3},
		Kernel: kernel.Gaussian{C: 2}, Method: &runner.BoundMethod{Spec: spec, Params: p}}
	m, q, est, err := Setup(nil, "common-test", x, cell)
	if err != nil || q != 3 || est == nil {
		t.Fatalf("Setup: %v, q %d, est %v", err, q, est)
	}
	m2, err := Model(nil, "common-test", mat.DenseCopyOf(x), cell)
	if err != nil || m2 != m {
		t.Errorf("an equal copy of the data did not share the fit (%v)", err)
	}
	if q2, err := Components(m, cell); q2 != 3 || err != nil {
		t.Errorf("Components %d, %v", q2, err)
	}
	noMethod := *cell
	noMethod.Method = nil
	if _, q, est, err := Setup(nil, "common-test", x, &noMethod); err != nil || q != 3 || est != nil {
		t.Errorf("no estimator: %v, q %d, est %v", err, q, est)
	}
	tooMany := *cell
	tooMany.Model.Components = 6
	if _, _, _, err := Setup(nil, "common-test", x, &tooMany); err == nil || !strings.Contains(err.Error(), "numerical rank") {
		t.Errorf("6 components of 6 centred points: %v", err)
	}
	noKernel := *cell
	noKernel.Kernel = nil
	if _, _, _, err := Setup(nil, "common-test", x, &noKernel); err == nil {
		t.Error("no kernel: no error")
	}
}

// TestLabelledTrain checks that LabelledTrain hands back a labelled
// training set and refuses an unlabelled one, naming the kind, the
// dataset and what the labels are for.
func TestLabelledTrain(t *testing.T) {
	for _, labelled := range []bool{true, false} {
		name := "common-test-unlabelled"
		if labelled {
			name = "common-test-labelled"
		}
		// Registered on the test's first run only (go test -count=2 runs
		// it again; the dataset is the same).
		if _, ok := runner.LookupDataset(name); !ok {
			registerLabelledTest(name, labelled)
		}
		c, err := config.Parse("t.yaml", []byte("title: t\npaper: p\nkind: k\ndataset: {name: "+name+"}\n"))
		if err != nil {
			t.Fatal(err)
		}
		set, err := LabelledTrain(runner.NewEnv(c, "", nil), "to count")
		switch {
		case labelled && (err != nil || set == nil || len(set.Labels) != 2):
			t.Errorf("labelled: %v, %v; want the set", set, err)
		case !labelled && (err == nil || err.Error() != "k: dataset common-test-unlabelled has no labels to count"):
			t.Errorf("unlabelled: %v; want k: dataset common-test-unlabelled has no labels to count", err)
		}
	}
}

// registerLabelledTest registers TestLabelledTrain's 2×1 dataset name,
// with labels or without.
func registerLabelledTest(name string, labelled bool) {
	runner.RegisterDataset(runner.DefineDataset(runner.Dataset[struct{}]{
		Name: name, Doc: "a 2×1 set (LabelledTrain's test)", Parse: runner.NoOptions,
		Load: func(*runner.Env, *datasets.Root, struct{}) (*runner.Data, error) {
			s := &datasets.Set{Name: name, X: mat.NewDense(2, 1, []float64{0, 1})}
			if labelled {
				s.Labels = []int{0, 1}
			}
			return &runner.Data{Train: s}, nil
		},
	}))
}
