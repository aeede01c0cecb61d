package tables

import (
	"fmt"
	"math"
	"slices"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// PaperFits returns the config's reading fit to each part of its printed
// table (report.PaperFit), in the paper_table's order of parts, and within
// a part one per interpretation of its printed numbers (interpretations);
// none when the config has no paper_table. recs are the config file's own methods'
// records, as Paper reads them.
//
// Each reference value of a part is compared with the first record its
// cell selects, as the paper table shows it. A cell enters only where
// both values are finite and of one sign, neither zero; a cell of ours
// that failed, is not finite or has no record is counted as missing, and
// one with a zero or opposite signs as excluded, never silently dropped.
// A value the paper prints again for the same metric of the same cell
// (LPKPCA's KPCA row, one accuracy printed under every λ) is one cell:
// repeated, it would fill the median.
func PaperFits(c *config.Config, recs []report.Record) []report.PaperFit {
	if c.PaperTable == nil {
		return nil
	}
	parts := c.PaperTable.Parts
	if len(parts) == 0 {
		parts = []string{""}
	}
	var out []report.PaperFit
	for _, part := range parts {
		for _, in := range interpretations(c, part) {
			f := paperFit(c, part, in, recs)
			f.Supported = in == "" || len(c.PaperTable.Supported) == 0 || slices.Contains(c.PaperTable.Supported, in)
			out = append(out, f)
		}
	}
	return out
}

// interpretations lists the interpretations of a part's printed values:
// where the config references one printed value (the same source and
// value) under several metrics, each is a reading of the paper's unit,
// named by the paper table's column its references sit in (Zheng & Lai's
// MSE as a per-image SSE on [0, 1] or a per-pixel MSE on 0-255), and a
// fit is computed over each apart, never pooled in one median; [""] when
// there is none.
func interpretations(c *config.Config, part string) []string {
	metrics := map[string]map[string]bool{}
	for _, ref := range c.Reference {
		if ref.Part != part || ref.Row == "" || ref.Absent != "" {
			continue
		}
		k := fmt.Sprintf("%s\x00%v", ref.Source, ref.Value)
		if metrics[k] == nil {
			metrics[k] = map[string]bool{}
		}
		metrics[k][ref.Metric] = true
	}
	var cols []string
	for _, ref := range c.Reference {
		if ref.Part != part || ref.Row == "" || ref.Absent != "" || len(metrics[fmt.Sprintf("%s\x00%v", ref.Source, ref.Value)]) < 2 {
			continue
		}
		if !slices.Contains(cols, ref.Column) {
			cols = append(cols, ref.Column)
		}
	}
	if len(cols) == 0 {
		return []string{""}
	}
	return cols
}

// inInterpretation reports whether ref enters the fit of interpretation
// in: every reference when there is one interpretation, else those of
// its column and those whose printed value has one reading only.
func inInterpretation(c *config.Config, ref config.Reference, in string) bool {
	if in == "" || ref.Column == in {
		return true
	}
	for _, o := range c.Reference {
		if o.Part == ref.Part && o.Source == ref.Source && o.Value == ref.Value && o.Metric != ref.Metric {
			return false
		}
	}
	return true
}

func paperFit(c *config.Config, part, in string, recs []report.Record) report.PaperFit {
	var logs []float64
	f := report.PaperFit{Part: part, Interpretation: in}
	seen := map[string]bool{}
	for _, ref := range c.Reference {
		// A value we have no counterpart to (absent:) is no cell of the
		// fit, neither matched nor missing.
		if ref.Part != part || ref.Row == "" || ref.Absent != "" || !inInterpretation(c, ref, in) {
			continue
		}
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
	if f.Cells > 0 {
		f.Distance = median(logs)
	}
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

// median is the median of xs, len(xs) > 0 (the mean of the middle two
// for an even count); xs is sorted in place.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
