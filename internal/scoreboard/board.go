package scoreboard

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/safefs"
)

// Category is the outcome of one claim over its base and readings.
type Category int

// The categories, in the order the totals list them (see the package
// documentation for their definitions).
const (
	AsStated Category = iota
	OtherReading
	NotReproduced
	Inconclusive
	NotEvaluated
	NotTestable
	NotRun
	nCategories
)

// PostHocOnly was the outcome of a claim reproduced only under a post-hoc
// variant. No claim takes it now: a post-hoc variant is sensitivity
// (Account.Sensitivity), and such a claim counts as not reproduced or
// inconclusive under the assignment. It lies outside the categories
// Totals counts.
//
// Deprecated: no claim takes it.
const PostHocOnly = nCategories

// Names of the categories as the pages print them.
var categoryNames = [nCategories]string{
	"reproduced as stated",
	"reproduced only under another documented reading",
	"not reproduced",
	"inconclusive",
	"not evaluated",
	"not testable here",
	"not run",
}

func (c Category) String() string {
	if c < 0 || c >= nCategories {
		return fmt.Sprintf("Category(%d)", int(c))
	}
	return categoryNames[c]
}

// Totals counts claims per category.
type Totals [nCategories]int

// Claims is the number of claims counted.
func (t Totals) Claims() int {
	n := 0
	for _, v := range t {
		n += v
	}
	return n
}

func (t *Totals) add(u Totals) {
	for i := range t {
		t[i] += u[i]
	}
}

// The verdicts claims.json can hold.
const (
	Pass          = "PASS"
	Fail          = "FAIL"
	Inconc        = "INCONCLUSIVE"
	NotEvaluatedV = "NOT-EVALUATED"
)

// Cell is one claim's result under one config.
type Cell struct {
	// Run is false when the config has no folder in the results root.
	Run bool
	// Present is false when the config has no such claim, or its
	// claims.json does not list it (then Verdict is NOT-EVALUATED).
	Present bool
	Verdict string
	// Point is the verdict of the point estimate alone, when claims.json
	// gives one.
	Point string
	// CILo, CIHi, CILevel and CIMethod are the claim's interval, when
	// claims.json gives one (HasCI).
	HasCI               bool
	CILo, CIHi, CILevel float64
	CIMethod            string
	// Basis is claims.json's verdict_basis ("interval", or "point: why
	// no interval"); Evidence its evidence, which the because: text's
	// references are filled from.
	Basis, Evidence string
	// CannotDiscriminate is claims.json's cannot_discriminate: why the
	// check could not tell its two sides apart (the verdict is then
	// INCONCLUSIVE whatever its basis).
	CannotDiscriminate string
	// Detectable is claims.json's detectable (an INCONCLUSIVE interval's
	// smallest decidable departure), for a because: text's {detectable}.
	Detectable *float64
	// ItemsNeeded is claims.json's items_needed: about how many items the
	// observed departure of an INCONCLUSIVE interval would need.
	ItemsNeeded *int
}

// Column is one config of a base's table: the base itself or a variant.
type Column struct {
	// Name is the config's name (its file name without .yaml); Label is
	// the part of it after the base's name, the column's heading.
	Name, Label, Title, Reading string
	// What the variant is to its base, over its chain of variant_of
	// (a variant of a variant reads what both read): Reads lists the
	// paper's ambiguities it reads otherwise, PostHoc is set when a link
	// reads no listed ambiguity (its why), Diagnostic when a link probes
	// our data (Probe, and Moves when it moves a property of the data
	// toward the paper's).
	Reads        []string
	PostHoc      string
	Diagnostic   bool
	Probe, Moves string
	// Readings names how the column reads each ambiguity in Reads (the
	// name of each reading link of its chain after the config it varies:
	// ReadingSet), and PostHocName the post-hoc link's name, so that one
	// reading is recognised in every table that runs it.
	Readings    ReadingSet
	PostHocName string
	// Run reports whether the results root holds a folder for it; Dir
	// is that folder (root/Name).
	Run bool
	Dir string
	// Extra lists claim ids of the results folder that the config does
	// not have (a stale folder); they are shown, never counted.
	Extra []string
}

