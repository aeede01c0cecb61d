package experiments_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// Small slices of Nguyen & De la Torre's protocols on the real PIE and Oil
// Flow files: subject split, occlusion with region metrics, validation
// tuning, and imputation over repetitions, end to end.
const pieSmall = `title: PIE occlusion smoke test
paper: nguyen-delatorre-robust-kpca
kind: robust
seed: 2
dataset: {name: pie68}
corruption: {type: none}
model: {kernel: gaussian, gamma: 1.0e-7, energy: [0.9]}
methods:
  - {name: identity, label: Base Line}
  - {name: rkpca, label: RKPCA, params: {e0: geman-mcclure, C: 0.1, gamma2: 1.0e-5, sigma_min: 5, start: mean, tol: 1.0e-3, max_iter: 50}}
experiment:
  split: [84, 42, 42]
  occlusion_paper_sides: [30]
  occlusion_paper_fractions: [0.386]
  examples: 2
  tune:
    - {method: RKPCA, gamma2: [1.0e-5, 3.0e-5]}
claims:
  - id: baseline-nonocc-zero
    statement: "Base Line leaves the non-occluded region exact."
    check: {type: value, metric: nonocc_mean_s30, where: {method: Base Line}, op: "<=", value: 0}
`

const oilSmall = `title: Oil Flow smoke test
paper: nguyen-delatorre-robust-kpca
kind: missing
seed: 2
dataset: {name: oilflow, split: vdn}
corruption: {type: none}
methods:
  - {name: impute-mean, label: mean}
  - {name: rkpca-impute, label: RKPCA, params: {gamma: 0.0375, gamma2: 0.0375, C: 1, energy: 0.99, iterations: 2, partitions: 5, max_iter: 50, tol: 1.0e-4}}
experiment: {p_del: [0.1, 0.3], repetitions: 3, points: 40}
claims:
  - id: rkpca-beats-mean
    statement: "Algorithm 1 beats mean imputation at p(del) = 0.3."
    check: {type: best, metric: err_mean_p30, among: method, winner: RKPCA, sense: min}
`

func TestNguyenKindsRealData(t *testing.T) {
	if os.Getenv("RUNEXP_DATA") == "" {
		t.Skip("RUNEXP_DATA not set: the PIE and Oil Flow files are not available")
	}
	for _, tc := range []struct {
		name, src string
		records   int
		metric    string
	}{
		{"pie", pieSmall, 2, "whole_mean_s30"},
		{"oil", oilSmall, 2, "err_mean_p10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := config.Parse(tc.name+".yaml", []byte(tc.src))
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
			if len(recs) != tc.records {
				t.Fatalf("%d records, want %d", len(recs), tc.records)
			}
			for _, r := range recs {
				if _, ok := r.Metrics[tc.metric]; !ok {
					t.Errorf("record %s has no %s", r.Key, tc.metric)
				}
			}
			for _, f := range []string{"records.jsonl", "tables.txt", "claims.json"} {
				x, err := os.ReadFile(filepath.Join(dirs[0], f))
				if err != nil {
					t.Fatal(err)
				}
				y, err := os.ReadFile(filepath.Join(dirs[1], f))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(x, y) {
					t.Errorf("%s differs between -j 1 and -j 2", f)
				}
			}
		})
	}
}
