package scoreboard

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// A paper is counted under two protocols, each reading every listed
// ambiguity one way for the whole paper: the stated protocol (the base
// configs) and one assignment of readings, chosen per ambiguity by a rule
// fixed before any verdict is read (AssignmentRule). Every other reading
// that ran is sensitivity: shown beside the claim, never counted.

// AssignmentRule states how the assignment is chosen, for the pages and
// docs/readings.md.
const AssignmentRule = "One reading per listed ambiguity, for the whole paper, chosen from the printed values and never " +
	"from verdicts: a reading of an ambiguity replaces the stated protocol's when it fits the paper's printed values " +
	"clearly better (its median |ln(ours/paper)| at most 1/2 of the stated protocol's, both over at least 3 cells, in an " +
	"interpretation of the printed unit the text supports; fits per printed table and per unit, never pooled) in more " +
	"than half of the printed tables on which both ran, and no other reading of it does so as often; otherwise, and for " +
	"an ambiguity no printed value bears on, the stated protocol's reading stays: it was fixed when the base config was " +
	"written, before any reading ran, and only the printed values can displace it."

// The rules a Choice can state.
const (
	// RuleFit: the reading fits the printed values clearly better than
	// the stated protocol in more than half of the printed tables on
	// which both ran.
	RuleFit = "fit"
	// RuleStatedFit: readings ran on printed tables, none fits clearly
	// better in more than half of them; the stated protocol's reading
	// stays.
	RuleStatedFit = "stated: no reading fits the printed values clearly better"
	// RuleStatedNoFit: no printed value bears on the ambiguity (no
	// reading of it regenerates a printed table, or none ran there); the
	// stated protocol's reading stays.
	RuleStatedNoFit = "stated: no printed value bears on it"
	// RuleStatedNotRead: no config reads the ambiguity otherwise.
	RuleStatedNotRead = "stated: no reading of it ran"
)

// ReadingSet maps the ids of a paper's listed ambiguities to the names of
// the readings a config takes of them otherwise than the stated protocol
// ("a1" → "clip"). A reading's name is its config's name after the name
// of the config it varies (zheng-lai-table1-clip reads a1 as "clip"), so
// one reading has one name in every table that runs it; a variant of a
// variant reads what both read (huang-table1-pergroup-snr-pooled: a3 as
// "pergroup", a2 as "snr-pooled").
type ReadingSet map[string]string

// Key is the set as one comparable string: "a1=clip,a6=…", ids in order.
func (s ReadingSet) Key() string {
	ids := s.ids()
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id + "=" + s[id]
	}
	return strings.Join(parts, ",")
}

// String names the set for a page: "clip (a1)", "std025 (a1) +
// dambreville-nearest (a6)"; "stated protocol" when empty.
func (s ReadingSet) String() string {
	ids := s.ids()
	if len(ids) == 0 {
		return "stated protocol"
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = report.NoCode(s[id]) + " (" + id + ")"
	}
	return strings.Join(parts, " + ")
}

func (s ReadingSet) ids() []string {
	ids := make([]string, 0, len(s))
	for id := range s {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, config.CompareAmbiguityIDs)
	return ids
}

// equal reports whether s and t read the same ambiguities the same way.
func (s ReadingSet) equal(t ReadingSet) bool { return s.Key() == t.Key() }

// Assignment is a paper's one reading per listed ambiguity (Choices, in
// ambiguity order), chosen by AssignmentRule.
type Assignment struct {
	Choices []Choice
}

// Set is the assignment as a reading set: the ambiguities it reads
// otherwise than the stated protocol.
func (a Assignment) Set() ReadingSet {
	s := ReadingSet{}
	for _, c := range a.Choices {
		if c.Reading != "" {
			s[c.Ambiguity] = c.Reading
		}
	}
	return s
}

// Stated reports whether the assignment is the stated protocol for every
// ambiguity.
func (a Assignment) Stated() bool { return len(a.Set()) == 0 }

// Choice is the assignment's reading of one listed ambiguity.
type Choice struct {
	// Ambiguity is its id (a1), Topic and Text the paper-values file's.
	Ambiguity, Topic, Text string
	// Reading is the chosen reading's name ("clip"); "" for the stated
	// protocol's reading, which Stated gives as the base configs state it
	// ("config: how it reads it"; none when no base lists it).
	Reading string
	Stated  []string
	// Configs are the configs that read the ambiguity as Reading (for the
	// stated protocol: the base configs listing it).
	Configs []string
	// Readings are the names of every reading of it that a config runs,
	// in order (the candidates).
	Readings []string
	// Rule is how Reading was chosen (RuleFit, RuleStatedFit,
	// RuleStatedNoFit, RuleStatedNotRead) and Why the rule applied, with
	// its numbers.
	Rule, Why string
	// Fits are the comparisons the rule made: per printed table (and
	// interpretation of its unit) on which the stated protocol and a
	// reading of this ambiguity alone both ran, their distances.
	Fits []ChoiceFit
}

