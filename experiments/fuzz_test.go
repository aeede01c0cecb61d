package experiments_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/runner"
)

// FuzzValidate: a config through the parser and runner.Validate, every
// kind and dataset registered. No config panics either; every refusal is
// a config error naming the file (FILE:LINE); what is accepted has a
// grid within MaxCells, a resource estimate within MaxMemory, and lists
// the commands its external estimators would run without panicking.
// Seeds: small configs of several kinds, with the sizes issue #28's
// campaign used (n: 200000, 10⁹ components, a 3-D point).
func FuzzValidate(f *testing.F) {
	rings := "title: t\npaper: p\nkind: local-minima\ndataset: {name: two-rings, n: 50}\nmodel: {kernel: gaussian, c: [0.5, 1], components: 5}\nmethods:\n  - name: mika\nexperiment: {point: [0, 0]}\n"
	for _, s := range []string{
		rings,
		strings.Replace(rings, "n: 50", "n: 200000", 1),
		strings.Replace(rings, "components: 5", "components: 1000000000", 1),
		strings.Replace(rings, "[0, 0]", "[0, 0, 0]", 1),
		strings.Replace(rings, "- name: mika", "- name: external\n    params: {command: \"touch x\"}", 1),
		"title: t\npaper: p\nkind: denoise\ndataset: {name: synthetic-images, classes: 2, groups: 2, per_cell: 3, width: 4, height: 4, test_per_cell: 1}\ncorruption: {type: gaussian, std: 0.1}\nmodel: {kernel: gaussian, c: 5, components: 3}\nmethods:\n  - name: mika\n",
		"title: t\npaper: p\nkind: denoise\ndataset: {name: usps, digits: [1], train_per_digit: 100000000, test_per_digit: 1}\ncorruption: {type: gaussian, std: 0.1}\nmodel: {kernel: gaussian, c: 5, components: 3}\nmethods:\n  - name: mika\n",
	} {
		f.Add([]byte(s))
	}
	defer func(n int, m int64) { runner.MaxCells, runner.MaxMemory = n, m }(runner.MaxCells, runner.MaxMemory)
	runner.MaxCells, runner.MaxMemory = 1000, 4<<30
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := config.Parse("fuzz.yaml", b)
		if err != nil {
			return // FuzzParse's property
		}
		plan, err := runner.Validate(c)
		if err != nil {
			var ce *config.Error
			if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Fatalf("error %q (%T) is not a config error naming the file", err, err)
			}
			return
		}
		if len(plan.Cells) > runner.MaxCells {
			t.Fatalf("accepted %d cells", len(plan.Cells))
		}
		if e := plan.Estimate; e != nil && e.Bytes > float64(runner.MaxMemory) {
			t.Fatalf("accepted an estimate of %v bytes", e.Bytes)
		}
		for _, q := range c.Model.Components {
			if e := plan.Estimate; e != nil && q > e.Points {
				t.Fatalf("accepted %d components for %d points", q, e.Points)
			}
		}
		runner.ExternalCommands(c)
	})
}

// TestFuzzValidateShipped: every shipped config validates (FuzzValidate's
// property on the seeds too large to fuzz from).
func TestFuzzValidateShipped(t *testing.T) {
	paths, err := os.ReadDir("../configs")
	if err != nil {
		t.Skip(err)
	}
	for _, e := range paths {
		if !strings.HasSuffix(e.Name(), ".yaml") || config.IsCollection("../configs/"+e.Name()) {
			continue
		}
		c, err := config.Load("../configs/" + e.Name())
		if err == nil {
			_, err = runner.Validate(c)
		}
		if err != nil {
			t.Errorf("%s: %v", e.Name(), err)
		}
	}
}
