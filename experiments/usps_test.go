package experiments_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// A small slice of the Fig. 4 protocol on the real USPS files: it checks the
// loader, checksums, corruption, batched de-noising and report end to end.
const uspsSmall = `title: USPS smoke test
paper: abrahamsen-hansen-regularized-preimage
kind: denoise
seed: 3
dataset: {name: usps, digits: [0, 2, 4, 9], train_per_digit: 25, test_per_digit: 10}
corruption: {type: gaussian, variance: 0.25}
model: {kernel: gaussian, c: [50, 1000], components: [10, 40]}
methods:
  - name: kwok-tsang
    params: {neighbors: 10}
  - name: mika
experiment: {figure: bands}
claims:
  - id: denoising-helps-when-linear
    expect: inconclusive
    because: "both medians are below 0.25, but 40 test digits cannot decide it: {detectable}; measured: {evidence}"
    statement: "At c = 1000 with 40 PCs both estimators beat the noisy input (median MSE 0.25 for variance-0.25 noise)."
    check: {type: value, metric: mse_median, where: {c: 1000, components: 40}, op: "<", value: 0.25}
`

func TestUSPSDenoiseRealData(t *testing.T) {
	if os.Getenv("RUNEXP_DATA") == "" {
		t.Skip("RUNEXP_DATA not set: the USPS files are not available")
	}
	c, err := config.Parse("usps-small.yaml", []byte(uspsSmall))
	if err != nil {
		t.Fatal(err)
	}
	dirs, sums := runParsed(t, c, 1, 2)
	checkTablesFile(t, dirs[0])
	for _, sum := range sums {
		if sum.Failed != 0 || sum.ClaimsFailed() != 0 {
			t.Errorf("%d failed cells, %d failed claims: %+v", sum.Failed, sum.ClaimsFailed(), sum.Claims)
		}
	}
	recs, err := report.ReadJSONL(filepath.Join(dirs[0], "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 8 || len(recs[0].Arrays["mse"]) != 40 {
		t.Errorf("%d records with %d per-digit errors; want 8 and 40", len(recs), len(recs[0].Arrays["mse"]))
	}
	for _, f := range []string{"records.jsonl", "tables.md", "fig4-bands.png"} {
		a, _ := os.ReadFile(filepath.Join(dirs[0], f))
		b, _ := os.ReadFile(filepath.Join(dirs[1], f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between -j 1 and -j 2 (or is empty)", f)
		}
	}
	man, err := os.ReadFile(filepath.Join(dirs[0], "manifest.json"))
	if err != nil || !bytes.Contains(man, []byte("66ebf231ab51f2cf6ac1a892d0f98ccffee1079d7a5db638c1f11f366046ca16")) {
		t.Errorf("the manifest does not record the SHA-256 of usps/zip.train.gz (from SHA256SUMS)")
	}
}
