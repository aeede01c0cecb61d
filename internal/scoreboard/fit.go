package scoreboard

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// Reading fit (issue 36, part 3): how close each config that regenerates
// a printed table of the paper (a paper_table with the paper's values
// beside ours) comes to the printed numbers, so the reader can see which
// reading the paper's own numbers point to.
//
// The distance is scale-free, the median over the table's cells of
// |ln(ours/paper)|: 0 when every value matches, ln 2 ≈ 0.69 when the
// typical cell is off by a factor of 2 either way. A cell enters only
// where both values are finite and of the same sign, neither zero; a cell
// of ours that failed, is NaN or has no record is counted as missing, and
// one of opposite sign or a zero as excluded, never silently dropped. A
// value the paper prints more than once for the same metric of the same
// cell is one cell.

// BetterFactor and BetterMinCells are the rule by which a reading fits
// the printed numbers clearly better than the stated protocol: its
// distance is at most 1/BetterFactor of the base's, and both are medians
// over at least BetterMinCells cells. A factor of 2 keeps a reading that
// only shaves the typical error from being named; three cells keep one
// lucky cell from deciding.
const (
	BetterFactor   = 2
	BetterMinCells = 3
)

// Fit is one config's distance to one printed table.
type Fit struct {
	// Config is the config's name, Label its column label in its base's
	// table (the base's own name for the base).
	Config, Label string
	// Base is true for the stated protocol's config, Diagnostic for a
	// variant that probes our stand-in rather than reading the paper.
	Base, Diagnostic bool
	// Run is false when the results root has no records for the config;
	// the counts below are then zero.
	Run bool
	// Distance is the median |ln(ours/paper)| over Cells cells (NaN when
	// Cells is 0).
	Distance float64
	// Cells counts the cells compared; Excluded those where the log is
	// undefined (a zero or opposite signs); Missing those where ours is
	// absent (no record, a failed cell, NaN or ±Inf).
	Cells, Excluded, Missing int
}

// PrintedFit is the fit of a base config and its variants to one printed
// table (one part of the base's paper_table).
type PrintedFit struct {
	// Table is the printed table's title (with its part, if any).
	Table string
	// Fits holds the base first, then each variant whose paper_table has
	// the part, in column order.
	Fits []Fit
	// Better is the index in Fits of the reading (not diagnostic) that
	// fits clearly better than the base (BetterFactor, BetterMinCells),
	// the closest if several do; -1 when none does.
	Better int
}

// BetterFit returns the reading that fits clearly better, and whether
// there is one.
func (p PrintedFit) BetterFit() (Fit, bool) {
	if p.Better < 0 {
		return Fit{}, false
	}
	return p.Fits[p.Better], true
}

// printedFits computes the fits of base and its variants (vs, sorted as
// their columns) to each part of base's printed table, reading each
// config's records.jsonl under root.
func printedFits(root string, base *config.Config, vs []*config.Config) ([]PrintedFit, error) {
	if base.PaperTable == nil {
		return nil, nil
	}
	parts := base.PaperTable.Parts
	if len(parts) == 0 {
		parts = []string{""}
	}
	recs := map[string][]report.Record{}
	ran := map[string]bool{}
	for _, c := range append([]*config.Config{base}, vs...) {
		if c.PaperTable == nil {
			continue
		}
		r, ok, err := readRecords(filepath.Join(root, c.Name))
		if err != nil {
			return nil, err
		}
		recs[c.Name], ran[c.Name] = r, ok
	}
	var out []PrintedFit
	for j, part := range parts {
		pf := PrintedFit{Table: base.PaperTable.Title, Better: -1}
		if part != "" {
			pf.Table += " — " + part
		}
		for i, c := range append([]*config.Config{base}, vs...) {
			vp, ok := partOf(c.PaperTable, part, j, len(parts))
			if !ok {
				continue
			}
			f := tableFit(c, vp, recs[c.Name])
			f.Config, f.Base, f.Diagnostic, f.Run = c.Name, i == 0, c.Diagnostic, ran[c.Name]
			f.Label = c.Name
			if i > 0 {
				f.Label = columnLabel(c.Name, base.Name)
			}
			if !f.Run {
				f = Fit{Config: f.Config, Label: f.Label, Base: f.Base, Diagnostic: f.Diagnostic, Distance: math.NaN()}
			}
			pf.Fits = append(pf.Fits, f)
		}
		pf.Better = better(pf.Fits)
		out = append(out, pf)
	}
	return out, nil
}

