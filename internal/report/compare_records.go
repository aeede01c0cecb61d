package report

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/safefs"
)

// Comparing two records files keeps neither in memory: each is indexed
// (recordIndex), 16 bytes a record — the hash of its key and where its
// line is — and the two indexes are walked in hash order, reading back
// the lines of one key at a time. Two lines with the same bytes are equal
// without decoding them. At the bounds of a records file (MaxRecords, 4 M
// records) that is 64 MiB an index, where decoding every record of both
// files took 4.6 GB for 4 M small ones.

// recordLine is one record of an indexed file: the hash of its key, and
// its line's offset (high 32 bits) and length (low 32 bits; MaxRecordLine
// and MaxRecordsBytes fit).
type recordLine struct {
	h   uint64
	pos uint64
}

func (l recordLine) off() int64 { return int64(l.pos >> 32) }
func (l recordLine) n() int     { return int(l.pos & math.MaxUint32) }

// recordIndex is a records file open for reading back, indexed by key.
type recordIndex struct {
	path  string
	f     *os.File
	lines []recordLine // sorted by hash, then offset
	buf   []byte
}

// openRecordIndex indexes the records file at path, which must lie inside
// root (safefs.OpenIn), checking every record as ReadJSONL does. The
// caller closes it.
func openRecordIndex(root, path string, seed maphash.Seed, labels *labelSet) (*recordIndex, error) {
	f, fi, err := safefs.OpenIn(root, path)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	if fi.Size() > MaxRecordsBytes {
		f.Close()
		return nil, fmt.Errorf("report: %w", &safefs.TooLargeError{Path: path, What: "the records file", Size: fi.Size(), Limit: MaxRecordsBytes})
	}
	ix := &recordIndex{path: path, f: f}
	err = safefs.LinesAt(safefs.Limit(f, path, MaxRecordsBytes), path, MaxRecordLine, MaxRecords, func(line int, off int64, b []byte) error {
		if len(bytes.TrimSpace(b)) == 0 {
			return nil
		}
		var rec Record
		if err := json.Unmarshal(b, &rec); err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
		ix.lines = append(ix.lines, recordLine{h: maphash.String(seed, rec.Key), pos: uint64(off)<<32 | uint64(len(b))})
		labels.add(rec.Params)
		return nil
	})
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("report: %w", err)
	}
	ix.lines = slices.Clip(ix.lines)
	slices.SortFunc(ix.lines, func(a, b recordLine) int { return cmp.Or(cmp.Compare(a.h, b.h), cmp.Compare(a.pos, b.pos)) })
	return ix, nil
}

func (ix *recordIndex) Close() error { return ix.f.Close() }

// line reads back the bytes of l, valid until the next call.
func (ix *recordIndex) line(l recordLine) ([]byte, error) {
	if cap(ix.buf) < l.n() {
		ix.buf = make([]byte, l.n())
	}
	b := ix.buf[:l.n()]
	if _, err := ix.f.ReadAt(b, l.off()); err != nil && err != io.EOF {
		return nil, fmt.Errorf("report: %s: %w", ix.path, err)
	}
	return b, nil
}

// record decodes l.
func (ix *recordIndex) record(l recordLine) (*Record, error) {
	b, err := ix.line(l)
	if err != nil {
		return nil, err
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("report: %s: %w", ix.path, err)
	}
	return &r, nil
}

// group decodes the records of ls, one hash's lines, by key; a key twice
// is an error.
func (ix *recordIndex) group(ls []recordLine) (map[string]*Record, error) {
	out := make(map[string]*Record, len(ls))
	for _, l := range ls {
		r, err := ix.record(l)
		if err != nil {
			return nil, err
		}
		if _, dup := out[r.Key]; dup {
			return nil, fmt.Errorf("report: %s: key %q appears twice", ix.path, r.Key)
		}
		out[r.Key] = r
	}
	return out, nil
}

// changeFunc adds one change of a cell (its Config set by the caller).
type changeFunc func(Change)

// compareRecordFiles compares the records files of two run folders
// (oldDir and newDir, each file read inside its folder) and reports each
// difference to add.
func compareRecordFiles(oldDir, newDir string, o CompareOptions, add changeFunc) error {
	seed := maphash.MakeSeed()
	// The cells' short labels (CellLabels) over both sides' records,
	// gathered while indexing.
	var labels labelSet
	old, err := openRecordIndex(oldDir, joinRecords(oldDir), seed, &labels)
	if err != nil {
		return err
	}
	defer old.Close()
	nw, err := openRecordIndex(newDir, joinRecords(newDir), seed, &labels)
	if err != nil {
		return err
	}
	defer nw.Close()
	keys := labels.keys()
	a, b := old.lines, nw.lines
	var u unmatched
	for len(a) > 0 || len(b) > 0 {
		h := uint64(math.MaxUint64)
		if len(a) > 0 {
			h = a[0].h
		}
		if len(b) > 0 && (len(a) == 0 || b[0].h < h) {
			h = b[0].h
		}
		i, j := hashRun(a, h), hashRun(b, h)
		if err := compareGroup(old, nw, a[:i], b[:j], o, keys, &u, add); err != nil {
			return err
		}
		a, b = a[i:], b[j:]
	}
	u.pair(o, keys, add)
	return nil
}