// Row is one claim of a base config.
type Row struct {
	ID, Statement, Source string
	// Expect ("" for PASS, "fail", "inconclusive") and Because are the
	// base config's expectation, Because with its references filled in
	// from the base's verdict, records and config (claims.Expand).
	Expect, Because string
	// Paper is the paper claim the row tests (c1, c2, …: the fragment of
	// its source, paper-values/<paper>.yaml#claims/c1), "" when the row
	// is a check beyond the paper's claims.
	Paper    string
	Base     Cell
	Variants []Cell // one per Table.Variants
	Category Category
	// Beyond is the config's reason the row goes beyond the paper claim
	// its source cites (a group or quantity the paper does not have).
	Beyond string
	// Counted is false for a row that traces to no paper claim (Paper
	// is "") or goes beyond it (Beyond): it is shown, and listed among
	// Board.Beyond, never counted.
	Counted bool
	// Defect is the defect of our check the config names (config.Defects)
	// and DefectEvidence its sentence, references filled; Derived is whose
	// failure the row's verdict is, as the verdicts under the paper's
	// assignment and the configs' declarations give it (derive.go).
	Defect, DefectEvidence string
	Derived                Derivation
}

// Beyond is a checked row that traces to no claim of the paper: a base
// row whose source cites a figure or an ambiguity rather than a claim, or
// a diagnostic variant's own check. It is shown and never counted.
type Beyond struct {
	Config, ID, Statement, Source, Verdict string
	// Why is the config's beyond: reason, "" for a row whose source cites
	// no claim.
	Why string
	// Paper is the paper claim its source cites ("" for none) and Result
	// its cell, for the evidence behind that claim.
	Paper  string
	Result Cell
}

// Table is a base config with its variants' columns and a row per claim.
type Table struct {
	Base     Column
	Variants []Column
	Rows     []Row
	// Totals counts the table's counted rows by category, and Split its
	// rows not reproduced and inconclusive by whose failure they are
	// (derived). The paper's claims, not these rows, are the unit the
	// papers' and the board's totals count (Account).
	Totals Totals
	Split  Split
	// Ambiguities are the base's: the paper's ambiguities that can change
	// its verdicts, with how it reads each; StandIn what its data stand
	// in for ("" on the paper's own data).
	Ambiguities map[string]string
	StandIn     string
	// Beyond lists the checks of the diagnostic variants that the base
	// does not state (never counted).
	Beyond []Beyond
	// Fits is the reading fit of the base and its variants to each
	// printed table the base regenerates (fit.go); none without a
	// paper_table.
	Fits []PrintedFit
	// Assigned is where the paper's assignment reads the table's rows:
	// the index of the variant column reading it, or -1 when the
	// assignment reads nothing bearing on the table (the base's
	// verdicts), -2 when the table lists an ambiguity the assignment
	// reads otherwise and no config of the table reads it so (not run).
	Assigned int
}

// AssignedColumn is the column whose verdicts the paper's assignment
// counts for t, and false when the assignment's reading was not run for
// t.
func (t Table) AssignedColumn() (Column, bool) {
	switch t.Assigned {
	case atBase:
		return t.Base, true
	case atMissing:
		return Column{}, false
	}
	return t.Variants[t.Assigned], true
}

// Paper is one paper's tables.
type Paper struct {
	ID, Title string
	Tables    []Table
	// Totals and Split count the paper's claims (Accounts), the unit of
	// every total; RowTotals and RowSplit count the base rows, the
	// evidence under them.
	Totals, RowTotals Totals
	Split, RowSplit   Split
	// Ambiguities are the paper's, from its paper-values file (none when
	// it was not read), by id.
	Ambiguities map[string]config.Ambiguity
	// Accounts holds one entry per claim of the paper's paper-values file
	// (none when it was not read), and Unaccounted the ids of those that
	// no base config tests and no accounting file declares (account.go).
	Accounts    []Account
	Unaccounted []string
	// Assignment is the paper's one reading per listed ambiguity
	// (AssignmentRule): Totals and Split count the claims under it.
	Assignment Assignment
	// StatedPass counts the claims that pass under the stated protocol,
	// AssignedPass those that pass under the assignment (the claims the
	// headline counts reproduced: AsStated and OtherReading).
	StatedPass, AssignedPass int
}