// partOf is the part of a variant's paper table pt that regenerates the
// base's part (the j-th of n): the part of that name, else the j-th when
// both tables have n parts (a reading may rename the part whose quantity
// it reads otherwise, e.g. Huang's SNR pooled over images); ok is false
// when pt has none.
func partOf(pt *config.PaperTable, part string, j, n int) (string, bool) {
	switch {
	case pt == nil:
		return "", false
	case part == "" && len(pt.Parts) == 0:
		return "", true
	case slices.Contains(pt.Parts, part):
		return part, true
	case len(pt.Parts) == n:
		return pt.Parts[j], true
	}
	return "", false
}

// better is the index of the reading that fits clearly better than the
// base (fits[0]), the one with the smallest distance if several do; -1
// when none does or the base was not run.
func better(fits []Fit) int {
	if len(fits) == 0 || !fits[0].Base || !fits[0].Run || fits[0].Cells < BetterMinCells {
		return -1
	}
	best := -1
	for i, f := range fits[1:] {
		if f.Diagnostic || !f.Run || f.Cells < BetterMinCells || !(f.Distance*BetterFactor <= fits[0].Distance) {
			continue
		}
		if best < 0 || f.Distance < fits[best].Distance {
			best = i + 1
		}
	}
	return best
}

// tableFit is config c's distance to the printed values of its table's
// part: each reference value of the part against the first of c's
// records its cell selects, as the paper table shows them
// (tables.Paper).
func tableFit(c *config.Config, part string, recs []report.Record) Fit {
	var logs []float64
	f := Fit{}
	seen := map[string]bool{}
	for _, ref := range c.Reference {
		if ref.Part != part || ref.Row == "" {
			continue
		}
		// A value the paper prints again for the same metric of the same
		// cell (LPKPCA's KPCA row, one accuracy under every λ) is one
		// comparison, not several: repeated, it would fill the median.
		key := fmt.Sprintf("%s\x00%s\x00%v", ref.Metric, config.CanonicalKey(ref.Cell), ref.Value)
		if seen[key] {
			continue
		}
		seen[key] = true
		ours, ok := oursFor(ref, recs)
		switch {
		case !ok:
			f.Missing++
		case ours == 0 || ref.Value == 0 || (ours > 0) != (ref.Value > 0) || math.IsNaN(ref.Value):
			f.Excluded++
		default:
			logs = append(logs, math.Abs(math.Log(ours/ref.Value)))
		}
	}
	f.Cells = len(logs)
	f.Distance = median(logs)
	return f
}

// oursFor is our value of reference ref: the metric of the first record
// its cell selects, unless that cell failed or the value is not finite.
func oursFor(ref config.Reference, recs []report.Record) (float64, bool) {
	for i := range recs {
		r := &recs[i]
		if !claims.Matches(r, ref.Cell) {
			continue
		}
		v, ok := r.Metrics[ref.Metric]
		if !ok || r.Status == report.StatusFailed || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, false
		}
		return v, true
	}
	return 0, false
}

// median is the median of xs (the mean of the middle two for an even
// count), NaN for none. xs is sorted in place.
func median(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	slices.Sort(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// readRecords reads dir/records.jsonl; ok is false when it does not exist.
func readRecords(dir string) ([]report.Record, bool, error) {
	path := filepath.Join(dir, "records.jsonl")
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("scoreboard: %w", err)
	}
	recs, err := report.ReadJSONL(path)
	if err != nil {
		return nil, false, fmt.Errorf("scoreboard: %w", err)
	}
	return recs, true, nil
}