// hashRun is the length of ls's leading run of lines with hash h.
func hashRun(ls []recordLine, h uint64) int {
	n := 0
	for n < len(ls) && ls[n].h == h {
		n++
	}
	return n
}

// compareGroup compares the old and new records of one key hash (almost
// always one of each, or one on one side).
func compareGroup(old, nw *recordIndex, a, b []recordLine, o CompareOptions, keys []string, u *unmatched, add changeFunc) error {
	if len(a) == 1 && len(b) == 1 {
		x, err := old.line(a[0])
		if err != nil {
			return err
		}
		y, err := nw.line(b[0])
		if err != nil {
			return err
		}
		if bytes.Equal(x, y) {
			return nil
		}
	}
	ga, err := old.group(a)
	if err != nil {
		return err
	}
	gb, err := nw.group(b)
	if err != nil {
		return err
	}
	for key, or := range ga {
		nr, ok := gb[key]
		if !ok {
			u.addOld(or, keys, add)
			continue
		}
		label := cellLabel(nr.Params, keys)
		recordChanges(or, nr, o, func(c Change) {
			c.Key, c.Cell = key, label
			c.oldCode, c.newCode = or.Code, nr.Code
			add(c)
		})
	}
	for key, nr := range gb {
		if _, ok := ga[key]; !ok {
			u.addNew(nr, keys, add)
		}
	}
	return nil
}

// A parameter edited in a config's grid (a method's tol 1e-9 → 1e-8)
// changes the keys of its cells: the old records have no new record of
// their key, nor the new ones an old one. Compared by key they are a
// cell lost and a cell gained, unrelated. unmatched keeps them (up to
// maxUnmatched a side) and pairs each new cell with its former self:
// the one old cell whose parameters differ from its own in the fewest
// (at most maxPairedParams, the method's label only alone), when that
// old cell has no other new cell as near. A pair is compared as one
// cell under its parameters' change.
type unmatched struct {
	old, new []*Record
}

// maxUnmatched bounds the records kept a side for pairing; beyond it
// cells are reported unpaired.
const maxUnmatched = 1 << 16

// maxPairedParams is the most parameters a pair may differ in;
// maxPairings the most cells compared for pairing (new × old).
const (
	maxPairedParams = 3
	maxPairings     = 1 << 24
)

func (u *unmatched) addOld(r *Record, keys []string, add changeFunc) {
	if len(u.old) < maxUnmatched {
		u.old = append(u.old, r)
		return
	}
	add(missingChange(r, keys))
}

func (u *unmatched) addNew(r *Record, keys []string, add changeFunc) {
	if len(u.new) < maxUnmatched {
		u.new = append(u.new, r)
		return
	}
	add(newCellChange(r, keys))
}

func missingChange(r *Record, keys []string) Change {
	return Change{Key: r.Key, Cell: cellLabel(r.Params, keys), What: "missing in new", Old: r.Status, New: absent, oldCode: r.Code}
}

func newCellChange(r *Record, keys []string) Change {
	return Change{Key: r.Key, Cell: cellLabel(r.Params, keys), What: "new cell", Old: absent, New: r.Status, newCode: r.Code}
}

