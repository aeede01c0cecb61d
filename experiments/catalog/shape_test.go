package catalog_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	_ "github.com/runexp/runexp/experiments/catalog"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/runner"
)

// anyKind takes any dataset and no estimator: Validate's resource
// estimate is then the dataset's alone.
func init() {
	runner.RegisterKind(runner.Kind{
		Name: "catalog-test-any", Doc: "accepts every dataset (catalog's tests)",
		Start: func(*runner.Env, any) (runner.Instance, error) { return nil, errors.New("not run") },
	})
}

// validate validates a config of the test kind on dataset name with opts
// (YAML flow entries) and the model's component counts.
func validate(t *testing.T, name, opts, components string) (*runner.Plan, error) {
	t.Helper()
	src := fmt.Sprintf("title: t\npaper: p\nkind: catalog-test-any\ndataset: {name: %s%s}\nmodel:\n  kernel: gaussian\n  c: 1\n  components: %s\n", name, opts, components)
	c, err := config.Parse("shape.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return runner.Validate(c)
}

// TestShapes checks each dataset's size as Validate estimates it from the
// options alone, against counts taken from the data's sources:
// two-rings draws n points in the plane; USPS 16×16 digits, train and
// test per digit; Yale B's subsets hold 7, 12, 12, 14 and 19 lightings
// (Georghiades et al. 2001) of 38 subjects at 168×192; the Yale faces 165
// files, 156 once the duplicates go (PROVENANCE.md), their first row
// cropped from 320×243; CMU PIE 15 expression images or 5 poses × 21
// flashes per subject at 32×32; ORL 40 subjects × 10 images of 92×112;
// Oil Flow 1000 points of 12; the synthetic images their classes × groups
// × images per cell.
func TestShapes(t *testing.T) {
	for _, tc := range []struct {
		name, opts  string
		points, dim int
	}{
		{"two-rings", "", 500, 2},
		{"two-rings", ", n: 10", 10, 2},
		{"usps", "", 4 * (100 + 100), 256},
		{"usps", ", digits: [3], train_per_digit: 5, test_per_digit: 2", 7, 256},
		{"yaleb", "", 38 * 7, 168 * 192},
		{"yaleb", ", subsets: [1, 2], subjects: [1, 39], width: 8, height: 10", 2 * (7 + 12), 80},
		{"yaleb", ", subsets: [1, 2, 3, 4, 5]", 38 * 64, 168 * 192},
		{"yalefaces", "", 156, 320 * 242},
		{"yalefaces", ", dedupe: false, width: 8, height: 6", 165, 48},
		{"pie10", "", 10 * 15, 1024},
		{"pie10", ", subset: poses, labels: subject, subjects: [0, 9]", 2 * 105, 1024},
		{"pie68", "", 68 * 42, 1024},
		{"orl", "", 40 * 10, 92 * 112},
		{"oilflow", "", 1000, 12},
		{"synthetic-images", ", classes: 2, groups: 3, per_cell: 4, width: 5, height: 7", 24, 35},
	} {
		plan, err := validate(t, tc.name, tc.opts, "1")
		if err != nil {
			t.Errorf("%s%s: %v", tc.name, tc.opts, err)
			continue
		}
		if e := plan.Estimate; e == nil || e.Points != tc.points || e.Dim != tc.dim {
			t.Errorf("%s%s: estimate %+v, want %d points of %d", tc.name, tc.opts, e, tc.points, tc.dim)
			continue
		}
		// The kernel matrix of every point, Points² float64.
		if g := plan.Estimate.GramBytes; g != 8*float64(tc.points)*float64(tc.points) {
			t.Errorf("%s%s: Gram bytes %v, want 8·%d²", tc.name, tc.opts, g, tc.points)
		}
	}
}

// TestComponentsBeyondPoints checks the refusal of a component count
// above the data's points, found from the options before anything loads,
// placed at the model section (config.ModelErrorf: the line where the
// model's mapping begins, its first key for a block mapping, line 6).
func TestComponentsBeyondPoints(t *testing.T) {
	if _, err := validate(t, "two-rings", ", n: 10", "[2, 10]"); err != nil {
		t.Errorf("10 components of 10 points: %v", err)
	}
	_, err := validate(t, "two-rings", ", n: 10", "[2, 11]")
	want := "shape.yaml:6: model.components: 11 exceeds the 10 points of the data"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("11 components of 10 points: %v, want %q…", err, want)
	}
}

// TestMemoryRefused checks the refusal of a config whose estimate exceeds
// the memory runexp may use: a ResourceError at the dataset's line saying
// how much it needs and how much there is, with the estimate.
func TestMemoryRefused(t *testing.T) {
	old := runner.MaxMemory
	defer func() { runner.MaxMemory = old }()
	// 256 MiB of the process's own plus 6 × 8·20000² bytes of kernel
	// matrices: about 18.1 GiB; allow 8 GiB.
	runner.MaxMemory = 8 << 30
	_, err := validate(t, "two-rings", ", n: 20000", "1")
	var re *runner.ResourceError
	if !errors.As(err, &re) {
		t.Fatalf("error %v, want a ResourceError", err)
	}
	for _, want := range []string{"shape.yaml:4: dataset: 20000 points of 2 values need about 18.1 GiB", "the kernel matrix alone, 20000² float64, is 3.0 GiB", "more than the 8.0 GiB"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if re.Estimate.Points != 20000 || re.Estimate.GramBytes != 8*20000*20000 {
		t.Errorf("estimate %+v", re.Estimate)
	}
	runner.MaxMemory = 32 << 30
	if _, err := validate(t, "two-rings", ", n: 20000", "1"); err != nil {
		t.Errorf("with 32 GiB: %v", err)
	}
}