// Board is the whole scoreboard.
type Board struct {
	// Root is the results root as given.
	Root   string
	Papers []Paper
	// Totals and Split count the papers' claims; RowTotals and RowSplit
	// the base rows testing them.
	Totals, RowTotals Totals
	Split, RowSplit   Split
	// Beyond lists every checked row that traces to no paper claim (base
	// rows without one, diagnostic variants' own checks), never counted.
	Beyond  []Beyond
	Configs int
	// Basis counts the base rows' verdicts by their basis (see Bases).
	Basis Bases
	// NotRun lists the configs without a folder in the results root;
	// Unknown the folders of the root that no config names.
	NotRun, Unknown []string
	// NoClaims lists the configs that state no claim.
	NoClaims []string
	// Sets are the sections of the collections of configs (AddSet), in
	// the order added.
	Sets []Set
	// Untitled lists, with the reason, the papers whose title could not
	// be read from the paper values (Load): they are headed by their id.
	Untitled []string
	// Verdicts counts every config's verdicts by their basis, in the
	// order the configs were given (configs with claims and results).
	Verdicts []ConfigVerdicts
}

// ConfigVerdicts counts one config's verdicts in its claims.json by the
// basis of each: PASS and FAIL decided on an interval or on the point
// estimate, INCONCLUSIVE, NOT-EVALUATED.
type ConfigVerdicts struct {
	Config                                           string
	Claims                                           int
	PassInterval, PassPoint, FailInterval, FailPoint int
	Inconclusive, NotEvaluated                       int
}

func (v *ConfigVerdicts) add(c Cell) {
	v.Claims++
	interval := c.Basis == "interval"
	switch {
	case c.Verdict == Pass && interval:
		v.PassInterval++
	case c.Verdict == Pass:
		v.PassPoint++
	case c.Verdict == Fail && interval:
		v.FailInterval++
	case c.Verdict == Fail:
		v.FailPoint++
	case c.Verdict == Inconc:
		v.Inconclusive++
	default:
		v.NotEvaluated++
	}
}

// Build assembles the board from the configs and the results under root.
// title gives a paper's title from its id ("" when unknown). A variant
// whose base is not among cfgs, belongs to another paper, forms a cycle or
// has a claim its base lacks, a results root that is not a directory, and
// a malformed claims.json are errors.
func Build(cfgs []*config.Config, root string, title func(paper string) string) (*Board, error) {
	return BuildWith(cfgs, root, Inputs{Title: title})
}

// Inputs are what BuildWith reads beside the configs and the results.
type Inputs struct {
	// Title gives a paper's title from its id ("" when unknown).
	Title func(paper string) string
	// Claims gives a paper's claims from its paper-values file; nil, or
	// ok false, when they are not known (the paper is then not
	// accounted for).
	Claims func(paper string) ([]config.PaperClaim, bool)
	// Accounting holds the accounting files, by paper.
	Accounting map[string]*config.Accounting
	// Ambiguities gives a paper's ambiguities from its paper-values file;
	// nil, or ok false, when they are not known (reads: and ambiguities:
	// ids are then not checked).
	Ambiguities func(paper string) ([]config.Ambiguity, bool)
}

// BuildWith is Build that also accounts for every claim of each paper's
// paper-values file (Inputs.Claims): tested by the base configs' rows
// citing it, combined from other claims (an aggregate) or declared not
// testable here (Inputs.Accounting; account.go).
func BuildWith(cfgs []*config.Config, root string, in Inputs) (*Board, error) {
	title := in.Title
	if title == nil {
		title = func(string) string { return "" }
	}
	fi, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("scoreboard: results root: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("scoreboard: results root %s is not a directory", root)
	}
	bd := &builder{b: &Board{Root: root, Configs: len(cfgs)}, root: root, byFile: map[string]*config.Config{},
		results: map[string]map[string]Cell{}, run: map[string]bool{}, extra: map[string][]string{}}
	for _, c := range cfgs {
		f := filepath.Base(c.File)
		if _, dup := bd.byFile[f]; dup {
			return nil, fmt.Errorf("scoreboard: two configs named %s", f)
		}
		bd.byFile[f] = c
	}
	if err := bd.readResults(cfgs); err != nil {
		return nil, err
	}
	variants, err := bd.variants(cfgs)
	if err != nil {
		return nil, err
	}
	ambs, err := checkAmbiguities(cfgs, in)
	if err != nil {
		return nil, err
	}
	papers := map[string]*Paper{}
	for _, base := range bd.bases {
		t := bd.table(base, variants[base.Name], ambs[base.Paper])
		if t.Fits, err = printedFits(root, base, variants[base.Name]); err != nil {
			return nil, err
		}
		p := papers[base.Paper]
		if p == nil {
			p = &Paper{ID: base.Paper, Title: title(base.Paper), Ambiguities: ambs[base.Paper]}
			papers[base.Paper] = p
		}
		p.Tables = append(p.Tables, t)
	}
	if err := bd.addPapers(papers, in); err != nil {
		return nil, err
	}
	if err := bd.unknownFolders(); err != nil {
		return nil, err
	}
	sort.Slice(bd.b.Beyond, func(i, j int) bool {
		a, c := bd.b.Beyond[i], bd.b.Beyond[j]
		return a.Config < c.Config || a.Config == c.Config && a.ID < c.ID
	})
	return bd.b, nil
}

