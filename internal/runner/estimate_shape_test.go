package runner_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/runner"
)

// shapeOptions are the options of shape-test: the data's size as the
// config gives it.
type shapeOptions struct {
	points int
	work   float64
}

func init() {
	runner.RegisterDataset(runner.DefineDataset(runner.Dataset[shapeOptions]{
		Name: "shape-test",
		Doc:  "a dataset of the size its options give",
		Parse: func(s config.Section) (shapeOptions, error) {
			r := s.Reader("dataset")
			o := shapeOptions{points: r.Int("points", 10, 1), work: r.Float("work", 0, func(v float64) bool { return v >= 0 }, "≥ 0")}
			return o, r.Err()
		},
		Shape: func(o shapeOptions) runner.Shape { return runner.Shape{Points: o.points, Dim: 10, Work: o.work} },
		Load:  func(*runner.Env, *datasets.Root, shapeOptions) (*runner.Data, error) { return &runner.Data{}, nil },
	}))
	runner.RegisterDataset(runner.DefineDataset(runner.Dataset[struct{}]{
		Name:  "bare-test",
		Doc:   "a dataset without options",
		Parse: runner.NoOptions,
		Load:  func(*runner.Env, *datasets.Root, struct{}) (*runner.Data, error) { return &runner.Data{}, nil },
	}))
}

// shapeConfig is fakeConfig on shape-test with the dataset options opts
// (indented YAML lines).
func shapeConfig(opts string) string {
	return strings.Replace(fakeConfig, "  name: none-test\n", "  name: shape-test\n"+opts, 1)
}

// TestValidateEstimate checks the estimate Validate makes from a dataset's
// Shape, by hand: for 100 points of 10 values, the Gram matrix is
// 8·100² = 80 000 bytes, and the run 256 MiB + 6·80 000 + 4·8·100·10 =
// 268 947 456 bytes.
func TestValidateEstimate(t *testing.T) {
	plan, err := runner.Validate(parse(t, shapeConfig("  points: 100\n")))
	if err != nil {
		t.Fatal(err)
	}
	e := plan.Estimate
	if e == nil || e.Points != 100 || e.Dim != 10 || e.GramBytes != 80000 || e.Bytes != 268947456 {
		t.Errorf("estimate %+v, want 100×10, Gram 80000 B, 268947456 B in all", e)
	}
	// A dataset without Shape gives none.
	if plan, err := runner.Validate(parse(t, fakeConfig)); err != nil || plan.Estimate != nil {
		t.Errorf("none-test: estimate %+v (%v), want none", plan.Estimate, err)
	}
}

// TestValidateEstimateRefusals checks the configs the estimate refuses:
// more components than points, at the model section; and memory beyond
// MaxMemory (set to 300 MiB), as a ResourceError at the dataset section
// whose words name the larger of the Gram matrix and the loading's work.
// By hand: 2000 points of 10 values need 256 MiB + 6·8·2000² + 4·8·2000·10
// = 461 075 456 B = 439.7 MiB, the Gram matrix 32 000 000 B = 30.5 MiB;
// a work of 1 GiB makes it 1463.7 MiB = 1.4 GiB. A section's errors are
// placed at its first line (the mapping's): model's at line 9 (kernel:),
// the dataset's at line 6 (name:).
func TestValidateEstimateRefusals(t *testing.T) {
	saved := runner.MaxMemory
	runner.MaxMemory = 300 << 20
	t.Cleanup(func() { runner.MaxMemory = saved })
	for _, tc := range []struct {
		name, opts string
		want       string
		resource   bool
	}{
		{"components beyond the points", "  points: 1\n",
			"fake.yaml:9: model.components: 2 exceeds the 1 points of the data (training and test together); a principal-component model of them has at most that many components", false},
		{"the Gram matrix too large", "  points: 2000\n",
			"fake.yaml:6: dataset: 2000 points of 10 values need about 439.7 MiB of memory (the kernel matrix alone, 2000² float64, is 30.5 MiB), more than the 300.0 MiB runexp may use on this machine; use fewer or smaller points", true},
		{"the loading too large", "  points: 2000\n  work: 1073741824\n",
			"fake.yaml:6: dataset: 2000 points of 10 values need about 1.4 GiB of memory (loading them alone needs 1.0 GiB), more than the 300.0 MiB runexp may use on this machine; use fewer or smaller points", true},
	} {
		_, err := runner.Validate(parse(t, shapeConfig(tc.opts)))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
			continue
		}
		var re *runner.ResourceError
		if errors.As(err, &re) != tc.resource {
			t.Errorf("%s: a ResourceError: %v, want %v", tc.name, !tc.resource, tc.resource)
		}
		var ce *config.Error
		if !errors.As(err, &ce) || ce.File != "fake.yaml" {
			t.Errorf("%s: %v does not unwrap to the config's error", tc.name, err)
		}
		if re != nil && (re.Estimate.Points != 2000 || re.Estimate.GramBytes != 32e6) {
			t.Errorf("%s: the refused estimate %+v, want 2000 points and their 32e6-byte Gram matrix", tc.name, re.Estimate)
		}
	}
}

// TestNoOptions checks a dataset declared without options: none given
// passes, any given is refused at its line.
func TestNoOptions(t *testing.T) {
	src := strings.Replace(fakeConfig, "  name: none-test\n", "  name: bare-test\n", 1)
	if _, err := runner.Validate(parse(t, src)); err != nil {
		t.Errorf("no options: %v", err)
	}
	_, err := runner.Validate(parse(t, strings.Replace(src, "  name: bare-test\n", "  name: bare-test\n  size: 3\n", 1)))
	if err == nil || !strings.HasPrefix(err.Error(), "fake.yaml:7: ") || !strings.Contains(err.Error(), "size") {
		t.Errorf("an option given: %v, want it refused at line 7", err)
	}
}
