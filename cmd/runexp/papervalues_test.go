package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/runexp/runexp/internal/suite"
)

// noDataWithPaperValues sets RUNEXP_DATA to an empty data root with a copy
// of the paper values beside it ($RUNEXP_DATA/../paper-values), for a
// test of configs that need no data whose run reads the paper values
// (the scoreboard, the reports): it holds from any clone, beside shared/
// or not. The paper values are found as runexp finds them, beside the
// checkout or beside $RUNEXP_DATA; without them the test is skipped,
// saying why.
func noDataWithPaperValues(t *testing.T) {
	t.Helper()
	pv, err := suite.FindPaperValues("../../configs", "")
	if err != nil {
		t.Skipf("needs the paper values, which this clone does not find (%v): set RUNEXP_DATA to a data root with paper-values beside it", err)
	}
	top := t.TempDir()
	files, err := filepath.Glob(filepath.Join(pv, "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(top, "paper-values"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(top, "paper-values", filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(top, "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "SHA256SUMS"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("RUNEXP_DATA", data)
}
