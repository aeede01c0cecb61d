package report

import (
	"errors"
	"github.com/runexp/runexp/internal/safefs"
	"io/fs"

	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// CompareOptions set when a metric counts as moved: when
// |new − old| > AbsTol + RelTol·|old|. The zero value asks for exact
// equality. NaN equals NaN; NaN against a number, and an infinity against
// anything but the same infinity, is always a change.
type CompareOptions struct {
	RelTol, AbsTol float64
	// Partial compares only the runs the new results hold: a run of the
	// old results (a baseline of every config) that the new ones lack is
	// not a change, as when a nightly job ran a subset. A run the new
	// results hold and the old lack is still a "new run".
	Partial bool
}

// Comparison is what [Compare] found.
type Comparison struct {
	Changes []Change
	// NotCompared names the runs of the new results that the old lack
	// and that a --with run wrote without adding anything: every
	// estimator its manifest lists under with was skipped there, so its
	// cells are the config's own and, without their counterpart in the
	// old results, compare with nothing. They are not changes: a
	// --with folder compared with the results it sits in lists the
	// added cells alone.
	NotCompared []string
}

// Change is one difference between two result sets, found by
// [CompareResults].
//
// Config names the run directory; Key is the cell key, or "" for a change
// of the whole run or of a claim. What says what changed:
//
//	"metric <name>"   a metric moved beyond tolerance, or exists on one side only ("absent")
//	"status"          the cell's status
//	"error"           the cell's error message
//	"missing in new"  a cell of the old results is not in the new (Old is its status)
//	"new cell"        a cell of the new results is not in the old (New is its status)
//	"claim <id>"      a claim's verdict, or a claim present on one side only ("absent")
//	"missing run"     a run directory of the old results is not in the new (Old "present", New "absent")
//	"new run"         a run directory of the new results is not in the old (Old "absent", New "present")
//
// Old and New are the two values as text; metrics are formatted by
// [FormatFloat] with the shortest round-tripping precision.
type Change struct {
	Config string `json:"config"`
	Key    string `json:"key"`
	What   string `json:"what"`
	Old    string `json:"old"`
	New    string `json:"new"`
	// Cell is the cell's short label (CellLabels, over the cells of the
	// run on both sides), "" for a change of a run or a claim.
	Cell string `json:"cell,omitempty"`
	// Was is, for a cell paired with its former self (a parameter of
	// the config's grid changed, and with it the cell's key), the old
	// cell's key; Params says what changed, "tol 1e-09 → 1e-08". Such a
	// cell has a "params" change (Old and New its parameters that
	// changed, "tol=1e-09" and "tol=1e-08") and its record's changes, as
	// a cell of the same key has.
	Was    string `json:"was,omitempty"`
	Params string `json:"params,omitempty"`
	// Causes says, for a change of a cell, what differs between the runs
	// that computed its two records: its parameters or the config file
	// (config), the code fingerprint of the record (code), the data files
	// the runs read (data); or why none can be named.
	Causes []Cause `json:"causes,omitempty"`
	// OldValue and NewValue are a metric's two values as numbers, where
	// they are finite (JSON has no NaN; Old and New say it).
	OldValue *float64 `json:"old_value,omitempty"`
	NewValue *float64 `json:"new_value,omitempty"`
	// Because names, for a claim whose verdict changed, the metrics of
	// its evidence that moved in its run.
	Because []string `json:"because,omitempty"`

	// oldCode and newCode are the code fingerprints of the cell's two
	// records (Record.Code), for Causes.
	oldCode, newCode string
}

// Cause is one cause of a change (Change.Causes): Kind is "config",
// "code", "data", or "unknown" when the runs' records do not say (a
// baseline without provenance.json), or "none" when config, code and data
// are the same on both sides; Text says what differs.
type Cause struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// CauseKinds lists the kinds of a change's causes, "config, code".
func (c Change) CauseKinds() string {
	var k []string
	for _, x := range c.Causes {
		if !slices.Contains(k, x.Kind) {
			k = append(k, x.Kind)
		}
	}
	return strings.Join(k, ", ")
}

// absent stands for a value, cell, claim or run that one side does not have.
const absent = "absent"

// String formats c on one line: "config key: what: old → new" (without the
// key when it is empty).
func (c Change) String() string {
	var b strings.Builder
	b.WriteString(c.Config)
	if c.Key != "" {
		b.WriteString(" ")
		b.WriteString(c.Key)
	}
	fmt.Fprintf(&b, ": %s: %s → %s", c.What, orDash(c.Old), orDash(c.New))
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return Dash
	}
	return s
}

