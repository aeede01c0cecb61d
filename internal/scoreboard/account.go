package scoreboard

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/safefs"
)

// Account is one claim of a paper's paper-values file and how the board
// accounts for it: the base rows testing it (Rows), or the claims whose
// rows it combines (Aggregate, with Reading and the combined Category),
// or why it cannot be tested here (NotTestable).
type Account struct {
	Claim       config.PaperClaim
	Rows        []RowRef
	Aggregate   []string
	Reading     string
	NotTestable string
	// Category is an aggregate's category (see combineCategories), and
	// Attribution whose failure it is (combineAttributions).
	Category    Category
	Attribution string
}

// RowRef names one base row testing a paper claim.
type RowRef struct {
	Table, Row string
	Category   Category
	Verdict    string
	Basis      string
	// Attribution is the row's: whose failure its verdict is.
	Attribution string
}

// Status is "tested", "aggregate", "not testable here" or "not
// accounted for".
func (a Account) Status() string {
	switch {
	case len(a.Rows) > 0:
		return "tested"
	case len(a.Aggregate) > 0:
		return "aggregate"
	case a.NotTestable != "":
		return "not testable here"
	}
	return "not accounted for"
}

// claimFragment matches the paper claim a source cites: the fragment
// claims/c3 of paper-values/<paper>.yaml#claims/c3, or a bare c3.
var claimFragment = regexp.MustCompile(`^(?:claims/)?(c[0-9]+)$`)

// paperClaim is the id of the paper claim cl tests, from its source's
// fragment; "" for a check beyond the paper's claims (a figure's shape,
// an ambiguity's scan).
func paperClaim(cl config.Claim) string {
	_, frag, ok := strings.Cut(cl.Source, "#")
	if !ok {
		return ""
	}
	m := claimFragment.FindStringSubmatch(frag)
	if m == nil {
		return ""
	}
	return m[1]
}

// account fills p's Accounts and Unaccounted from its paper claims and
// accounting file, and counts each aggregate in its category and each
// claim not testable here in NotTestable. A row citing a claim the
// paper-values file lacks, an accounting entry for an unknown claim or
// for one a config tests, and an aggregate of unknown claims are errors.
func account(p *Paper, in Inputs) error {
	if in.Claims == nil {
		return nil
	}
	pcs, ok := in.Claims(p.ID)
	if !ok {
		return nil
	}
	known := map[string]bool{}
	for _, c := range pcs {
		known[c.ID] = true
	}
	rows := map[string][]RowRef{}
	for _, t := range p.Tables {
		for _, r := range t.Rows {
			if r.Paper == "" {
				continue
			}
			if !known[r.Paper] {
				return fmt.Errorf("scoreboard: %s: claim %s cites %s, which is not a claim of paper %s", t.Base.Name, r.ID, r.Paper, p.ID)
			}
			rows[r.Paper] = append(rows[r.Paper], RowRef{Table: t.Base.Name, Row: r.ID, Category: r.Category, Verdict: r.Base.Verdict, Basis: r.Base.Basis, Attribution: r.Attribution})
		}
	}
	decl := map[string]config.Account{}
	if a := in.Accounting[p.ID]; a != nil {
		for _, ac := range a.Accounts {
			if !known[ac.Claim] {
				return fmt.Errorf("scoreboard: %s:%d: %s is not a claim of paper %s", a.File, ac.Line, ac.Claim, p.ID)
			}
			if len(rows[ac.Claim]) > 0 {
				return fmt.Errorf("scoreboard: %s:%d: %s is tested by %s#%s; an accounting entry is for a claim no config tests", a.File, ac.Line, ac.Claim, rows[ac.Claim][0].Table, rows[ac.Claim][0].Row)
			}
			for _, c := range ac.Aggregate {
				if !known[c] || c == ac.Claim {
					return fmt.Errorf("scoreboard: %s:%d: aggregate %s: %s is not another claim of paper %s", a.File, ac.Line, ac.Claim, c, p.ID)
				}
			}
			decl[ac.Claim] = ac
		}
	}
	for _, pc := range pcs {
		a := Account{Claim: pc, Rows: rows[pc.ID]}
		if d, ok := decl[pc.ID]; ok {
			a.NotTestable, a.Aggregate, a.Reading = d.NotTestable, d.Aggregate, d.Reading
		}
		switch a.Status() {
		case "aggregate":
			var cats []Category
			var parts []RowRef
			for _, c := range a.Aggregate {
				for _, r := range rows[c] {
					cats = append(cats, r.Category)
					parts = append(parts, r)
				}
			}
			a.Category = combineCategories(cats)
			a.Attribution = combineAttributions(a.Category, parts)
			p.Totals[a.Category]++
			p.Split.count(a.Category, a.Attribution)
		case "not testable here":
			p.Totals[NotTestable]++
		case "not accounted for":
			p.Unaccounted = append(p.Unaccounted, pc.ID)
		}
		p.Accounts = append(p.Accounts, a)
	}
	return nil
}

