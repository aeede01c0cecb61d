package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/safefs"
)

// Shard selects a deterministic 1/Count of a config's cells: those whose
// number is Index modulo Count. Index runs from 0 to Count−1, as Slurm
// array task ids (--array=0-N) and Kubernetes completion indexes do. A
// cell's number is its grid index for a config's own shards; a suite's
// shards give each config Numbers, the suite-wide number of each of its
// cells by grid index: the distinct cell keys of all configs numbered one
// after another, a key shared by several configs with the number of its
// first, so that a suite of many small configs spreads evenly over the
// tasks and the cells several configs share fall in one task, whose pool
// computes them once. Merge finds cells by key, so it needs neither.
type Shard struct {
	Index, Count int
	Numbers      []int
}

// ParseShard reads "i/n".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("--shard %q: want i/n with 0 ≤ i < n (e.g. 0/4)", s)
	}
	return Shard{Index: i, Count: n}, nil
}

// Active reports whether the shard selects anything less than everything.
func (s Shard) Active() bool { return s.Count > 1 }

// selection returns, for each cell by grid index, which of its units the
// shard runs (one entry for a cell computed whole, one per part for a
// cell computed in parts), nil where it runs none. A cell's units are
// numbered from its number on (one number for a cell computed whole or
// in several stages, one per part for a cell in one stage: Cell.numbered),
// the cells one after another in grid order, or from Numbers.
func (s Shard) selection(cells []*Cell) [][]bool {
	out := make([][]bool, len(cells))
	next := 0
	for _, cell := range cells {
		first := next
		if s.Numbers != nil {
			first = s.Numbers[cell.Index]
		}
		next += cell.numbered()
		sel := make([]bool, max(cell.parts(), 1))
		in := false
		for k := range sel {
			n := first
			if cell.numbered() > 1 {
				n += k
			}
			sel[k] = !s.Active() || n%s.Count == s.Index
			in = in || sel[k]
		}
		if in {
			out[cell.Index] = sel
		}
	}
	return out
}

// Numbered is how many shard numbers a cell takes (Shard.Numbers): one
// per part of a cell computed in one stage of parts, else one.
func Numbered(cell *Cell) int { return cell.numbered() }

func (s Shard) file(dir string) string {
	return filepath.Join(dir, "shards", fmt.Sprintf("shard-%d-of-%d.jsonl", s.Index, s.Count))
}

// shardFormat changes when the layout of shard provenance changes.
const shardFormat = "runexp-shard/1"

// shardProvenance is what a shard's records were computed from, written
// beside them (shard-i-of-n.provenance.json) so merge can refuse shards of
// another config, code or data.
type shardProvenance struct {
	Format       string           `json:"format"`
	Shard        string           `json:"shard"`
	Config       string           `json:"config"`
	ConfigSHA256 string           `json:"config_sha256"`
	Code         string           `json:"code"`
	Data         []report.FileSum `json:"data"`
	// Records is the SHA-256 of the shard's records file, so a records
	// file from another run next to this provenance is caught.
	Records string `json:"records_sha256"`
	// With is the estimators added on the command line (runexp --with):
	// the config file hash does not cover them.
	With []report.WithSpec `json:"with,omitempty"`
	// Build and External split Code (PlanFingerprint): when Code differs
	// at merge, they say whether runexp was rebuilt or an external
	// estimator's command or script changed. Absent in shards written
	// before them.
	Build    string            `json:"code_without_external,omitempty"`
	External map[string]string `json:"external,omitempty"`
	// Numbering is "suite" for the shard of a suite's split (runexp
	// suite --shard), whose cells are numbered across the suite's
	// configs (Numbers, by grid index), and absent for a config's own
	// split, numbered by grid index: merge checks that every record a
	// shard holds is of a cell that shard was to compute.
	Numbering string `json:"numbering,omitempty"`
	Numbers   []int  `json:"numbers,omitempty"`
}

