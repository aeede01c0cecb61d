package tables

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// Input is what an experiment's tables are built from.
type Input struct {
	Config *config.Config
	// Records are every cell's records, as reported; Scoped are those of
	// the config file's own methods (without --with's), which the paper's
	// values and claims are read from.
	Records, Scoped []report.Record
	// Kind are the tables the experiment kind built (Output.Tables).
	Kind []*report.Table
	// Problems are what the report stage could not draw or write.
	Problems []string
	// Claims are the verdicts of the config's claims.
	Claims []claims.Result
	// Intervals says how the claims' intervals are built; the paper
	// table's per-cell intervals are built the same way.
	Intervals claims.Options
}

// Build returns the tables of an experiment's report, in order: the
// paper's table with runexp's values (and the table of their intervals)
// when the config lays the paper's values out (paper_table), else the
// paper's values beside ours one per line; then the kind's own tables
// (the long form, one row per cell), the failed cells, the report's
// problems and the claims. A table with nothing to show is left out.
func Build(in Input) []*report.Table {
	var tables []*report.Table
	switch {
	case in.Config.PaperTable != nil:
		tables = append(tables, PaperWith(in.Config, in.Scoped, addedRecords(in), in.Claims, in.Intervals)...)
	case len(in.Config.Reference) > 0:
		tables = append(tables, Reference(in.Config, in.Scoped))
	}
	tables = append(tables, in.Kind...)
	if t := Failures(in.Records); t != nil {
		tables = append(tables, t)
	}
	if len(in.Problems) > 0 {
		t := &report.Table{Title: "Report problems", Caption: "The experiment's figures or tables could not all be drawn; everything else was written.", Header: []string{"Problem"}}
		for _, p := range in.Problems {
			t.Rows = append(t.Rows, []string{p})
		}
		tables = append(tables, t)
	}
	if len(in.Claims) > 0 {
		tables = append(tables, Claims(in.Claims))
	}
	return tables
}

// addedRecords are the records of the methods --with added: those of
// Records that Scoped leaves out.
func addedRecords(in Input) []report.Record {
	if len(in.Records) == len(in.Scoped) {
		return nil
	}
	own := make(map[string]bool, len(in.Scoped))
	for _, r := range in.Scoped {
		own[r.Key] = true
	}
	var out []report.Record
	for _, r := range in.Records {
		if !own[r.Key] {
			out = append(out, r)
		}
	}
	return out
}

// Render renders tables as tables.txt and tables.md: the config's title,
// its notes (Markdown only), then each table. No line of tables.txt is
// wider than report.FileWidth (80 columns: a table too wide for it is laid
// out a row at a time, report.Table.RenderNarrow); tables.md is not
// wrapped.
func Render(c *config.Config, tables []*report.Table) (txt, md []byte, err error) {
	var t, m bytes.Buffer
	fmt.Fprintf(&m, "# %s\n\n", report.MarkdownLiteral(c.Title))
	fmt.Fprintf(&t, "%s\n\n", report.Wrap(c.Title, report.FileWidth))
	if c.Notes != "" {
		fmt.Fprintf(&m, "%s\n\n", report.MarkdownParagraphs(c.Notes))
	}
	for _, tb := range tables {
		if err := tb.RenderNarrow(&t, report.FileWidth); err != nil {
			return nil, nil, err
		}
		t.WriteString("\n")
		if err := tb.RenderMarkdown(&m); err != nil {
			return nil, nil, err
		}
		m.WriteString("\n")
	}
	return t.Bytes(), m.Bytes(), nil
}

// Failures lists the failed and partial cells with their reasons; nil
// when every cell is ok.
func Failures(recs []report.Record) *report.Table {
	t := &report.Table{Title: "Failed and partial cells", Header: []string{"Cell", "Status", "Reason"}}
	for _, r := range recs {
		if r.Status != "ok" {
			// Failed rows by reason ("3 × pre-image is not finite").
			reason := r.Error
			if c := r.FailureCounts(); c != "" {
				reason = strings.TrimPrefix(reason+"; failed rows: "+c, "; ")
			}
			if reason == "" {
				reason = "some rows failed; see the failure counts in records.jsonl"
			}
			t.Rows = append(t.Rows, []string{r.Key, r.Status, reason})
		}
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}

// PaperTolerance is the relative difference |runexp − paper| / |paper|
// beyond which the one-per-line table of the paper's values marks a value
// with "!": 10%, the spread of the papers' own repeated runs where they
// report one (and well above printing precision). It flags values to look
// at; the claims, not this mark, decide whether a result reproduces.
const PaperTolerance = 0.10

// relDiff formats (ours − paper)/|paper| as a signed percentage with the
// mark for values beyond PaperTolerance, or "—" when it is undefined.
func relDiff(ours, paper float64, ok bool) string {
	if !ok || paper == 0 || math.IsNaN(ours) || math.IsInf(ours, 0) || math.IsNaN(paper) {
		return "—"
	}
	r := (ours - paper) / math.Abs(paper)
	s := fmt.Sprintf("%+.1f%%", 100*r)
	if math.Abs(r) > PaperTolerance {
		s += " !"
	}
	return s
}

// Reference lists the paper's values beside runexp's, one row per
// reference value of the config and matching record (recs: the config
// file's own methods' records), for a config that does not lay them out
// as the paper prints them (paper_table). Each row's source is a note.
func Reference(c *config.Config, recs []report.Record) *report.Table {
	t := &report.Table{
		Title:   "runexp beside the paper",
		Caption: fmt.Sprintf("rel = (runexp − paper) / |paper|, marked ! beyond %g%%.", 100*PaperTolerance),
		Header:  []string{"Cell", "Metric", "runexp", "paper", "rel", "Source"},
		Key:     2,
	}
	for _, ref := range c.Reference {
		src := t.Note(ref.Source)
		matched := false
		for i := range recs {
			if !claims.Matches(&recs[i], ref.Cell) {
				continue
			}
			matched = true
			v, ok := recs[i].Metrics[ref.Metric]
			ours, paper, _ := report.FormatCompare(v, ref.Value, true, 4)
			rel := relDiff(v, ref.Value, ok)
			if !ok || recs[i].Status == report.StatusFailed {
				ours, rel = "failed", "—"
			}
			t.Rows = append(t.Rows, []string{config.CanonicalKey(ref.Cell), ref.Metric, ours, paper, rel, src})
		}
		if !matched {
			_, paper, _ := report.FormatCompare(0, ref.Value, true, 4)
			t.Rows = append(t.Rows, []string{config.CanonicalKey(ref.Cell) + " (no such cell)", ref.Metric, "—", paper, "—", src})
		}
	}
	return t
}

// Claims lists the verdicts of the paper's claims: the verdict says
// whether it is the one runexp expects ("FAIL (expected)"), and a note
// per claim holds its evidence and the reason for an expectation other
// than PASS.
func Claims(res []claims.Result) *report.Table {
	t := &report.Table{
		Title:   "The paper's claims",
		Caption: "Verdict: runexp's, with \"(expected)\" where runexp expects that verdict on its data (a known non-reproduction) and \"(expected X)\" where it expected X instead.",
		Header:  []string{"Claim", "Verdict", "Statement"},
	}
	for _, r := range res {
		note := "Evidence: " + r.Evidence
		if r.Because != "" {
			note = strings.TrimSuffix(note, ".") + ". Expected " + r.Expected + ": " + r.Because
		}
		t.Rows = append(t.Rows, []string{r.ID + " " + t.Note(r.ID+". "+note), verdictText(r), r.Statement})
	}
	return t
}
