package experiments_test

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/tables"
)

// paperConfigs returns the shipped configs that lay out a paper's table.
func paperConfigs(t *testing.T) []*config.Config {
	t.Helper()
	files, err := filepath.Glob("../configs/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no configs found: %v", err)
	}
	var out []*config.Config
	for _, f := range files {
		c, col, err := config.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		if col == nil && len(c.Reference) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// TestEveryPaperTableIsLaidOut: every config that prints the paper's
// values lays them out as the paper's table (paper_table), so that its
// first table is the paper's.
func TestEveryPaperTableIsLaidOut(t *testing.T) {
	for _, c := range paperConfigs(t) {
		if c.PaperTable == nil {
			t.Errorf("%s: %d reference values but no paper_table", c.File, len(c.Reference))
		}
	}
}

// sourceRE reads the paper-values file and table a reference cites.
var sourceRE = regexp.MustCompile(`^(\S+\.yaml) tables/(\S+) `)

// TestReferenceValuesArePrinted checks every reference value of the
// shipped configs against the paper-values table its source cites
// (../shared/paper-values): the value is one of the table's, and a
// printed cell is the paper's print of it ("10.60 ± 2.84").
func TestReferenceValuesArePrinted(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "paper-values")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no paper values at %s: %v", dir, err)
	}
	for _, c := range paperConfigs(t) {
		for i, ref := range c.Reference {
			m := sourceRE.FindStringSubmatch(ref.Source)
			if m == nil {
				t.Errorf("%s:%d: reference[%d].source %q cites no paper-values table (FILE.yaml tables/ID ...)", c.File, ref.Line, i, ref.Source)
				continue
			}
			rows, err := config.PaperTableValues(filepath.Join(dir, m[1]), m[2])
			if err != nil {
				t.Errorf("%s:%d: %v", c.File, ref.Line, err)
				continue
			}
			found := false
			for _, r := range rows {
				if math.Abs(r.Value-ref.Value) > 1e-9*math.Max(1, math.Abs(r.Value)) {
					continue
				}
				printed := r.Printed
				if r.StdPrinted != "" {
					printed += " ± " + r.StdPrinted
				}
				if ref.Printed == "" || ref.Printed == printed || ref.Printed == r.Printed {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s:%d: reference[%d] value %v (printed %q) is not in %s tables/%s", c.File, ref.Line, i, ref.Value, ref.Printed, m[1], m[2])
			}
		}
	}
}

// TestPaperTablesFit renders the tables of every shipped config that lays
// out a paper's table, from records made up for its reference values
// (each value times 1.2345, every cell's std 0.5), with its claims judged
// on them: no line of tables.txt is wider than report.FileWidth, the
// first table is the paper's with the paper's value beside each of ours,
// and tables.md holds every printed value.
func TestPaperTablesFit(t *testing.T) {
	for _, c := range paperConfigs(t) {
		t.Run(c.Name, func(t *testing.T) {
			recs := paperRecords(c, func(string) float64 { return 1.2345 })
			var res []claims.Result
			for _, cl := range c.Claims {
				res = append(res, claims.Evaluate(cl, recs))
			}
			tbl := tables.Build(tables.Input{Config: c, Records: recs, Scoped: recs, Claims: res})
			txt, md, err := tables.Render(c, tbl)
			if err != nil {
				t.Fatal(err)
			}
			checkTablesText(t, c.Name, txt)
			first := tbl[0]
			if !strings.HasSuffix(first.Title, "runexp (paper)") {
				t.Errorf("first table %q is not the paper's", first.Title)
			}
			for _, row := range first.Rows {
				// A method of ours the paper's table has no place for
				// (a second RKPCA, the noisy input) has no paper value.
				if strings.Contains(row[0], "(ours, not in the paper)") {
					continue
				}
				for j, cell := range row[1:] {
					if strings.Contains(first.Header[j+1], "(ours, not in the paper)") {
						continue
					}
					if cell != report.Dash && !strings.Contains(cell, "(paper ") {
						t.Errorf("first table, row %q, column %q: %q has no paper value", row[0], first.Header[j+1], cell)
					}
				}
			}
			for _, ref := range c.Reference {
				p := ref.Printed
				if p == "" {
					p = report.FormatFloat(ref.Value, -1)
				}
				if !strings.Contains(string(md), "(paper "+p+")") {
					t.Errorf("tables.md lacks %q (reference at line %d)", "(paper "+p+")", ref.Line)
				}
			}
		})
	}
}

// checkTablesText fails t for every line of a tables.txt wider than
// report.FileWidth columns (an 80-column terminal).
func checkTablesText(t *testing.T, name string, txt []byte) {
	t.Helper()
	for i, l := range strings.Split(string(txt), "\n") {
		if w := report.Width(l); w > report.FileWidth {
			t.Errorf("%s: tables.txt line %d is %d columns wide, over %d: %s", name, i+1, w, report.FileWidth, l)
		}
	}
}

// checkTablesFile is checkTablesText on dir/tables.txt.
func checkTablesFile(t *testing.T, dir string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "tables.txt"))
	if err != nil {
		t.Fatal(err)
	}
	checkTablesText(t, filepath.Base(dir), b)
}

// quickPaperConfigs are the shipped paper-table configs quick enough for
// make test, one per kind of layout: 12–20 s each on 2 busy cores
// (zheng-lai-table1 takes 75 s and nguyen-table2 over 3 minutes there).
var quickPaperConfigs = []string{"huang-table1", "zheng-lai-table2", "zheng-lpkpca-table1"}

// TestPaperTableConfigsRealData runs shipped configs that regenerate a
// paper's table on the real data, the quick ones (under a minute each on
// 2 cores): no line of tables.txt is wider than an 80-column terminal,
// and the first table is the paper's, every filled cell runexp's value
// with the paper's beside it (in a box, or a row at a time where the box
// would not fit: report.Table.RenderNarrow).
func TestPaperTableConfigsRealData(t *testing.T) {
	if os.Getenv("RUNEXP_DATA") == "" {
		t.Skip("RUNEXP_DATA not set: the Yale faces, Yale B and ORL files are not available")
	}
	for _, name := range quickPaperConfigs {
		t.Run(name, func(t *testing.T) {
			dir, _ := runConfig(t, filepath.Join("..", "configs", name+".yaml"), 2)
			checkTablesFile(t, dir)
			txt, err := os.ReadFile(filepath.Join(dir, "tables.txt"))
			if err != nil {
				t.Fatal(err)
			}
			// The first table follows the config's title and a blank
			// line; its title ends "runexp (paper)" and its rows, up to
			// its caption, hold the paper's values.
			lines := strings.Split(string(txt), "\n")
			i := 2
			for i < len(lines) && !strings.HasSuffix(lines[i], "runexp (paper)") {
				if strings.HasPrefix(lines[i], "┌") || strings.HasPrefix(lines[i], "▸ ") {
					t.Fatalf("the first table is not the paper's: line %d %q", i+1, lines[i-1])
				}
				i++
			}
			rows := 0
			for _, l := range lines[i:] {
				if strings.HasPrefix(l, "Each cell:") {
					break
				}
				if (strings.HasPrefix(l, "│") || strings.HasPrefix(l, "    ")) && strings.Contains(l, "(paper ") {
					rows++
				}
			}
			if rows == 0 {
				t.Errorf("the first table has no row with the paper's value beside ours:\n%s", strings.Join(lines[:min(len(lines), 40)], "\n"))
			}
		})
	}
}