// ChangesTable returns ch as a table, one row a change, in the diff's
// order (NewDiff: per config its claims, its moved metrics by cell,
// largest relative change first, then the other changes), with columns
// Config, Cell (with a paired cell's parameter change), Change, Old, New,
// Delta and Ratio (of a metric that moved) and Cause (the kinds of the
// cell's causes); the caption counts the changes and says each config's
// causes, for [Table.RenderText] or [Table.RenderMarkdown].
func ChangesTable(ch []Change) *Table {
	t := &Table{
		Title:  "Changes",
		Header: []string{"Config", "Cell", "Change", "Old", "New", "Delta", "Ratio", "Cause"},
		// One change a line, for logs that grep them.
		Lines: true,
	}
	d := NewDiff(ch)
	var causes []string
	n := 0
	for _, cd := range d.Configs {
		for _, c := range cd.Claims {
			t.Rows = append(t.Rows, []string{c.Config, c.CellName(), c.What, orDash(c.Old), orDash(c.New), Dash, Dash, Dash})
		}
		for _, c := range cd.Metrics {
			r := c.Row()
			t.Rows = append(t.Rows, []string{c.Config, r.Cell, c.What, r.Old, r.New, r.Delta, r.Ratio, orDash(c.CauseKinds())})
		}
		for _, c := range cd.Other {
			t.Rows = append(t.Rows, []string{c.Config, c.CellName(), c.What, orDash(c.Old), orDash(c.New), Dash, Dash, orDash(c.CauseKinds())})
		}
		n += len(cd.Claims) + len(cd.Metrics) + len(cd.Other)
		if len(cd.Causes) > 0 {
			causes = append(causes, cd.Config+": "+strings.TrimPrefix(causeLine(cd.Causes), "caused by: "))
		}
	}
	switch n {
	case 0:
		t.Caption = "No changes."
	case 1:
		t.Caption = "1 change."
	default:
		t.Caption = fmt.Sprintf("%d changes.", n)
	}
	if len(causes) > 0 {
		t.Caption += " Caused by (the cells of each cause): " + strings.Join(causes, ". ") + "."
	}
	return t
}

// CompareResults compares the results under oldRoot with those under
// newRoot and returns their differences sorted by config, key and what.
//
// Each root is either a run directory (it holds records.jsonl) or a results
// root whose immediate subdirectories holding records.jsonl are run
// directories (directories whose names start with "." are skipped). Two run
// directories are compared with each other under the base name of newRoot;
// two results roots are compared run by run, matched by directory name, a
// run on one side only being a "missing run" or a "new run". A run directory against a
// results root is an error, as is a root that does not exist.
//
// Within a run, records are matched by Key and their metrics, status and
// error compared (params are part of the key; seeds and arrays are not
// compared); claims in claims.json, when either side has one, are matched
// by id and their verdicts compared (the evidence is not: its numbers are
// the metrics). A negative or NaN tolerance, a malformed file or a key or
// claim id that appears twice in one file is an error.
func CompareResults(oldRoot, newRoot string, o CompareOptions) ([]Change, error) {
	c, err := Compare(oldRoot, newRoot, o)
	if err != nil {
		return nil, err
	}
	return c.Changes, nil
}