func provenanceFile(records string) string {
	return strings.TrimSuffix(records, ".jsonl") + ".provenance.json"
}

// PlanCode fingerprints the code that computes a config's cells: the
// kind's, the dataset's and every estimator's, with their versions, and
// the BLAS/LAPACK backend (shards of the two builds are not merged).
func PlanCode(c *config.Config, k *Kind, cells []*Cell) (string, error) {
	fp, err := PlanFingerprints(c, k, cells)
	return fp.Code, err
}

// PlanFingerprint is what a shard's provenance records of the code behind
// a config's cells: the whole fingerprint, and its two halves apart, so
// that merge can say which one changed — runexp's own code (another
// build) or what an external estimator runs (its command line and
// scripts, methods.ExternalFingerprint), which changes without any
// rebuild when a script is edited.
type PlanFingerprint struct {
	// Code is PlanCode: everything, external estimators included.
	Code string
	// Build is the same without the external estimators' fingerprints.
	Build string
	// External maps the label of each external estimator in the plan to
	// its methods.ExternalFingerprint; nil when there is none.
	External map[string]string
}

// PlanFingerprints returns the fingerprints of the code behind a config's
// cells; see [PlanFingerprint].
func PlanFingerprints(c *config.Config, k *Kind, cells []*Cell) (PlanFingerprint, error) {
	seen := map[string]bool{}
	build := map[string]bool{}
	var fp PlanFingerprint
	for _, cell := range cells {
		key, err := NewCellKey(c, k, cell)
		if err != nil {
			return PlanFingerprint{}, err
		}
		kind := strings.Join([]string{key.Format, key.Backend, key.Kind, key.KindVersion, key.KindCode, key.Dataset, key.DatasetCode}, "|")
		seen[kind], build[kind] = true, true
		seen[strings.Join([]string{key.Method, key.MethodVersion, key.MethodCode, key.MethodExternal}, "|")] = true
		build[strings.Join([]string{key.Method, key.MethodVersion, key.MethodCode}, "|")] = true
		if key.MethodExternal != "" {
			if fp.External == nil {
				fp.External = map[string]string{}
			}
			fp.External[cell.Method.Label] = key.MethodExternal
		}
	}
	fp.Code, fp.Build = hashParts(seen), hashParts(build)
	return fp, nil
}

// hashParts is the SHA-256 of the sorted parts, one a line.
func hashParts(set map[string]bool) string {
	parts := make([]string, 0, len(set))
	for p := range set {
		parts = append(parts, p)
	}
	sort.Strings(parts)
	h := sha256.Sum256([]byte(strings.Join(parts, "\n")))
	return hex.EncodeToString(h[:])
}

// writeShard writes a shard's records and then their provenance.
func writeShard(file string, c *config.Config, s Shard, fp PlanFingerprint, with []report.WithSpec, data []report.FileSum, recs []report.Record) error {
	if err := report.WriteJSONL(file, recs); err != nil {
		return err
	}
	sum, err := recordsSum(file)
	if err != nil {
		return err
	}
	if data == nil {
		data = []report.FileSum{}
	}
	p := shardProvenance{Format: shardFormat, Shard: fmt.Sprintf("%d/%d", s.Index, s.Count), Config: c.File,
		ConfigSHA256: c.SHA256, Code: fp.Code, Data: data, Records: sum, With: with,
		Build: fp.Build, External: fp.External}
	if s.Numbers != nil {
		p.Numbering, p.Numbers = "suite", s.Numbers
	}
	out, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	return report.WriteFileAtomic(provenanceFile(file), append(out, '\n'))
}