// Fit is the chosen reading's distance to the printed values and the
// stated protocol's, each the median over the printed tables that chose
// it of the tables' distances (never a median over pooled cells); ok is
// false when no fit chose it.
func (c Choice) Fit() (reading, stated float64, ok bool) {
	var rs, ss []float64
	for _, f := range c.Fits {
		if f.Reading == c.Reading && f.Better {
			rs, ss = append(rs, f.Distance), append(ss, f.StatedDistance)
		}
	}
	if len(rs) == 0 {
		return math.NaN(), math.NaN(), false
	}
	return median(rs), median(ss), true
}

// ReadingFit is one reading's fit to the printed values beside the
// stated protocol's, over every printed table on which both ran.
type ReadingFit struct {
	Reading string
	// Distance and Stated are the medians over those tables of the
	// reading's and the stated protocol's median |ln(ours/paper)|;
	// Tables counts the tables (and interpretations of their unit).
	Distance, Stated float64
	Tables           int
}

// ReadingFits is, for each reading of the ambiguity with a fit, in the
// order of Readings, its fit beside the stated protocol's, whether it fits
// clearly better or not: what a reader checks a kept stated protocol
// against.
func (c Choice) ReadingFits() []ReadingFit {
	var out []ReadingFit
	for _, r := range c.Readings {
		var rs, ss []float64
		for _, f := range c.Fits {
			if f.Reading == r {
				rs, ss = append(rs, f.Distance), append(ss, f.StatedDistance)
			}
		}
		if len(rs) > 0 {
			out = append(out, ReadingFit{Reading: r, Tables: len(rs), Distance: median(rs), Stated: median(ss)})
		}
	}
	return out
}

// median is the median of xs (the mean of the middle two for an even
// count); xs is sorted in place.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// ChoiceFit is one reading's fit to one printed table beside the stated
// protocol's.
type ChoiceFit struct {
	// Base is the base config regenerating the printed table, Table the
	// printed table (with its part) and Interpretation the reading of its
	// unit the distances are over ("" where there is one).
	Base, Table, Interpretation string
	// Reading is the reading's name, Config its config.
	Reading, Config string
	// Distance and Cells are the reading's median |ln(ours/paper)| and
	// the cells it is over; StatedConfig, StatedDistance and StatedCells
	// the stated protocol's.
	Distance       float64
	Cells          int
	StatedConfig   string
	StatedDistance float64
	StatedCells    int
	// Better reports whether the reading fits clearly better
	// (report.FitsClearlyBetter).
	Better bool
}

// assign chooses the paper's assignment from its tables' printed fits:
// for each listed ambiguity (ambs, or failing those the ambiguities its
// configs read), the reading that fits clearly better than the stated
// protocol in more than half of the printed tables on which both ran
// (and more often than any other reading of it), else the stated
// protocol's reading. It reads no verdict.
func assign(tables []Table, ambs map[string]config.Ambiguity) Assignment {
	ids := map[string]bool{}
	for id := range ambs {
		ids[id] = true
	}
	stated := map[string][]string{}
	statedCfgs := map[string][]string{}
	readings := map[string][]string{}
	configs := map[string]map[string][]string{} // ambiguity → reading → configs
	for _, t := range tables {
		for id, how := range t.Ambiguities {
			ids[id] = true
			stated[id] = append(stated[id], t.Base.Name+": "+how)
			statedCfgs[id] = append(statedCfgs[id], t.Base.Name)
		}
		for _, c := range t.Variants {
			if !c.isReading() {
				continue
			}
			for id, name := range c.Readings {
				ids[id] = true
				if !slices.Contains(readings[id], name) {
					readings[id] = append(readings[id], name)
				}
				if configs[id] == nil {
					configs[id] = map[string][]string{}
				}
				configs[id][name] = append(configs[id][name], c.Name)
			}
		}
	}
	var a Assignment
	for _, id := range sortedAmbiguities(ids) {
		ch := Choice{Ambiguity: id, Topic: ambs[id].Topic, Text: ambs[id].Text, Stated: stated[id], Configs: statedCfgs[id], Readings: readings[id]}
		slices.Sort(ch.Readings)
		ch.Fits = choiceFits(tables, id)
		ch.Rule, ch.Reading, ch.Why = chooseReading(ch)
		if ch.Reading != "" {
			ch.Configs = configs[id][ch.Reading]
		}
		a.Choices = append(a.Choices, ch)
	}
	return a
}