// Compare is [CompareResults] that also names the runs it did not
// compare (Comparison.NotCompared).
func Compare(oldRoot, newRoot string, o CompareOptions) (*Comparison, error) {
	if !(o.RelTol >= 0 && o.AbsTol >= 0) {
		return nil, fmt.Errorf("report: compare: tolerances must be ≥ 0, got relative %v, absolute %v", o.RelTol, o.AbsTol)
	}
	oldRun, err := isRunDir(oldRoot)
	if err != nil {
		return nil, err
	}
	newRun, err := isRunDir(newRoot)
	if err != nil {
		return nil, err
	}
	var ch []Change
	var skipped []string
	switch {
	case oldRun && newRun:
		ch, err = compareRun(filepath.Base(filepath.Clean(newRoot)), oldRoot, newRoot, o)
		if err != nil {
			return nil, err
		}
	case oldRun != newRun:
		run, root := oldRoot, newRoot
		if newRun {
			run, root = newRoot, oldRoot
		}
		return nil, fmt.Errorf("report: compare: %s is a run directory but %s is a results root; compare %s with %s",
			run, root, run, filepath.Join(root, filepath.Base(filepath.Clean(run))))
	default:
		oldRuns, err := runDirs(oldRoot)
		if err != nil {
			return nil, err
		}
		newRuns, err := runDirs(newRoot)
		if err != nil {
			return nil, err
		}
		names := slices.Concat(oldRuns, newRuns)
		slices.Sort(names)
		for _, name := range slices.Compact(names) {
			inOld, inNew := slices.Contains(oldRuns, name), slices.Contains(newRuns, name)
			if o.Partial && !inNew {
				continue
			}
			if !inOld && addedNothing(filepath.Join(newRoot, name)) {
				skipped = append(skipped, name)
				continue
			}
			if !inOld || !inNew {
				c := Change{Config: name, What: "missing run", Old: "present", New: absent}
				if !inOld {
					c.What, c.Old, c.New = "new run", absent, "present"
				}
				ch = append(ch, c)
				continue
			}
			rc, err := compareRun(name, filepath.Join(oldRoot, name), filepath.Join(newRoot, name), o)
			if err != nil {
				return nil, err
			}
			ch = append(ch, rc...)
		}
	}
	slices.SortStableFunc(ch, func(a, b Change) int {
		return cmp.Or(cmp.Compare(a.Config, b.Config), cmp.Compare(a.Key, b.Key), cmp.Compare(a.What, b.What))
	})
	return &Comparison{Changes: ch, NotCompared: skipped}, nil
}

// addedNothing reports whether the run in dir was written by a --with run
// in which every added estimator was skipped (its manifest's with lists
// only skipped specs): its cells are the config's own.
func addedNothing(dir string) bool {
	b, err := safefs.ReadFileIn(dir, filepath.Join(dir, "manifest.json"), maxManifestBytes)
	if err != nil {
		return false
	}
	var m struct {
		With []WithSpec `json:"with"`
	}
	if json.Unmarshal(b, &m) != nil || len(m.With) == 0 {
		return false
	}
	for _, w := range m.With {
		if w.Skipped == "" {
			return false
		}
	}
	return true
}

// isRunDir reports whether dir holds records.jsonl; dir must be a directory.
func isRunDir(dir string) (bool, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return false, fmt.Errorf("report: compare: %w", err)
	}
	if !fi.IsDir() {
		return false, fmt.Errorf("report: compare: %s is not a directory", dir)
	}
	return hasRecords(dir)
}

// hasRecords reports whether dir holds records.jsonl; one that is there
// but is not a regular file (a link to /dev/zero) is an error naming it,
// not a folder without records.
func hasRecords(dir string) (bool, error) {
	p := filepath.Join(dir, "records.jsonl")
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("report: compare: %w", err)
	case !fi.Mode().IsRegular():
		return false, fmt.Errorf("report: compare: %w", &safefs.NotRegularError{Path: p, Mode: fi.Mode()})
	}
	return true, nil
}

