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
// outcomes it combines (Aggregate, with Reading), or why it cannot be
// tested here (NotTestable). The paper's claim, not a row, is the unit
// every total counts; its outcome follows from its rows by one rule
// (outcome.go), under the paper's assignment of readings.
type Account struct {
	Claim       config.PaperClaim
	Rows        []RowRef
	Aggregate   []string
	Reading     string
	NotTestable string
	// Beyond counts the rows that cite the claim but go beyond it (a
	// group or quantity the paper does not have, a quantifier or
	// threshold of ours): shown, never counted.
	Beyond int
	// Category is the claim's outcome under the paper's assignment,
	// Attribution whose failure it is (derived from its rows: outcome.go),
	// Why the rule's words and Decide, for undetermined, what would decide
	// it.
	Category    Category
	Attribution string
	Why, Decide string
	// Under names, for a claim reproduced only under the assignment
	// (OtherReading), the assigned readings its rows were read under.
	Under []string
	// Stated is the combined verdict of the rows under the stated
	// protocol and Assigned under the paper's assignment (PASS, FAIL,
	// INCONCLUSIVE, NOT-EVALUATED or "not run"); Flipped reports that the
	// stated protocol passes the claim and the assignment does not (shown
	// beside it; the assignment's verdict is counted).
	Stated, Assigned string
	Flipped          bool
	// Sensitivity is the claim's verdict under each other documented
	// reading that bears on its rows (the stated protocol among them when
	// the assignment reads it otherwise): shown, never counted.
	Sensitivity []Sensitivity
	// Evidence lists, for a claim not reproduced as stated, every result
	// bearing on it: each row under the stated protocol, the assigned
	// reading, the other readings, the post-hoc variants and the
	// diagnostics, and the rows beyond its sentence.
	Evidence []Evidence
}

// RowRef names one base row testing a paper claim.
type RowRef struct {
	Table, Row string
	Category   Category
	// Verdict is the row's verdict under the stated protocol, Assigned
	// under the paper's assignment (from AssignedConfig; "not run" when
	// the assigned reading was not run for the row's table).
	Verdict, Assigned, AssignedConfig string
	Basis                             string
	// Attribution is the row's derived attribution (Row.Derived), with
	// Why; Decide for undetermined, and the derivation whole.
	Attribution, Why, Decide string
	Derived                  Derivation
	// Under maps each documented reading of the paper (a Sensitivity's
	// Reading, the stated protocol among them where the assignment reads
	// the paper otherwise) to the row's verdict under it: the variant's
	// where the row's table runs that reading and the variant restates the
	// row; otherwise the stated verdict (a reading changes only what it
	// reads), or "not run" where the table lists an ambiguity the reading
	// reads and runs no such variant. PostHoc marks the post-hoc ones.
	Under   map[string]string
	PostHoc map[string]bool
	// ran marks the readings of Under whose own config ran the row (not
	// a stated verdict kept where the reading does not bear, nor a
	// reading missing from the row's table); same those the assignment
	// reads the row's table by.
	ran, same map[string]bool
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

// rowRef is row r of table t as a paper claim's evidence, with its
// verdict under the assignment (t.Assigned) and under each other reading
// of the paper (readings).
func rowRef(t Table, r Row, readings []paperReading) RowRef {
	ref := RowRef{Table: t.Base.Name, Row: r.ID, Category: r.Category, Verdict: verdictOrNotRun(r.Base), Basis: r.Base.Basis,
		Attribution: r.Derived.Kind, Why: r.Derived.Why, Decide: r.Derived.Decide, Derived: r.Derived, Under: map[string]string{}, PostHoc: map[string]bool{},
		ran: map[string]bool{}, same: map[string]bool{}}
	ref.Assigned = verdictOrNotRun(r.cellUnder(t.Assigned))
	if c, ok := t.AssignedColumn(); ok {
		ref.AssignedConfig = c.Name
		if t.Assigned >= 0 && !r.Variants[t.Assigned].Present {
			ref.AssignedConfig = t.Base.Name
		}
	}
	for _, pr := range readings {
		at := t.columnFor(pr.set, pr.postHoc)
		c := r.cellUnder(at)
		ref.Under[pr.label] = verdictOrNotRun(c)
		ref.PostHoc[pr.label] = pr.postHoc != ""
		ref.same[pr.label] = at == t.Assigned
		stated := len(pr.set) == 0 && pr.postHoc == ""
		ref.ran[pr.label] = c.Run && ((at >= 0 && r.Variants[at].Present) || stated)
	}
	return ref
}

// account fills p's Accounts and Unaccounted from its paper claims and
// accounting file, and counts each claim in the paper's Totals and Split
// by its outcome. A row citing a claim the paper-values file lacks, an
// accounting entry for an unknown claim or for one a config tests, and an
// aggregate of unknown claims are errors.
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
	beyond := map[string]int{}
	readings := p.readings()
	for _, t := range p.Tables {
		for _, r := range t.Rows {
			if r.Paper == "" {
				continue
			}
			if !known[r.Paper] {
				return fmt.Errorf("scoreboard: %s: claim %s cites %s, which is not a claim of paper %s", t.Base.Name, r.ID, r.Paper, p.ID)
			}
			if !r.Counted {
				beyond[r.Paper]++
				continue
			}
			rows[r.Paper] = append(rows[r.Paper], rowRef(t, r, readings))
		}
	}
	decl, err := declared(p, in, known, rows)
	if err != nil {
		return err
	}
	byID := map[string]*Account{}
	var aggregates []*Account
	for _, pc := range pcs {
		a := &Account{Claim: pc, Rows: rows[pc.ID], Beyond: beyond[pc.ID]}
		if d, ok := decl[pc.ID]; ok {
			a.NotTestable, a.Aggregate, a.Reading = d.NotTestable, d.Aggregate, d.Reading
		}
		switch a.Status() {
		case "tested":
			a.judge(p.Ambiguities, readings)
			if a.Category != AsStated {
				a.Evidence = p.evidence(pc.ID)
			}
		case "aggregate":
			aggregates = append(aggregates, a)
		case "not testable here":
			a.Category = NotTestable
		case "not accounted for":
			p.Unaccounted = append(p.Unaccounted, pc.ID)
		}
		byID[pc.ID] = a
	}
	// An aggregate combines the outcomes of the claims it names, judged
	// first.
	for _, a := range aggregates {
		a.combine(byID)
	}
	for _, pc := range pcs {
		a := byID[pc.ID]
		if a.Status() != "not accounted for" {
			p.Totals[a.Category]++
			p.Split.count(a.Category, a.Attribution)
		}
		if a.Stated == Pass {
			p.StatedPass++
		}
		if a.Category == AsStated || a.Category == OtherReading {
			p.AssignedPass++
		}
		p.Accounts = append(p.Accounts, *a)
	}
	return nil
}

