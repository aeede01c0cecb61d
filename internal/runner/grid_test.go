package runner_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/runner"
)

// TestCellsRefusals checks the grid errors at their line: an unknown
// estimator with the closest names, a parameter a method does not take,
// the same method twice without labels apart (refused by the parser), and
// a grid naming a cell twice.
func TestCellsRefusals(t *testing.T) {
	head := "title: t\npaper: none\nkind: fake-test\nseed: 1\ndataset: {name: none-test}\nmodel: {kernel: gaussian, c: [1, 2], components: 1}\nmethods:\n"
	for _, tc := range []struct{ methods, want string }{
		{"  - {name: mikka}\n", `fake.yaml:8: methods[0]: unknown estimator "mikka"; did you mean mika? (registered: `},
		{"  - name: mika\n    params: {max_iters: 3}\n", `fake.yaml:9: methods[0].params: parameter "max_iters": unknown for mika`},
		{"  - {name: mika}\n  - {name: mika}\n", `fake.yaml:9: methods[1]: "mika" already used by methods[0]; give one of them a distinct label`},
		{"  - name: mika\n    params: {max_iter: [10, 10]}\n", "the grid has the same cell twice"},
	} {
		c, err := config.Parse("fake.yaml", []byte(head+tc.methods))
		if err == nil {
			_, err = runner.Cells(c)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.methods, err, tc.want)
		}
	}
	// Two methods with their own labels are two cells each.
	cells, err := runner.Cells(parse(t, head+"  - {name: mika, label: A}\n  - {name: mika, label: B}\n"))
	if err != nil || len(cells) != 4 {
		t.Errorf("two labelled methods: %d cells, %v; want 2 widths × 2", len(cells), err)
	}
}

// TestCellsOrder checks the grid's order, which the cell indexes, shards
// and tables follow: model points (width, then component count) outermost,
// then the methods in file order and their parameter values, the last
// parameter varying fastest; a default is bound into the cell (Tikhonov's
// max_iter 1000).
func TestCellsOrder(t *testing.T) {
	src := "title: t\npaper: none\nkind: fake-test\nseed: 1\ndataset: {name: none-test}\nmodel: {kernel: gaussian, c: [1, 2], components: [3, 4]}\nmethods:\n  - name: mika\n    params: {max_iter: [10, 20]}\n  - {name: tikhonov, label: T}\n"
	cells, err := runner.Cells(parse(t, src))
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 2*2*3 {
		t.Fatalf("%d cells, want 12", len(cells))
	}
	var got []string
	for i, c := range cells {
		if c.Index != i {
			t.Errorf("cell %d has index %d", i, c.Index)
		}
		got = append(got, fmt.Sprintf("%v/%v/%s/%v", c.Model.Width, c.Model.Components, c.Method.Label, c.Params["max_iter"]))
	}
	want := []string{
		"1/3/Mika et al./10", "1/3/Mika et al./20", "1/3/T/1000",
		"1/4/Mika et al./10", "1/4/Mika et al./20", "1/4/T/1000",
		"2/3/Mika et al./10", "2/3/Mika et al./20", "2/3/T/1000",
		"2/4/Mika et al./10", "2/4/Mika et al./20", "2/4/T/1000",
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("cell %d: %s, want %s", i, got[i], want[i])
		}
	}
}