// builder holds what BuildWith has read so far: the configs by file name,
// each config's claims.json cells, whether it ran, the claims its results
// list but it no longer states, and the base configs in order.
type builder struct {
	b       *Board
	root    string
	byFile  map[string]*config.Config
	results map[string]map[string]Cell
	run     map[string]bool
	extra   map[string][]string
	bases   []*config.Config
}

// readResults reads every config's claims.json, noting the configs not
// run, without claims, the claims their results list but they do not
// state, and the base configs (no variant_of).
func (bd *builder) readResults(cfgs []*config.Config) error {
	for _, c := range cfgs {
		cells, ok, err := readClaims(filepath.Join(bd.root, c.Name))
		if err != nil {
			return err
		}
		bd.run[c.Name] = ok
		bd.results[c.Name] = cells
		if ok && len(c.Claims) > 0 {
			v := ConfigVerdicts{Config: c.Name}
			for _, id := range sortedCells(cells) {
				v.add(cells[id])
			}
			bd.b.Verdicts = append(bd.b.Verdicts, v)
		}
		if !ok {
			bd.b.NotRun = append(bd.b.NotRun, c.Name)
		}
		if len(c.Claims) == 0 {
			bd.b.NoClaims = append(bd.b.NoClaims, c.Name)
		}
		have := map[string]bool{}
		for _, cl := range c.Claims {
			have[cl.ID] = true
		}
		for id := range cells {
			if !have[id] {
				bd.extra[c.Name] = append(bd.extra[c.Name], id)
			}
		}
		slices.Sort(bd.extra[c.Name])
		if c.VariantOf == "" {
			bd.bases = append(bd.bases, c)
		}
	}
	slices.Sort(bd.b.NotRun)
	slices.Sort(bd.b.NoClaims)
	return nil
}

// baseOf resolves variants of variants to the first config without
// variant_of.
func (bd *builder) baseOf(c *config.Config) (*config.Config, error) {
	seen := map[string]bool{}
	for c.VariantOf != "" {
		if seen[c.Name] {
			return nil, fmt.Errorf("scoreboard: %s: variant_of forms a cycle", c.File)
		}
		seen[c.Name] = true
		b, ok := bd.byFile[c.VariantOf]
		if !ok {
			return nil, fmt.Errorf("scoreboard: %s: variant_of %s is not among the configs read", c.File, c.VariantOf)
		}
		c = b
	}
	return c, nil
}

// variants groups the variants by base name, refusing one of another
// paper than its base or with a claim its base lacks (a diagnostic may
// state checks of its own).
func (bd *builder) variants(cfgs []*config.Config) (map[string][]*config.Config, error) {
	variants := map[string][]*config.Config{}
	for _, c := range cfgs {
		if c.VariantOf == "" {
			continue
		}
		base, err := bd.baseOf(c)
		if err != nil {
			return nil, err
		}
		if c.Paper != base.Paper {
			return nil, fmt.Errorf("scoreboard: %s: paper %q, but its base %s has paper %q", c.File, c.Paper, base.File, base.Paper)
		}
		ids := map[string]bool{}
		for _, cl := range base.Claims {
			ids[cl.ID] = true
		}
		diag := bd.chainDiagnostic(c)
		for _, cl := range c.Claims {
			// A diagnostic probes our data and may state checks of its
			// own (listed apart, never counted); a reading judges the
			// base's claims.
			if !ids[cl.ID] && !diag {
				return nil, fmt.Errorf("scoreboard: %s:%d: claim %q is not a claim of its base %s: a reading keeps the base's claim ids (a diagnostic variant may state checks of its own)", c.File, cl.Line, cl.ID, base.File)
			}
		}
		variants[base.Name] = append(variants[base.Name], c)
	}
	for _, vs := range variants {
		sort.Slice(vs, func(i, j int) bool { return vs[i].Name < vs[j].Name })
	}
	return variants, nil
}