// chooseReading applies AssignmentRule to a choice's fits: the rule, the
// reading chosen ("" for the stated protocol's) and why, in words.
func chooseReading(ch Choice) (rule, reading, why string) {
	if len(ch.Readings) == 0 {
		return RuleStatedNotRead, "", "no config reads " + ch.Ambiguity + " otherwise than the stated protocol"
	}
	tables := map[string]bool{}
	wins := map[string]int{}
	for _, f := range ch.Fits {
		tables[f.Base+"\x00"+f.Table+"\x00"+f.Interpretation] = true
		if f.Better {
			wins[f.Reading]++
		}
	}
	if len(tables) == 0 {
		return RuleStatedNoFit, "", "no printed value bears on " + ch.Ambiguity + ": no reading of it regenerates a printed table beside the stated protocol"
	}
	best, n, tie := "", 0, false
	for _, r := range ch.Readings {
		switch {
		case wins[r] > n:
			best, n, tie = r, wins[r], false
		case wins[r] == n && n > 0:
			tie = true
		}
	}
	if best != "" && !tie && 2*n > len(tables) {
		return RuleFit, best, fmt.Sprintf("`%s` fits the printed values clearly better than the stated protocol in %d of the %d printed tables on which both ran", best, n, len(tables))
	}
	if n == 0 {
		return RuleStatedFit, "", fmt.Sprintf("no reading of %s fits the printed values clearly better than the stated protocol in any of the %d printed tables on which both ran", ch.Ambiguity, len(tables))
	}
	return RuleStatedFit, "", fmt.Sprintf("no reading of %s fits the printed values clearly better than the stated protocol in more than half of the %d printed tables on which both ran (the most: `%s` in %d)", ch.Ambiguity, len(tables), best, n)
}

// choiceFits gathers, over the tables' printed fits in interpretations
// the text supports, each reading of ambiguity id alone (a column whose
// reading set is that one reading) beside the stated protocol, where both
// ran over at least one cell.
func choiceFits(tables []Table, id string) []ChoiceFit {
	var out []ChoiceFit
	for _, t := range tables {
		cols := map[string]Column{}
		for _, c := range t.Variants {
			cols[c.Name] = c
		}
		for _, pf := range t.Fits {
			if !pf.Supported || len(pf.Fits) == 0 || !pf.Fits[0].Base {
				continue
			}
			base := pf.Fits[0]
			if !base.Run || base.Cells == 0 {
				continue
			}
			for _, f := range pf.Fits[1:] {
				c, ok := cols[f.Config]
				if !ok || !c.isReading() || len(c.Readings) != 1 || c.Readings[id] == "" || !f.Run || f.Cells == 0 {
					continue
				}
				out = append(out, ChoiceFit{Base: t.Base.Name, Table: pf.Table, Interpretation: pf.Interpretation, Reading: c.Readings[id], Config: f.Config,
					Distance: f.Distance, Cells: f.Cells, StatedConfig: base.Config, StatedDistance: base.Distance, StatedCells: base.Cells,
					Better: report.FitsClearlyBetter(f.paperFit(), base.paperFit())})
			}
		}
	}
	return out
}

func sortedAmbiguities(ids map[string]bool) []string {
	out := make([]string, 0, len(ids))
	for id := range ids {
		out = append(out, id)
	}
	slices.SortFunc(out, config.CompareAmbiguityIDs)
	return out
}

// Where a table's rows are read under a reading set.
const (
	// atBase: the set reads nothing that bears on the table, so its rows
	// keep the stated protocol's verdicts.
	atBase = -1
	// atMissing: the set reads an ambiguity the table lists as bearing on
	// its verdicts, and no config of the table reads the set's
	// ambiguities that way: its rows were not run under the set.
	atMissing = -2
)

// bears reports whether ambiguity id bears on t's verdicts: its base
// lists it, or a reading or post-hoc variant of it reads it.
func (t Table) bears(id string) bool {
	if _, ok := t.Ambiguities[id]; ok {
		return true
	}
	for _, c := range t.Variants {
		if _, ok := c.Readings[id]; ok && !c.Diagnostic {
			return true
		}
	}
	return false
}

// columnFor is the column of t that reads set (restricted to the
// ambiguities bearing on t) and, when postHoc is not "", makes that
// post-hoc choice too: its index among t.Variants, atBase when the set
// restricted is empty, atMissing when no column of t reads it so.
func (t Table) columnFor(set ReadingSet, postHoc string) int {
	restricted := ReadingSet{}
	for id, name := range set {
		if t.bears(id) {
			restricted[id] = name
		}
	}
	if postHoc != "" && !slices.ContainsFunc(t.Variants, func(c Column) bool { return c.PostHocName == postHoc }) {
		postHoc = "" // the post-hoc choice does not bear on this table
	}
	if len(restricted) == 0 && postHoc == "" {
		return atBase
	}
	for i, c := range t.Variants {
		if !c.Diagnostic && c.PostHocName == postHoc && c.Readings.equal(restricted) {
			return i
		}
	}
	return atMissing
}

// cellUnder is row r's cell under the table's column at (columnFor): the
// base's for atBase, the variant's when it restates the row, else the
// base's (a reading changes only what it reads: a reading config that
// leaves a row out declares that the reading does not bear on it); a
// not-run cell for atMissing.
func (r Row) cellUnder(at int) Cell {
	switch {
	case at == atBase:
		return r.Base
	case at == atMissing:
		return Cell{Present: true}
	case !r.Variants[at].Present:
		return r.Base
	}
	return r.Variants[at]
}