// declared reads the paper's accounting file: its entries by claim, each
// checked against the paper's claims and the rows testing them.
func declared(p *Paper, in Inputs, known map[string]bool, rows map[string][]RowRef) (map[string]config.Account, error) {
	decl := map[string]config.Account{}
	a := in.Accounting[p.ID]
	if a == nil {
		return decl, nil
	}
	for _, ac := range a.Accounts {
		if !known[ac.Claim] {
			return nil, fmt.Errorf("scoreboard: %s:%d: %s is not a claim of paper %s", a.File, ac.Line, ac.Claim, p.ID)
		}
		if len(rows[ac.Claim]) > 0 {
			return nil, fmt.Errorf("scoreboard: %s:%d: %s is tested by %s#%s; an accounting entry is for a claim no config tests", a.File, ac.Line, ac.Claim, rows[ac.Claim][0].Table, rows[ac.Claim][0].Row)
		}
		for _, c := range ac.Aggregate {
			if !known[c] || c == ac.Claim {
				return nil, fmt.Errorf("scoreboard: %s:%d: aggregate %s: %s is not another claim of paper %s", a.File, ac.Line, ac.Claim, c, p.ID)
			}
		}
		decl[ac.Claim] = ac
	}
	return decl, nil
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

// fill is a claim's because: or defect text with its references filled
// in from the base's cell (its claims.json evidence, verdict and
// interval), its records (dir/records.jsonl, read only for a {metric:…}
// reference) and its config. A reference that cannot be filled leaves
// the text as written with the reason, so the page never states what was
// not measured.
func fill(text string, c *config.Config, cell Cell, dir string) string {
	if text == "" {
		return ""
	}
	res := claims.Result{Evidence: cell.Evidence, Verdict: cell.Verdict, PointVerdict: cell.Point, CannotDiscriminate: cell.CannotDiscriminate, Detectable: cell.Detectable}
	if cell.HasCI {
		lo, hi := cell.CILo, cell.CIHi
		res.CILo, res.CIHi = &lo, &hi
	}
	var recs []report.Record
	if strings.Contains(text, "{metric:") {
		if path := filepath.Join(dir, "records.jsonl"); safefs.CheckInside(filepath.Dir(dir), path) == nil { // inside the results root
			recs, _ = report.ReadJSONL(path)
		}
	}
	if !cell.Run {
		// Nothing was judged: only the setup can be filled.
		res.Evidence, res.Verdict = "(not run)", "not run"
	}
	s, err := claims.Expand(text, res, recs, claims.ConfigSetup(c))
	if err != nil {
		return text + " [" + err.Error() + "]"
	}
	return s
}