// runDirs returns the sorted names of root's subdirectories that hold
// records.jsonl.
func runDirs(root string) ([]string, error) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("report: compare: %w", err)
	}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, ".") || !isDir(filepath.Join(root, n)) {
			continue
		}
		// A run folder that is a link must stay inside the root: the
		// comparison is of the results given, not of a folder a link
		// leads to elsewhere.
		if err := safefs.CheckInside(root, filepath.Join(root, n)); err != nil {
			return nil, fmt.Errorf("report: compare: %w", err)
		}
		ok, err := hasRecords(filepath.Join(root, n))
		if err != nil {
			return nil, err
		}
		if ok {
			names = append(names, n)
		}
	}
	return names, nil
}

// compareRun compares two run directories.
func compareRun(config, oldDir, newDir string, o CompareOptions) ([]Change, error) {
	var ch []Change
	add := func(key, what, old, new string) {
		ch = append(ch, Change{Config: config, Key: key, What: what, Old: old, New: new})
	}
	if err := compareRecordFiles(oldDir, newDir, o, func(c Change) {
		c.Config = config
		ch = append(ch, c)
	}); err != nil {
		return nil, err
	}

	oldClaims, err := readClaimsByID(oldDir)
	if err != nil {
		return nil, err
	}
	newClaims, err := readClaimsByID(newDir)
	if err != nil {
		return nil, err
	}
	for id, was := range oldClaims {
		now, ok := newClaims[id]
		if !ok {
			now = absent
		}
		if was != now {
			add("", "claim "+id, was, now)
		}
	}
	for id, now := range newClaims {
		if _, ok := oldClaims[id]; !ok {
			add("", "claim "+id, absent, now)
		}
	}
	if err := explainClaims(ch, oldDir, newDir); err != nil {
		return nil, err
	}
	po, pn := readRunInputs(oldDir), readRunInputs(newDir)
	for i := range ch {
		if ch[i].Key != "" {
			ch[i].Causes = causes(ch[i], po, pn)
		}
	}
	return ch, nil
}

// runInputs is what a run folder records of the inputs of its records
// besides their code (each record's Record.Code): the config file's and
// every data file's SHA-256, and the linear-algebra backend. A result
// folder has them in manifest.json, a baseline in provenance.json
// (WriteBaseline); known is false when neither is there.
type runInputs struct {
	ConfigSHA256 string    `json:"config_sha256"`
	Data         []FileSum `json:"data"`
	Backend      string    `json:"backend,omitempty"`
	Machine      *struct {
		Backend string `json:"backend"`
	} `json:"machine,omitempty"`
	known bool
}

// ProvenanceFile is the file a baseline keeps of its run's manifest.
const ProvenanceFile = "provenance.json"

func readRunInputs(dir string) runInputs {
	var p runInputs
	for _, name := range []string{"manifest.json", ProvenanceFile} {
		b, err := safefs.ReadFileIn(dir, filepath.Join(dir, name), maxManifestBytes)
		if err != nil || json.Unmarshal(b, &p) != nil || p.ConfigSHA256 == "" {
			continue
		}
		if p.Machine != nil && p.Backend == "" {
			p.Backend = p.Machine.Backend
		}
		p.known = true
		return p
	}
	return runInputs{}
}

// shownFiles is how many changed data files a cause names.
const shownFiles = 3