// chain is c and the variants between it and its base, c first.
func (bd *builder) chain(c *config.Config) []*config.Config {
	var out []*config.Config
	for i := 0; c != nil && c.VariantOf != "" && i <= len(bd.byFile); i++ {
		out = append(out, c)
		c = bd.byFile[c.VariantOf]
	}
	return out
}

// chainDiagnostic reports whether a link of c's chain is a diagnostic.
func (bd *builder) chainDiagnostic(c *config.Config) bool {
	for _, l := range bd.chain(c) {
		if l.Diagnostic {
			return true
		}
	}
	return false
}

// column is config c's column in the table of base: what it reads, over
// its chain (a variant of a variant reads what both read, is post hoc if
// either is, a diagnostic if either is).
func (bd *builder) column(c *config.Config, base string) Column {
	col := Column{Name: c.Name, Label: columnLabel(c.Name, base), Title: c.Title, Reading: c.Reading,
		Run: bd.run[c.Name], Dir: filepath.Join(bd.root, c.Name), Extra: bd.extra[c.Name]}
	col.Readings = ReadingSet{}
	for _, l := range bd.chain(c) {
		name := l.Name
		if parent := bd.byFile[l.VariantOf]; parent != nil {
			name = columnLabel(l.Name, parent.Name)
		}
		if l.Reads != "" && !slices.Contains(col.Reads, l.Reads) {
			col.Reads = append(col.Reads, l.Reads)
			col.Readings[l.Reads] = name
		}
		if l.PostHoc != "" && col.PostHoc == "" {
			col.PostHoc, col.PostHocName = l.PostHoc, name
		}
		if l.Diagnostic && !col.Diagnostic {
			col.Diagnostic, col.Probe, col.Moves = true, l.Probe, l.Moves
		}
	}
	slices.SortFunc(col.Reads, config.CompareAmbiguityIDs)
	return col
}

// Role is what the column's config is to its base: "stated protocol",
// "reading", "post hoc" or "diagnostic".
func (c Column) Role() string {
	switch {
	case c.Diagnostic:
		return "diagnostic"
	case c.PostHoc != "":
		return "post hoc"
	case len(c.Reads) > 0:
		return "reading"
	}
	return "stated protocol"
}

// isReading reports whether the column reads a listed ambiguity of the
// paper otherwise (not post hoc, not a diagnostic): only such a column
// can reproduce a claim "under another documented reading".
func (c Column) isReading() bool { return c.Role() == "reading" }

// columnLabel is the heading of config name's column in base's table:
// the part of its name after the base's, or the whole name for the base.
func columnLabel(name, base string) string {
	label := strings.TrimPrefix(strings.TrimPrefix(name, base), "-")
	if name == base || label == "" {
		label = name
	}
	return label
}

