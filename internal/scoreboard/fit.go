package scoreboard

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/safefs"
	"github.com/runexp/runexp/internal/tables"
)

// Reading fit: how close each config that regenerates
// a printed table of the paper (a paper_table with the paper's values
// beside ours) comes to the printed numbers, so the reader can see which
// reading the paper's own numbers point to. The distance and its cells are
// tables.PaperFits' (report.PaperFit: the median |ln(ours/paper)| over
// the table's cells); the rule naming a reading that fits clearly better
// is report.FitsClearlyBetter's.

// BetterFactor and BetterMinCells restate report's rule for the page.
const (
	BetterFactor   = report.FitFactor
	BetterMinCells = report.FitMinCells
)

// Fit is one config's distance to one printed table.
type Fit struct {
	// Config is the config's name, Label its column label in its base's
	// table (the base's own name for the base).
	Config, Label string
	// Base is true for the stated protocol's config, Diagnostic for a
	// variant that probes our stand-in rather than reading the paper,
	// PostHoc for one that reads no listed ambiguity (neither is named).
	Base, Diagnostic, PostHoc bool
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
	// Interpretation is the reading of the printed numbers' unit the
	// fits are over (report.PaperFit.Interpretation; "" where there is
	// one), and Supported whether the paper's text supports it: a
	// reading is named as fitting better only under a supported one.
	Interpretation string
	Supported      bool
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
		for _, bf := range tables.PaperFits(base, recs[base.Name]) {
			if bf.Part != part {
				continue
			}
			pf := PrintedFit{Table: base.PaperTable.Title, Better: -1, Interpretation: bf.Interpretation, Supported: bf.Supported}
			if part != "" {
				pf.Table += " — " + part
			}
			for i, c := range append([]*config.Config{base}, vs...) {
				vp, ok := partOf(c.PaperTable, part, j, len(parts))
				if !ok {
					continue
				}
				f := tableFit(c, vp, bf.Interpretation, recs[c.Name])
				f.Config, f.Base, f.Diagnostic, f.PostHoc, f.Run = c.Name, i == 0, c.Diagnostic, c.PostHoc != "", ran[c.Name]
				f.Label = c.Name
				if i > 0 {
					f.Label = columnLabel(c.Name, base.Name)
				}
				if !f.Run {
					f = Fit{Config: f.Config, Label: f.Label, Base: f.Base, Diagnostic: f.Diagnostic, PostHoc: f.PostHoc, Distance: math.NaN()}
				}
				pf.Fits = append(pf.Fits, f)
			}
			if pf.Supported {
				pf.Better = better(pf.Fits)
			}
			out = append(out, pf)
		}
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
// base (fits[0]; report.FitsClearlyBetter), the one with the smallest
// distance if several do; -1 when none does or the base was not run.
func better(fits []Fit) int {
	if len(fits) == 0 || !fits[0].Base || !fits[0].Run {
		return -1
	}
	best := -1
	for i, f := range fits[1:] {
		if f.Diagnostic || f.PostHoc || !f.Run || !report.FitsClearlyBetter(f.paperFit(), fits[0].paperFit()) {
			continue
		}
		if best < 0 || f.Distance < fits[best].Distance {
			best = i + 1
		}
	}
	return best
}

// paperFit is f's distance and cells as report.PaperFit holds them.
func (f Fit) paperFit() report.PaperFit {
	return report.PaperFit{Distance: f.Distance, Cells: f.Cells, Excluded: f.Excluded, Missing: f.Missing}
}

// tableFit is config c's fit to the part of its printed table under
// interpretation in.
func tableFit(c *config.Config, part, in string, recs []report.Record) Fit {
	for _, pf := range tables.PaperFits(c, recs) {
		if pf.Part == part && pf.Interpretation == in {
			d := pf.Distance
			if pf.Cells == 0 {
				d = math.NaN()
			}
			return Fit{Distance: d, Cells: pf.Cells, Excluded: pf.Excluded, Missing: pf.Missing}
		}
	}
	return Fit{Distance: math.NaN()}
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
	if err := safefs.CheckInside(filepath.Dir(dir), path); err != nil { // inside the results root
		return nil, false, fmt.Errorf("scoreboard: %w", err)
	}
	recs, err := report.ReadJSONL(path)
	if err != nil {
		return nil, false, fmt.Errorf("scoreboard: %w", err)
	}
	return recs, true, nil
}