// pair reports the kept records: each pair as one cell (a "params"
// change, then its record's changes), the others as lost or gained.
func (u *unmatched) pair(o CompareOptions, keys []string, add changeFunc) {
	slices.SortFunc(u.old, func(a, b *Record) int { return cmp.Compare(a.Key, b.Key) })
	slices.SortFunc(u.new, func(a, b *Record) int { return cmp.Compare(a.Key, b.Key) })
	ov := make([]map[string]string, len(u.old))
	for i, r := range u.old {
		ov[i] = labelValues(r.Params)
	}
	nv := make([]map[string]string, len(u.new))
	for i, r := range u.new {
		nv[i] = labelValues(r.Params)
	}
	// The nearest old cells of each new one, and the nearest new cells of
	// each old one.
	bestOld := make([][]int, len(u.new))
	bestNew := make([][]int, len(u.old))
	distOld := make([]int, len(u.new))
	distNew := make([]int, len(u.old))
	// Every new cell against every old one: bounded, beyond which the
	// cells are reported unpaired.
	tooMany := len(u.new)*len(u.old) > maxPairings
	for i := range u.new {
		for j := range u.old {
			if tooMany {
				break
			}
			names := ParamDiff(ov[j], nv[i])
			d := len(names)
			if d == 0 || d > maxPairedParams || slices.Contains(names, MethodParam) && d > 1 || !sameNames(ov[j], nv[i], names) {
				continue
			}
			if bestOld[i] == nil || d < distOld[i] {
				bestOld[i], distOld[i] = []int{j}, d
			} else if d == distOld[i] {
				bestOld[i] = append(bestOld[i], j)
			}
			if bestNew[j] == nil || d < distNew[j] {
				bestNew[j], distNew[j] = []int{i}, d
			} else if d == distNew[j] {
				bestNew[j] = append(bestNew[j], i)
			}
		}
	}
	paired := make([]bool, len(u.old))
	for i, nr := range u.new {
		if tooMany || len(bestOld[i]) != 1 || len(bestNew[bestOld[i][0]]) != 1 || bestNew[bestOld[i][0]][0] != i {
			add(newCellChange(nr, keys))
			continue
		}
		j := bestOld[i][0]
		or := u.old[j]
		paired[j] = true
		names := ParamDiff(ov[j], nv[i])
		var was, now, change []string
		for _, n := range names {
			a, b := orUnset(ov[j], n), orUnset(nv[i], n)
			was, now = append(was, n+"="+a), append(now, n+"="+b)
			change = append(change, n+" "+a+" → "+b)
		}
		// The label leaves out what the change says.
		rest := slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return slices.Contains(names, k) })
		pc := Change{Key: nr.Key, Was: or.Key, Cell: cellLabel(nr.Params, rest), Params: strings.Join(change, ", "), oldCode: or.Code, newCode: nr.Code}
		c := pc
		c.What, c.Old, c.New = "params", strings.Join(was, " "), strings.Join(now, " ")
		add(c)
		recordChanges(or, nr, o, func(c Change) {
			c.Key, c.Was, c.Cell, c.Params, c.oldCode, c.newCode = pc.Key, pc.Was, pc.Cell, pc.Params, pc.oldCode, pc.newCode
			add(c)
		})
	}
	for j, or := range u.old {
		if !paired[j] {
			add(missingChange(or, keys))
		}
	}
}

// sameNames reports whether both cells have each of the parameters
// names: a pair's parameters changed values, none came or went.
func sameNames(a, b map[string]string, names []string) bool {
	for _, n := range names {
		_, inA := a[n]
		_, inB := b[n]
		if !inA || !inB {
			return false
		}
	}
	return true
}

// labelValues writes a cell's parameters as labels show them.
func labelValues(p map[string]any) map[string]string {
	out := make(map[string]string, len(p))
	for k, v := range p {
		out[k] = labelValue(v)
	}
	return out
}

func orUnset(m map[string]string, k string) string {
	if v, ok := m[k]; ok {
		return v
	}
	return "unset"
}

// ParamDiff returns the names of the parameters whose values differ
// between a and b (one a side lacks included), sorted.
func ParamDiff(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// recordChanges reports what differs between the old and the new record
// of a cell (the caller sets each change's Key and Cell): status, error,
// failed rows and metrics, a metric's two values also as numbers (params
// are part of the key; seeds, arrays and the code fingerprint are not
// compared).
func recordChanges(or, nr *Record, o CompareOptions, add changeFunc) {
	if or.Status != nr.Status {
		add(Change{What: "status", Old: or.Status, New: nr.Status})
	}
	if or.Error != nr.Error {
		add(Change{What: "error", Old: or.Error, New: nr.Error})
	}
	if a, b := or.FailureCounts(), nr.FailureCounts(); a != b {
		add(Change{What: "failed rows", Old: orDash(a), New: orDash(b)})
	}
	for name, ov := range or.Metrics {
		nv, ok := nr.Metrics[name]
		switch {
		case !ok:
			add(Change{What: "metric " + name, Old: FormatFloat(ov, -1), New: absent, OldValue: finite(ov)})
		case metricMoved(ov, nv, o):
			add(Change{What: "metric " + name, Old: FormatFloat(ov, -1), New: FormatFloat(nv, -1), OldValue: finite(ov), NewValue: finite(nv)})
		}
	}
	for name, nv := range nr.Metrics {
		if _, ok := or.Metrics[name]; !ok {
			add(Change{What: "metric " + name, Old: absent, New: FormatFloat(nv, -1), NewValue: finite(nv)})
		}
	}
}

func joinRecords(dir string) string { return filepath.Join(dir, "records.jsonl") }