// TestKernelFor checks the kernel of each model point: the Gaussian in
// the config's parameterisation, the linear and polynomial kernels, none
// for a point without a kernel, and an error for an unknown name.
func TestKernelFor(t *testing.T) {
	for _, tc := range []struct {
		p    config.ModelPoint
		want kernel.Kernel
	}{
		{config.ModelPoint{Kernel: "gaussian", WidthName: "sigma", Width: 2}, kernel.Gaussian{C: 4}},
		{config.ModelPoint{Kernel: "gaussian", WidthName: "gamma", Width: 0.5}, kernel.Gaussian{C: 2}},
		{config.ModelPoint{Kernel: "linear"}, kernel.Linear{}},
		{config.ModelPoint{Kernel: "polynomial", Degree: 3, Offset: 1}, kernel.Polynomial{Degree: 3, Offset: 1}},
		{config.ModelPoint{}, nil},
	} {
		k, err := runner.KernelFor(tc.p)
		if err != nil || k != tc.want {
			t.Errorf("KernelFor(%+v) = %v, %v; want %v", tc.p, k, err, tc.want)
		}
	}
	if _, err := runner.KernelFor(config.ModelPoint{Kernel: "laplace"}); err == nil || !strings.Contains(err.Error(), `unknown kernel "laplace"`) {
		t.Errorf("unknown kernel: %v", err)
	}
}

// TestWithWidth checks the one way a kind changes a cell's width: a copy
// whose model point and kernel carry the new width, the cell itself (its
// key, seed and kernel) untouched.
func TestWithWidth(t *testing.T) {
	cells, err := runner.Cells(parse(t, "title: t\npaper: none\nkind: fake-test\nseed: 1\ndataset: {name: none-test}\nmodel: {kernel: gaussian, sigma: 2, components: 1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := cells[0]
	w, err := c.WithWidth(3)
	if err != nil {
		t.Fatal(err)
	}
	if w.Model.Width != 3 || w.Kernel != (kernel.Gaussian{C: 9}) || w.Key != c.Key || w.Seed != c.Seed {
		t.Errorf("WithWidth(3): width %v, kernel %v, key %q, seed %d", w.Model.Width, w.Kernel, w.Key, w.Seed)
	}
	if c.Model.Width != 2 || c.Kernel != (kernel.Gaussian{C: 4}) {
		t.Errorf("the cell changed: width %v, kernel %v", c.Model.Width, c.Kernel)
	}
	if _, err := c.WithWidth(-1); err == nil {
		t.Error("a negative width accepted")
	}
}

// TestSeeds checks the seeding rules: a stream is a function of the seed
// and its key alone (the same twice), different keys and different root
// seeds give different streams, and repeat draw 0 is the seed a kind
// without repeats uses, DeriveSeed(root, "corruption"), so repeats: 1
// reproduces a run without repeats.
func TestSeeds(t *testing.T) {
	a, b := runner.NewRand(7, "split"), runner.NewRand(7, "split")
	for range 5 {
		if a.Uint64() != b.Uint64() {
			t.Fatal("the same seed and key gave different streams")
		}
	}
	first := func(seed uint64, key string) uint64 { return runner.NewRand(seed, key).Uint64() }
	if first(7, "split") == first(7, "starts") || first(7, "split") == first(8, "split") {
		t.Error("streams of different keys or seeds coincide")
	}
	if runner.DeriveSeed(7, "a") == runner.DeriveSeed(7, "b") || runner.DeriveSeed(7, "a") == runner.DeriveSeed(8, "a") {
		t.Error("derived seeds coincide")
	}
	if runner.RepeatSeed(7, 0) != runner.DeriveSeed(7, "corruption") {
		t.Error("repeat 0 is not the seed of a run without repeats")
	}
	seen := map[uint64]int{}
	for r := range 5 {
		s := runner.RepeatSeed(7, r)
		if prev, dup := seen[s]; dup {
			t.Errorf("repeats %d and %d share a seed", prev, r)
		}
		seen[s] = r
	}
	// A uniform stream: the mean of 10⁴ draws of U[0, 1) lies within
	// 4σ = 4/√(12·10⁴) ≈ 0.0115 of 1/2.
	r := runner.NewRand(1, "uniform")
	var s float64
	for range 10000 {
		s += r.Float64()
	}
	if m := s / 10000; math.Abs(m-0.5) > 0.0115 {
		t.Errorf("mean of 10⁴ uniforms %v", m)
	}
}