// combineCategories is the category of an aggregate claim ("overall, our
// method beats the others") from those of the rows it combines: it is
// reproduced as stated only when every row is, not run or not evaluated
// when any row is, not reproduced when any row is, inconclusive when any
// row is (and none failed), and otherwise reproduced only under another
// documented reading. No row at all is not evaluated.
func combineCategories(cs []Category) Category {
	if len(cs) == 0 {
		return NotEvaluated
	}
	has := map[Category]bool{}
	for _, c := range cs {
		has[c] = true
	}
	for _, c := range []Category{NotRun, NotEvaluated, NotReproduced, Inconclusive, OtherReading} {
		if has[c] {
			return c
		}
	}
	return AsStated
}

// combineAttributions is whose failure an aggregate of category c is,
// from its rows of that category: the paper's if any of them fails as the
// paper states it (the aggregate then does too), else the one attribution
// they share, else none (mixed or unattributed).
func combineAttributions(c Category, rows []RowRef) string {
	var kinds []string
	for _, r := range rows {
		if r.Category != c {
			continue
		}
		if r.Attribution == "paper" {
			return "paper"
		}
		kinds = append(kinds, r.Attribution)
	}
	if len(kinds) == 0 {
		return ""
	}
	for _, k := range kinds[1:] {
		if k != kinds[0] {
			return ""
		}
	}
	return kinds[0]
}

// Bases counts the base rows' verdicts by their basis: Decided by an
// interval (PASS or FAIL, basis "interval"), Inconclusive intervals,
// Point verdicts (PASS or FAIL with "point: why no interval"), and
// NotJudged (not run, or NOT-EVALUATED). PointRows lists the point rows
// with their reasons, as "config#claim: reason".
type Bases struct {
	Decided, Inconclusive, Point, NotJudged int
	PointRows                               []string
}

// Rows is the number of base rows counted.
func (b Bases) Rows() int { return b.Decided + b.Inconclusive + b.Point + b.NotJudged }

func (b *Bases) add(table, row string, c Cell) {
	switch {
	case !c.Run || c.Verdict == NotEvaluatedV:
		b.NotJudged++
	case (c.Basis == "interval" || (c.Basis == "" && c.HasCI)) && c.Verdict == Inconc:
		// Files written before verdict_basis existed show an interval
		// verdict by its interval alone.
		b.Inconclusive++
	case c.Basis == "interval" || (c.Basis == "" && c.HasCI):
		b.Decided++
	default:
		b.Point++
		why := strings.TrimPrefix(strings.TrimPrefix(c.Basis, "point"), ": ")
		if c.CannotDiscriminate != "" {
			// The point verdict was overridden: say why it is
			// INCONCLUSIVE, not why it has no interval.
			why = c.CannotDiscriminate
		}
		if why == "" {
			why = "(no reason recorded)"
		}
		b.PointRows = append(b.PointRows, table+"#"+row+": "+why)
	}
}

// because is the claim's because: text with its references filled in
// from the base's cell (its claims.json evidence, verdict and interval),
// its records (dir/records.jsonl, read only for a {metric:…} reference)
// and its config. A reference that cannot be filled leaves the text as
// written with the reason, so the page never states what was not
// measured.
func because(cl config.Claim, c *config.Config, cell Cell, dir string) string {
	if cl.Because == "" {
		return ""
	}
	res := claims.Result{Evidence: cell.Evidence, Verdict: cell.Verdict, PointVerdict: cell.Point, CannotDiscriminate: cell.CannotDiscriminate, Detectable: cell.Detectable}
	if cell.HasCI {
		lo, hi := cell.CILo, cell.CIHi
		res.CILo, res.CIHi = &lo, &hi
	}
	var recs []report.Record
	if strings.Contains(cl.Because, "{metric:") {
		if path := filepath.Join(dir, "records.jsonl"); safefs.CheckInside(filepath.Dir(dir), path) == nil { // inside the results root
			recs, _ = report.ReadJSONL(path)
		}
	}
	if !cell.Run {
		// Nothing was judged: only the setup can be filled.
		res.Evidence, res.Verdict = "(not run)", "not run"
	}
	s, err := claims.Expand(cl.Because, res, recs, claims.ConfigSetup(c))
	if err != nil {
		return cl.Because + " [" + err.Error() + "]"
	}
	return s
}