// causes says what differs between the runs that computed a cell's two
// records (old's and now's runInputs).
func causes(c Change, old, now runInputs) []Cause {
	var out []Cause
	switch {
	case c.Params != "":
		out = append(out, Cause{"config", "its parameters: " + c.Params})
	case c.What == "new cell":
		out = append(out, Cause{"config", "the grid has a cell it did not have"})
	case c.What == "missing in new":
		out = append(out, Cause{"config", "the grid no longer has the cell"})
	}
	if old.known && now.known && old.ConfigSHA256 != now.ConfigSHA256 {
		out = append(out, Cause{"config", fmt.Sprintf("the config file changed (SHA-256 %.8s → %.8s)", old.ConfigSHA256, now.ConfigSHA256)})
	}
	codeKnown := c.oldCode != "" && c.newCode != ""
	if codeKnown && c.oldCode != c.newCode {
		out = append(out, Cause{"code", fmt.Sprintf("code fingerprint %.8s → %.8s", c.oldCode, c.newCode)})
	}
	if old.known && now.known && old.Backend != now.Backend && old.Backend != "" && now.Backend != "" {
		out = append(out, Cause{"code", "linear-algebra backend " + old.Backend + " → " + now.Backend})
	}
	if old.known && now.known {
		if files := changedFiles(old.Data, now.Data); len(files) > 0 {
			text := strings.Join(files[:min(len(files), shownFiles)], ", ")
			if len(files) > shownFiles {
				text += fmt.Sprintf(" and %d more", len(files)-shownFiles)
			}
			out = append(out, Cause{"data", text})
		}
	}
	if len(out) > 0 || c.What == "new cell" || c.What == "missing in new" {
		return out
	}
	provKnown := old.known && now.known
	switch {
	case !provKnown && !codeKnown:
		return []Cause{{"unknown", "one side records neither its config's and data's hashes (no manifest.json or provenance.json) nor code fingerprints"}}
	case !provKnown:
		return []Cause{{"unknown", "the code fingerprint is the same; one side does not record its config's and data's hashes (no manifest.json or provenance.json)"}}
	case !codeKnown:
		return []Cause{{"unknown", "the config file and data are the same; one side's records have no code fingerprint"}}
	}
	return []Cause{{"none", "the same config file, code and data files on both sides: the computation itself differs (threads, machine)"}}
}

// changedFiles lists the data files whose SHA-256 differs between two
// runs, or that one read and the other did not.
func changedFiles(old, now []FileSum) []string {
	a, b := map[string]string{}, map[string]string{}
	for _, f := range old {
		a[f.Path] = f.SHA256
	}
	for _, f := range now {
		b[f.Path] = f.SHA256
	}
	var out []string
	for p, s := range a {
		switch t, ok := b[p]; {
		case !ok:
			out = append(out, p+" (not read now)")
		case t != s:
			out = append(out, p+fmt.Sprintf(" (SHA-256 %.8s → %.8s)", s, t))
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, p+" (read now only)")
		}
	}
	slices.Sort(out)
	return out
}

// metricMoved reports whether a metric changed from old to new beyond the
// tolerance; see [CompareOptions].
func metricMoved(was, now float64, o CompareOptions) bool {
	if was == now || (math.IsNaN(was) && math.IsNaN(now)) {
		return false
	}
	// When either is non-finite they differ here; the tolerance test
	// alone would pass +Inf against a finite value (Inf > Inf is false when
	// RelTol > 0), so decide first.
	if math.IsNaN(was) || math.IsNaN(now) || math.IsInf(was, 0) || math.IsInf(now, 0) {
		return true
	}
	return math.Abs(now-was) > o.AbsTol+o.RelTol*math.Abs(was)
}

// readClaimsByID maps claim ids in dir/claims.json to their verdicts; a
// missing file is no claims.
func readClaimsByID(dir string) (map[string]string, error) {
	cl, _, err := readClaims(dir)
	if err != nil {
		return nil, err
	}
	m := make(map[string]string, len(cl))
	for _, c := range cl {
		if _, dup := m[c.ID]; dup {
			return nil, fmt.Errorf("report: %s: claim %q appears twice", filepath.Join(dir, "claims.json"), c.ID)
		}
		m[c.ID] = c.Status
	}
	return m, nil
}

// maxManifestBytes bounds a manifest.json read back (kilobytes).
const maxManifestBytes = 64 << 20
