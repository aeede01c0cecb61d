package experiments_test

import (
	"path/filepath"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/runner"
)

// TestEveryConfigValidates keeps the shipped configs in step with the
// estimators, kinds and datasets they name, and the collections with the
// configs they list (config.Open checks that each member exists).
func TestEveryConfigValidates(t *testing.T) {
	files, err := filepath.Glob("../configs/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no configs found: %v", err)
	}
	for _, f := range files {
		c, col, err := config.Open(f)
		if col != nil {
			continue
		}
		if err == nil {
			_, err = runner.Validate(c)
		}
		if err != nil {
			t.Errorf("%v", err)
		}
	}
}

// TestReadingVariantsShareCells checks that a reading variant (a config
// with variant_of: generated from a base with one change, issue 17) recomputes only what
// its change touches. A suite runs every config in one process over one
// cell cache, so a variant cell whose key equals a base cell's is that
// cell's cache entry, whichever of the two runs first. Titles, notes and
// claims, which every variant rewrites, must not enter the key: a cell
// with the base's canonical key and estimator is shared whenever the two
// contexts (without the kind's report-only options) agree. The raw-MSE
// reading of A&H Fig. 4 changes only the report-only renormalize, so it
// shares every cell.
func TestReadingVariantsShareCells(t *testing.T) {
	files, err := filepath.Glob("../configs/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	keys := func(path string) (map[string]runner.CellKey, string) {
		c, err := config.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		p, err := runner.Validate(c)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]runner.CellKey{}
		for _, cell := range p.Cells {
			if out[cell.Key], err = runner.NewCellKey(c, p.Kind, cell); err != nil {
				t.Fatal(err)
			}
		}
		return out, c.VariantOf
	}
	checked := 0
	for _, f := range files {
		if config.IsCollection(f) {
			continue
		}
		vk, base := keys(f)
		if base == "" {
			continue
		}
		checked++
		name := filepath.Base(f)
		bk, _ := keys(filepath.Join(filepath.Dir(f), base))
		shared := 0
		for cell, k := range vk {
			b, ok := bk[cell]
			if ok && b.Hash() == k.Hash() {
				shared++
				continue
			}
			if ok && b.Context == k.Context && b.Method == k.Method && b.MethodExternal == k.MethodExternal {
				t.Errorf("%s: cell %s has the canonical key, estimator and context of %s's, yet another cache key", name, cell, base)
			}
		}
		t.Logf("%s: %d of %d cells shared with %s", name, shared, len(vk), base)
		if name == "abrahamsen-hansen-fig4-raw-mse.yaml" && shared != len(vk) {
			t.Errorf("%s changes only renormalize, a report-only option, yet shares %d of its %d cells with %s", name, shared, len(vk), base)
		}
	}
	if checked == 0 {
		t.Fatal("no config names a variant_of")
	}
}