// table is base's table: a row per claim of the base, with its verdict
// under the base and each variant (vs, sorted), its category, its
// because: text filled in and its derived attribution; it counts each
// base row's basis in the board.
func (bd *builder) table(base *config.Config, vs []*config.Config, ambs map[string]config.Ambiguity) Table {
	t := Table{Base: bd.column(base, base.Name), Ambiguities: base.Ambiguities, StandIn: base.StandIn}
	vclaims := make([]map[string]bool, len(vs))
	for i, v := range vs {
		t.Variants = append(t.Variants, bd.column(v, base.Name))
		vclaims[i] = map[string]bool{}
		for _, cl := range v.Claims {
			vclaims[i][cl.ID] = true
		}
	}
	baseIDs := map[string]bool{}
	for _, cl := range base.Claims {
		baseIDs[cl.ID] = true
	}
	for i, v := range vs {
		for _, cl := range v.Claims {
			if baseIDs[cl.ID] {
				continue
			}
			c := cell(bd.results[v.Name], bd.run[v.Name], cl.ID, vclaims[i][cl.ID])
			b := Beyond{Config: v.Name, ID: cl.ID, Statement: cl.Statement, Source: cl.Source, Verdict: verdictOrNotRun(c), Why: "a check of the diagnostic " + v.Name + "'s own",
				Paper: paperClaim(cl), Result: c}
			t.Beyond = append(t.Beyond, b)
			bd.b.Beyond = append(bd.b.Beyond, b)
		}
	}
	for _, cl := range base.Claims {
		r := Row{ID: cl.ID, Statement: cl.Statement, Source: cl.Source, Expect: cl.Expect, Paper: paperClaim(cl), Beyond: cl.Beyond, Defect: cl.Defect}
		r.Base = cell(bd.results[base.Name], bd.run[base.Name], cl.ID, true)
		r.Because = fill(cl.Because, base, r.Base, filepath.Join(bd.root, base.Name))
		r.DefectEvidence = fill(cl.DefectEvidence, base, r.Base, filepath.Join(bd.root, base.Name))
		if ours := defectBeyond[cl.Defect]; ours != "" && r.Beyond == "" {
			// A quantifier or threshold of ours goes beyond the
			// paper's sentence: the row never decides its claim.
			r.Beyond = ours + ": " + r.DefectEvidence
		}
		r.Counted = r.Paper != "" && r.Beyond == ""
		for i, v := range vs {
			r.Variants = append(r.Variants, cell(bd.results[v.Name], bd.run[v.Name], cl.ID, vclaims[i][cl.ID]))
		}
		t.Rows = append(t.Rows, r)
		if !r.Counted {
			why := r.Beyond
			if why == "" {
				why = "its source cites no claim of the paper"
			}
			bd.b.Beyond = append(bd.b.Beyond, Beyond{Config: base.Name, ID: cl.ID, Statement: cl.Statement, Source: cl.Source, Verdict: verdictOrNotRun(r.Base), Why: why, Result: r.Base, Paper: r.Paper})
			continue
		}
		bd.b.Basis.add(base.Name, cl.ID, r.Base)
	}
	return t
}

// judgeTable sets each counted row's category and derived attribution
// under the paper's assignment (t.Assigned) and counts them in t's
// totals and split.
func (bd *builder) judgeTable(t *Table, ambs map[string]config.Ambiguity) {
	for i := range t.Rows {
		r := &t.Rows[i]
		if !r.Counted {
			continue
		}
		r.Category = categorise(*r, t.Assigned)
		r.Derived = derive(*r, *t, ambs, t.Assigned)
		t.Totals[r.Category]++
		t.Split.count(r.Category, r.Derived.Kind)
	}
}

// addPapers accounts for each paper's claims and adds the papers with
// claims to the board, in id order, with their tables in name order.
func (bd *builder) addPapers(papers map[string]*Paper, in Inputs) error {
	ids := make([]string, 0, len(papers))
	for id := range papers {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		p := papers[id]
		sort.Slice(p.Tables, func(i, j int) bool { return p.Tables[i].Base.Name < p.Tables[j].Base.Name })
		p.Assignment = assign(p.Tables, p.Ambiguities)
		set := p.Assignment.Set()
		for i := range p.Tables {
			t := &p.Tables[i]
			t.Assigned = t.columnFor(set, "")
			bd.judgeTable(t, p.Ambiguities)
			p.RowTotals.add(t.Totals)
			p.RowSplit.add(t.Split)
		}
		if err := account(p, in); err != nil {
			return err
		}
		if p.Totals.Claims() == 0 && p.RowTotals.Claims() == 0 {
			// A paper whose configs state no claim (the cross-paper
			// matrix) has no row to show; NoClaims lists its configs.
			continue
		}
		bd.b.Papers = append(bd.b.Papers, *p)
		bd.b.Totals.add(p.Totals)
		bd.b.Split.add(p.Split)
		bd.b.RowTotals.add(p.RowTotals)
		bd.b.RowSplit.add(p.RowSplit)
	}
	return nil
}

// unknownFolders lists the folders of the results root that no config
// names.
func (bd *builder) unknownFolders() error {
	ents, err := os.ReadDir(bd.root)
	if err != nil {
		return fmt.Errorf("scoreboard: %w", err)
	}
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if _, ok := bd.results[e.Name()]; !ok {
			bd.b.Unknown = append(bd.b.Unknown, e.Name())
		}
	}
	slices.Sort(bd.b.Unknown)
	return nil
}