// Merge reads every shard file of a config's result directory and returns
// the records of all cells in grid order, with the data files the shards
// read; a cell computed in parts whose parts landed in different shards
// has no record there but its parts' records, in part order, in parts
// (by grid index), for the caller to combine (MergeShards). It fails, naming the shards, when a cell is missing, the shard
// files disagree on the shard count, a shard has no provenance, or the
// shards disagree with each other or with c, fp and with (the config's
// file hash, PlanFingerprints and the --with estimators) on the config, the
// code, the added estimators or a data file's content. A code mismatch
// says whether runexp was rebuilt or an external estimator's command or
// script changed, when the shards' provenance tells.
//
// Every record must be of a cell of the plan (whole, or one of its
// parts), appear once across the shards, and lie in the shard that was to
// compute its unit: a record copied into another shard (its provenance's
// checksum updated) is refused, not merged over the real one. numbers is
// the suite-wide numbering of a suite merge (Shard.Numbers), nil for a
// config's merge.
func Merge(dir string, c *config.Config, cells []*Cell, fp PlanFingerprint, with []report.WithSpec, numbers []int) ([]report.Record, map[int][]report.Record, []report.FileSum, error) {
	files, err := filepath.Glob(filepath.Join(dir, "shards", "shard-*-of-*.jsonl"))
	if err != nil {
		return nil, nil, nil, err
	}
	if len(files) == 0 {
		return nil, nil, nil, fmt.Errorf("no shard files in %s: run the shards first (runexp --shard i/n %s)", filepath.Join(dir, "shards"), c.File)
	}
	sort.Strings(files)
	counts := map[int]bool{}
	data := map[string]string{}
	dataFrom := map[string]string{}
	var first *shardProvenance
	var firstName string
	var shards []shardFile
	for _, f := range files {
		var i, n int
		if _, err := fmt.Sscanf(filepath.Base(f), "shard-%d-of-%d.jsonl", &i, &n); err != nil {
			return nil, nil, nil, fmt.Errorf("unexpected shard file name %s", f)
		}
		counts[n] = true
		name := filepath.Base(f)
		p, err := readProvenance(f)
		if err != nil {
			return nil, nil, nil, err
		}
		if first == nil {
			first, firstName = p, name
		}
		if err := agree(firstName, first, name, p, filepath.Join(dir, "shards")); err != nil {
			return nil, nil, nil, err
		}
		for _, d := range p.Data {
			if prev, ok := data[d.Path]; ok && prev != d.SHA256 {
				return nil, nil, nil, fmt.Errorf("shards disagree on the data: %s read %s with SHA-256 %.12s, %s with %.12s; rerun the shards on one data root", dataFrom[d.Path], d.Path, prev, name, d.SHA256)
			}
			data[d.Path], dataFrom[d.Path] = d.SHA256, name
		}
		shards = append(shards, shardFile{path: f, name: name, i: i, n: n, p: p})
	}
	if len(counts) > 1 {
		return nil, nil, nil, fmt.Errorf("%s holds shards of different counts; remove the stale ones", filepath.Join(dir, "shards"))
	}
	if first.ConfigSHA256 != c.SHA256 {
		return nil, nil, nil, fmt.Errorf("the shards in %s were run with %s at SHA-256 %.12s, but %s now has SHA-256 %.12s: the config changed since; rerun the shards",
			filepath.Join(dir, "shards"), first.Config, first.ConfigSHA256, c.File, c.SHA256)
	}
	// Before the code: added estimators change the plan's code too, and
	// "another build" would be the wrong advice.
	if withKey(first.With) != withKey(with) {
		return nil, nil, nil, fmt.Errorf("the shards in %s were run with %s, this merge has %s: merge with the same --with flags the shards had",
			filepath.Join(dir, "shards"), withWords(first.With), withWords(with))
	}
	if first.Code != fp.Code {
		return nil, nil, nil, codeChanged(filepath.Join(dir, "shards"), first, fp)
	}
	// The records last: a shard of another build or config is refused
	// for that first, not for the records it holds.
	byKey, err := readShards(shards, cells, numbers)
	if err != nil {
		return nil, nil, nil, err
	}
	out, parts, err := inGridOrder(cells, byKey)
	if err != nil {
		return nil, nil, nil, err
	}
	var sums []report.FileSum
	for p, s := range data {
		sums = append(sums, report.FileSum{Path: p, SHA256: s})
	}
	sort.Slice(sums, func(i, j int) bool { return sums[i].Path < sums[j].Path })
	return out, parts, sums, nil
}

