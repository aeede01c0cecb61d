package experiments_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/tables"
)

// TestPaperFitScaled: on every shipped config with a paper table, records
// holding 1.2345 × each printed value put every distinct non-zero cell at
// |ln 1.2345| from the paper, so each part's reading fit is exactly that
// over all those cells, zeros excluded, none missing (tables.PaperFits
// against an invariant it cannot fake).
func TestPaperFitScaled(t *testing.T) {
	const scale = 1.2345
	for _, c := range paperConfigs(t) {
		if c.PaperTable == nil {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			recs := paperRecords(c, func(string) float64 { return scale })
			fits := tables.PaperFits(c, recs)
			parts := max(len(c.PaperTable.Parts), 1)
			if len(fits) < parts {
				t.Fatalf("%d fits for %d parts", len(fits), parts)
			}
			for _, f := range fits {
				distinct := map[[2]string]float64{}
				for _, ref := range c.Reference {
					// A value we have no counterpart to (absent:) is
					// no cell of the fit.
					if ref.Part == f.Part && ref.Row != "" && ref.Absent == "" && (f.Interpretation == "" || ref.Column == f.Interpretation || !twoReadings(c, ref)) {
						distinct[[2]string{ref.Metric, config.CanonicalKey(ref.Cell)}] = ref.Value
					}
				}
				zeros := 0
				for _, v := range distinct {
					if v == 0 {
						zeros++
					}
				}
				if f.Missing != 0 || f.Excluded != zeros || f.Cells != len(distinct)-zeros {
					t.Errorf("part %q: %d cells, %d excluded, %d missing; want %d, %d, 0", f.Part, f.Cells, f.Excluded, f.Missing, len(distinct)-zeros, zeros)
				}
				if f.Cells > 0 && math.Abs(f.Distance-math.Log(scale)) > 1e-12 {
					t.Errorf("part %q: distance %v, want ln %v = %v", f.Part, f.Distance, scale, math.Log(scale))
				}
			}
		})
	}
}

// TestPaperFitNeverPools: where a config compares one printed number with
// several of our metrics (Zheng & Lai's MSE read as a per-image SSE on
// [0, 1] and as a per-pixel MSE on 0-255), each interpretation is fitted
// apart: with every metric of one interpretation at 1.1 × the printed
// value and every metric of the other at 10 ×, each fit's distance is
// exactly its own |ln|, where one median over both would land on one of
// them for both. Every such config declares which interpretation the
// paper's text supports.
func TestPaperFitNeverPools(t *testing.T) {
	n := 0
	for _, c := range paperConfigs(t) {
		if c.PaperTable == nil {
			continue
		}
		fits := tables.PaperFits(c, paperRecords(c, func(m string) float64 { return 1 }))
		var ins []string
		for _, f := range fits {
			if f.Interpretation != "" {
				ins = append(ins, f.Interpretation)
			}
		}
		if len(ins) == 0 {
			continue
		}
		n++
		if len(c.PaperTable.Supported) == 0 {
			t.Errorf("%s: %d interpretations of its printed numbers (%v) and no paper_table.interpretations saying which the text supports", c.Name, len(ins), ins)
		}
		scaleOf := map[string]float64{}
		for _, ref := range c.Reference {
			if twoReadings(c, ref) {
				scaleOf[ref.Metric] = 10
				if ref.Column == ins[0] {
					scaleOf[ref.Metric] = 1.1
				}
			}
		}
		for _, f := range tables.PaperFits(c, paperRecords(c, func(m string) float64 { return scaleOf[m] })) {
			want := math.Log(10)
			if f.Interpretation == ins[0] {
				want = math.Log(1.1)
			}
			if f.Interpretation != "" && math.Abs(f.Distance-want) > 1e-12 {
				t.Errorf("%s, read as %s: distance %v, want %v: the fit pools the interpretations", c.Name, f.Interpretation, f.Distance, want)
			}
		}
	}
	if n == 0 {
		t.Error("no config compares a printed number with two metrics: the test has nothing to check")
	}
}

// twoReadings reports whether ref's printed value is referenced under
// another metric too (an interpretation of the paper's unit).
func twoReadings(c *config.Config, ref config.Reference) bool {
	for _, o := range c.Reference {
		if o.Part == ref.Part && o.Source == ref.Source && o.Value == ref.Value && o.Metric != ref.Metric {
			return true
		}
	}
	return false
}

// paperRecords are records that hold, in every cell a reference value of
// c selects, scale(metric) × the printed value of its metric, and 0.5 for
// its std metric when it names one.
func paperRecords(c *config.Config, scale func(metric string) float64) []report.Record {
	var recs []report.Record
	for _, ref := range c.Reference {
		if ref.Absent != "" {
			continue
		}
		var rec *report.Record
		for i := range recs {
			if claims.Matches(&recs[i], ref.Cell) {
				rec = &recs[i]
			}
		}
		if rec == nil {
			recs = append(recs, report.Record{Key: config.CanonicalKey(ref.Cell), Params: ref.Cell, Metrics: map[string]float64{}, Status: report.StatusOK})
			rec = &recs[len(recs)-1]
		}
		rec.Metrics[ref.Metric] = scale(ref.Metric) * ref.Value
		if ref.Std != "" {
			rec.Metrics[ref.Std] = 0.5
		}
	}
	return recs
}

// TestManifestPaperFit: the reading fit the runner writes to the manifest
// is the one of the config's records as records.jsonl holds them (after
// the kind's Present), on a quick paper-table config on the real data.
func TestManifestPaperFit(t *testing.T) {
	if os.Getenv("RUNEXP_DATA") == "" {
		t.Skip("RUNEXP_DATA not set: the Yale B files are not available")
	}
	path := filepath.Join("..", "configs", "zheng-lai-table2.yaml")
	dir, _ := runConfig(t, path, 2)
	c, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := report.ReadJSONL(filepath.Join(dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m report.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if want := tables.PaperFits(c, recs); len(want) == 0 || !reflect.DeepEqual(m.PaperFit, want) {
		t.Errorf("manifest paper_fit %+v, records.jsonl gives %+v", m.PaperFit, want)
	}
}
