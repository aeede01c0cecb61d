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
}

// Build returns the tables of an experiment's report, in order: the
// kind's own, the failed cells, the report's problems, the paper's values
// beside ours and the claims; a table with nothing to show is left out.
func Build(in Input) []*report.Table {
	tables := append([]*report.Table{}, in.Kind...)
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
	if len(in.Config.Reference) > 0 {
		tables = append(tables, Reference(in.Config, in.Scoped))
	}
	if len(in.Claims) > 0 {
		tables = append(tables, Claims(in.Claims))
	}
	return tables
}

// Render renders tables as tables.txt and tables.md: the config's title,
// its notes (Markdown only), then each table.
func Render(c *config.Config, tables []*report.Table) (txt, md []byte, err error) {
	var t, m bytes.Buffer
	fmt.Fprintf(&m, "# %s\n\n", c.Title)
	fmt.Fprintf(&t, "%s\n\n", c.Title)
	if c.Notes != "" {
		fmt.Fprintf(&m, "%s\n\n", strings.TrimSpace(c.Notes))
	}
	for _, tb := range tables {
		if err := tb.RenderText(&t); err != nil {
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
			reason := r.Error
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

// PaperTolerance is the relative difference |ours − paper| / |paper|
// beyond which the paper-values table marks a value with "!": 10%, the
// spread of the papers' own repeated runs where they report one (and
// well above printing precision). It flags values to look at; the
// claims, not this mark, decide whether a result reproduces.
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

// Reference lists the paper's values beside ours, one row per reference
// value of the config and matching record (recs: the config file's own
// methods' records).
func Reference(c *config.Config, recs []report.Record) *report.Table {
	t := &report.Table{
		Title:   "Ours beside the paper",
		Caption: fmt.Sprintf("diff = ours − paper; rel = diff / |paper|, marked ! beyond %g%%. Sources cite ../shared/paper-values/%s.yaml.", 100*PaperTolerance, c.Paper),
		Header:  []string{"Source", "Cell", "Metric", "Ours", "Paper", "Diff", "Rel"},
	}
	// Further readings of our metric (reference.also) get a column each.
	var also []string
	seen := map[string]bool{}
	for _, ref := range c.Reference {
		for _, a := range ref.Also {
			if !seen[a] {
				seen[a] = true
				also = append(also, a)
			}
		}
	}
	for _, a := range also {
		t.Header = append(t.Header, "Ours ("+a+")")
	}
	for _, ref := range c.Reference {
		matched := false
		for i := range recs {
			if !claims.Matches(&recs[i], ref.Cell) {
				continue
			}
			matched = true
			v, ok := recs[i].Metrics[ref.Metric]
			ours, paper, diff := report.FormatCompare(v, ref.Value, true, 4)
			rel := relDiff(v, ref.Value, ok)
			if !ok || recs[i].Status == report.StatusFailed {
				ours, diff, rel = "failed", "—", "—"
			}
			row := []string{ref.Source, config.CanonicalKey(ref.Cell), ref.Metric, ours, paper, diff, rel}
			for _, a := range also {
				cell := "—"
				if x, ok := recs[i].Metrics[a]; ok && recs[i].Status != report.StatusFailed && contains(ref.Also, a) {
					cell = report.FormatFloat(x, 4)
				}
				row = append(row, cell)
			}
			t.Rows = append(t.Rows, row)
		}
		if !matched {
			_, paper, _ := report.FormatCompare(0, ref.Value, true, 4)
			row := []string{ref.Source, config.CanonicalKey(ref.Cell) + " (no such cell)", ref.Metric, "—", paper, "—", "—"}
			for range also {
				row = append(row, "—")
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Claims lists the verdicts of the paper's claims.
func Claims(res []claims.Result) *report.Table {
	t := &report.Table{Title: "The paper's claims", Header: []string{"Claim", "Verdict", "Expected", "As expected", "Statement", "Evidence"}}
	for _, r := range res {
		as := "yes"
		if !r.AsExpected {
			as = "NO"
		}
		exp := r.Expected
		if r.Because != "" {
			exp += " (" + r.Because + ")"
		}
		t.Rows = append(t.Rows, []string{r.ID, r.Status, exp, as, r.Statement, r.Evidence})
	}
	return t
}