// shardFile is a shard's records file, its place in the split and its
// provenance.
type shardFile struct {
	path, name string
	i, n       int
	p          *shardProvenance
}

// readShards reads the records of every shard, one at a time, by key,
// refusing any that is not of a cell of the plan, is recorded twice or
// lies in another shard than its cell's (owners).
func readShards(shards []shardFile, cells []*Cell, numbers []int) (map[string]report.Record, error) {
	own := &owners{cells: map[string]*Cell{}, from: map[string]string{}, numbers: numbers}
	for _, cell := range cells {
		own.cells[cell.Key] = cell
	}
	byKey := map[string]report.Record{}
	for _, s := range shards {
		nums, err := own.numbering(s.name, s.p, cells)
		if err != nil {
			return nil, err
		}
		err = report.EachRecord(s.path, func(line int, r *report.Record) error {
			if err := own.check(s.path, line, r.Key, s.i, s.n, nums); err != nil {
				return err
			}
			byKey[r.Key] = *r
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading a shard: %w", err)
		}
	}
	return byKey, nil
}

// owners checks that each record of a merge is of a cell of the plan,
// recorded once, by the shard that was to compute it.
type owners struct {
	cells   map[string]*Cell
	from    map[string]string // key → "file:line" of its record
	numbers []int             // a suite merge's numbering, or nil
}

// numbering returns the first unit number of each cell by grid index
// that the shard name with provenance p was split by (Shard.selection):
// a config's own split numbers the units of its cells one after another;
// a suite's gives its numbering, the merge's own (which must be the one
// the shard recorded) or, merging one config of a suite's split, the one
// the shard recorded.
func (o *owners) numbering(name string, p *shardProvenance, cells []*Cell) ([]int, error) {
	if p.Numbering == "" {
		nums := make([]int, len(cells))
		next := 0
		for _, cell := range cells {
			nums[cell.Index] = next
			next += cell.numbered()
		}
		return nums, nil
	}
	if p.Numbering != "suite" || len(p.Numbers) != len(cells) {
		return nil, fmt.Errorf("%s: its provenance gives a numbering of %d cells by %q, this config has %d cells; rerun that shard", name, len(p.Numbers), p.Numbering, len(cells))
	}
	if o.numbers != nil && !slices.Equal(o.numbers, p.Numbers) {
		return nil, fmt.Errorf("%s was split over another list of configs than this merge's (the suite numbers its cells across its configs): merge with the configs and --only globs the shards ran with, or rerun them", name)
	}
	return p.Numbers, nil
}

// check refuses the record of key at file:line of shard i of n (each
// cell's first unit number in nums) when key is neither a cell of the
// plan nor one of its parts, was recorded already, or belongs to another
// shard: a part's unit to the shard of its number, a cell's whole record
// to the shard of every unit of it (a cell computed in parts is recorded
// whole only where all its parts ran).
func (o *owners) check(file string, line int, key string, i, n int, nums []int) error {
	at := fmt.Sprintf("%s:%d", file, line)
	cellKey, k, parts, isPart := partOfKey(key)
	if !isPart {
		cellKey, k = key, -1
	}
	cell, ok := o.cells[cellKey]
	if !ok || isPart && (parts != cell.parts() || k < 0 || k >= parts) {
		return fmt.Errorf("%s: a record of cell %q, which is not a cell of this config's grid: the shard is of another config or was edited; rerun it", at, key)
	}
	first := nums[cell.Index]
	units := []int{first}
	switch {
	case cell.numbered() > 1 && isPart:
		units = []int{first + k}
	case cell.numbered() > 1:
		units = units[:0]
		for u := range cell.numbered() {
			units = append(units, first+u)
		}
	}
	for _, u := range units {
		if u%n != i {
			return fmt.Errorf("%s: cell %q is shard %d's of %d, not this shard's: a record was copied between shards; rerun the shards", at, key, u%n, n)
		}
	}
	if prev, dup := o.from[key]; dup {
		return fmt.Errorf("%s: cell %q is recorded a second time (first at %s): a shard was edited or copied; rerun the shards", at, key, prev)
	}
	o.from[key] = at
	return nil
}

// agree refuses a shard, name with provenance p, that another, firstName
// with first, contradicts: another config, other added estimators or
// another build (or external estimator) of the code.
func agree(firstName string, first *shardProvenance, name string, p *shardProvenance, shards string) error {
	switch {
	case p.ConfigSHA256 != first.ConfigSHA256:
		return fmt.Errorf("shards disagree on the config: %s ran %s (SHA-256 %.12s), %s ran %s (SHA-256 %.12s); rerun the shards of one config (remove %s)",
			firstName, first.Config, first.ConfigSHA256, name, p.Config, p.ConfigSHA256, shards)
	case withKey(p.With) != withKey(first.With):
		return fmt.Errorf("shards disagree on the added estimators: %s was run with %s, %s with %s; rerun the shards with one set of --with (remove %s)",
			firstName, withWords(first.With), name, withWords(p.With), shards)
	case p.Code != first.Code:
		if ext := externalChanged(first.External, p.External, p.With); ext != "" && p.Build != "" && p.Build == first.Build {
			return fmt.Errorf("shards disagree on the code: %s and %s ran different versions of the external estimator %s (its command or script changed between them); rerun them with one version", firstName, name, ext)
		}
		return fmt.Errorf("shards disagree on the code: %s and %s were computed by different builds of runexp; rerun them with one build", firstName, name)
	}
	return nil
}

// inGridOrder returns the record of every cell, in grid order, and the
// parts' records of the cells computed in parts that have none; a cell
// no shard recorded whole or in every part is an error.
func inGridOrder(cells []*Cell, byKey map[string]report.Record) ([]report.Record, map[int][]report.Record, error) {
	out := make([]report.Record, len(cells))
	parts := map[int][]report.Record{}
	var missing []string
	for i, cell := range cells {
		if r, ok := byKey[cell.Key]; ok {
			out[i] = r
			continue
		}
		n := cell.parts()
		ps := make([]report.Record, n)
		for k := range ps {
			r, ok := byKey[UnitKey(cell.Key, k, n)]
			if !ok {
				ps = nil
				break
			}
			ps[k] = r
		}
		if n == 0 || ps == nil {
			missing = append(missing, cell.Key)
			continue
		}
		parts[i] = ps
	}
	if len(missing) > 0 {
		return nil, nil, fmt.Errorf("%d of %d cells have no shard record (first: %s); run the missing shards", len(missing), len(cells), missing[0])
	}
	return out, parts, nil
}

// codeChanged is the error of shards whose code fingerprint is not the
// merge's: an external estimator's command or script changed (nothing
// to do with the binary: the script was edited after the shards ran),
// runexp was rebuilt, or both. Shards written before provenance split
// the fingerprint can only be told "another build".
func codeChanged(shards string, p *shardProvenance, fp PlanFingerprint) error {
	ext := externalChanged(p.External, fp.External, p.With)
	if p.Build == "" || ext == "" {
		return fmt.Errorf("the shards in %s were computed by another build of runexp (code fingerprint %.12s, this one %.12s); merge with the binary that ran them, or rerun the shards",
			shards, p.Code, fp.Code)
	}
	what := fmt.Sprintf("the external estimator %s changed its command or script since the shards ran", ext)
	if p.Build != fp.Build {
		return fmt.Errorf("the shards in %s were computed by another build of runexp, and %s; rerun the shards", shards, what)
	}
	return fmt.Errorf("the shards in %s cannot be merged: %s; restore the script they ran, or rerun the shards", shards, what)
}

// externalChanged names the external estimators whose fingerprint
// differs between was and now (present on one side only included), in
// sorted order, each by its label and, when --with added it, its SPEC;
// "" when none does.
func externalChanged(was, now map[string]string, with []report.WithSpec) string {
	var moved []string
	for l, f := range was {
		if g, ok := now[l]; !ok || g != f {
			moved = append(moved, l)
		}
	}
	for l := range now {
		if _, ok := was[l]; !ok {
			moved = append(moved, l)
		}
	}
	sort.Strings(moved)
	for i, l := range moved {
		moved[i] = strconv.Quote(l)
		for _, w := range with {
			if w.Label == l && w.Skipped == "" {
				moved[i] += " (--with " + strconv.Quote(w.Spec) + ")"
			}
		}
	}
	return strings.Join(moved, ", ")
}

// readProvenance reads and checks the provenance of the shard records file f.
func readProvenance(f string) (*shardProvenance, error) {
	pf := provenanceFile(f)
	b, err := safefs.ReadFile(pf, report.MaxJSONBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s has no provenance (%s): it was written by an older runexp or its run was killed; rerun that shard", filepath.Base(f), filepath.Base(pf))
	}
	if err != nil {
		return nil, err
	}
	var p shardProvenance
	if err := json.Unmarshal(b, &p); err != nil || p.Format != shardFormat {
		return nil, fmt.Errorf("%s is not a %s provenance file; rerun that shard", pf, shardFormat)
	}
	sum, err := recordsSum(f)
	if err != nil {
		return nil, fmt.Errorf("reading a shard: %w", err)
	}
	if sum != p.Records {
		return nil, fmt.Errorf("%s does not hold the records its provenance describes (edited, or left from another run); rerun that shard", f)
	}
	return &p, nil
}

// recordsSum is the hex SHA-256 of a records file, read as
// report.ReadJSONL reads one: a regular file of at most
// report.MaxRecordsBytes.
func recordsSum(path string) (string, error) {
	f, fi, err := safefs.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if fi.Size() > report.MaxRecordsBytes {
		return "", &safefs.TooLargeError{Path: path, What: "the records file", Size: fi.Size(), Limit: report.MaxRecordsBytes}
	}
	h := sha256.New()
	if _, err := io.Copy(h, safefs.Limit(f, path, report.MaxRecordsBytes)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkMergedData compares the data files the shards read with those the
// merge itself read (the same root must serve both).
func checkMergedData(shards, now []report.FileSum) error {
	m := map[string]string{}
	for _, d := range now {
		m[d.Path] = d.SHA256
	}
	for _, d := range shards {
		if s, ok := m[d.Path]; ok && s != d.SHA256 {
			return fmt.Errorf("the shards read %s with SHA-256 %.12s, the data root now has %.12s; rerun the shards on this data", d.Path, d.SHA256, s)
		}
	}
	return nil
}

// withKey is a canonical form of the added estimators for comparison: the
// JSON of the list, after a round trip, so that an integer parameter read
// back from a provenance file (a float64) equals the one bound from the
// command line.
func withKey(with []report.WithSpec) string {
	if len(with) == 0 {
		return ""
	}
	b, err := json.Marshal(with)
	if err != nil {
		return fmt.Sprint(with)
	}
	var back []report.WithSpec
	if err := json.Unmarshal(b, &back); err != nil {
		return string(b)
	}
	if b, err = json.Marshal(back); err != nil {
		return fmt.Sprint(with)
	}
	return string(b)
}

// withWords names the added estimators for a message.
func withWords(with []report.WithSpec) string {
	if len(with) == 0 {
		return "no --with"
	}
	var w []string
	for _, s := range with {
		w = append(w, "--with "+strconv.Quote(s.Spec))
	}
	return strings.Join(w, " ")
}