// verdictOrNotRun is a cell's verdict, or "not run".
func verdictOrNotRun(c Cell) string {
	if !c.Run {
		return "not run"
	}
	if c.Verdict == "" {
		return NotEvaluatedV
	}
	return c.Verdict
}

// categorise applies the package's definitions to a row: its verdict
// under the stated protocol and under the paper's assignment (its table's
// column at: columnFor), the assignment's verdict counted.
func categorise(r Row, at int) Category {
	base, a := r.Base, r.cellUnder(at)
	switch {
	case !base.Run || !a.Run:
		return NotRun
	case a.Verdict == Pass && base.Verdict == Pass:
		return AsStated
	case a.Verdict == Pass:
		return OtherReading
	case a.Verdict == Fail:
		return NotReproduced
	case a.Verdict == Inconc:
		return Inconclusive
	}
	return NotEvaluated
}

// cell is the claim id's cell of a config; has says whether the config
// states the claim at all.
func cell(res map[string]Cell, run bool, id string, has bool) Cell {
	if !run {
		return Cell{Present: has}
	}
	if !has {
		return Cell{Run: true}
	}
	c, ok := res[id]
	if !ok {
		// Stated by the config, absent from its claims.json: not
		// evaluated, never a silent gap.
		return Cell{Run: true, Present: true, Verdict: NotEvaluatedV}
	}
	c.Run, c.Present = true, true
	return c
}

// readClaims reads dir/claims.json. ok is false when dir does not exist
// (the config was not run); a folder without claims.json is a run whose
// claims were all not evaluated.
//
// claims.json is read only if it is a regular file of at most
// maxClaimsBytes (report.MaxJSONBytes).
func readClaims(dir string) (map[string]Cell, bool, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, false, fmt.Errorf("scoreboard: %w", err)
		}
		return nil, false, nil
	}
	path := filepath.Join(dir, "claims.json")
	// Read inside the results root only (dir is a folder of it): a link
	// leading out of it is refused, naming it.
	data, err := safefs.ReadFileIn(filepath.Dir(dir), path, maxClaimsBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]Cell{}, true, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("scoreboard: %w", err)
	}
	var recs []claims.Result
	if err := json.Unmarshal(data, &recs); err != nil {
		return nil, false, fmt.Errorf("scoreboard: %s: %w", path, err)
	}
	cells := make(map[string]Cell, len(recs))
	for i, r := range recs {
		v := r.Verdict
		if v == "" {
			v = r.Status
		}
		if !validVerdict(v) {
			return nil, false, fmt.Errorf("scoreboard: %s: claim %d (%q): verdict %q, want PASS, FAIL, INCONCLUSIVE or NOT-EVALUATED", path, i, r.ID, v)
		}
		if r.PointVerdict != "" && !validVerdict(r.PointVerdict) {
			return nil, false, fmt.Errorf("scoreboard: %s: claim %q: point_verdict %q, want PASS, FAIL, INCONCLUSIVE or NOT-EVALUATED", path, r.ID, r.PointVerdict)
		}
		if r.ID == "" {
			return nil, false, fmt.Errorf("scoreboard: %s: claim %d has no id", path, i)
		}
		if _, dup := cells[r.ID]; dup {
			return nil, false, fmt.Errorf("scoreboard: %s: claim %q appears twice", path, r.ID)
		}
		c := Cell{Verdict: v, Point: r.PointVerdict, CIMethod: r.CIMethod, Basis: r.Basis, Evidence: r.Evidence,
			CannotDiscriminate: r.CannotDiscriminate, Detectable: r.Detectable, ItemsNeeded: r.ItemsNeeded}
		if r.CILo != nil && r.CIHi != nil {
			c.HasCI, c.CILo, c.CIHi = true, *r.CILo, *r.CIHi
			if r.CILevel != nil {
				c.CILevel = *r.CILevel
			}
		}
		cells[r.ID] = c
	}
	return cells, true, nil
}

func validVerdict(v string) bool {
	return v == Pass || v == Fail || v == Inconc || v == NotEvaluatedV
}

// maxClaimsBytes bounds a claims.json the scoreboard reads, as
// report.MaxJSONBytes does the report's.
const maxClaimsBytes = 64 << 20

// sortedCells are the claim ids of cells, sorted.
func sortedCells(cells map[string]Cell) []string {
	ids := make([]string, 0, len(cells))
	for id := range cells {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}
