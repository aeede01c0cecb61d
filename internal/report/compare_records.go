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
	for len(a) > 0 || len(b) > 0 {
		h := uint64(math.MaxUint64)
		if len(a) > 0 {
			h = a[0].h
		}
		if len(b) > 0 && (len(a) == 0 || b[0].h < h) {
			h = b[0].h
		}
		i, j := hashRun(a, h), hashRun(b, h)
		if err := compareGroup(old, nw, a[:i], b[:j], o, keys, add); err != nil {
			return err
		}
		a, b = a[i:], b[j:]
	}
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
func compareGroup(old, nw *recordIndex, a, b []recordLine, o CompareOptions, keys []string, add changeFunc) error {
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
			add(Change{Key: key, Cell: cellLabel(or.Params, keys), What: "missing in new", Old: or.Status, New: absent})
			continue
		}
		label := cellLabel(nr.Params, keys)
		recordChanges(or, nr, o, func(c Change) {
			c.Key, c.Cell = key, label
			add(c)
		})
	}
	for key, nr := range gb {
		if _, ok := ga[key]; !ok {
			add(Change{Key: key, Cell: cellLabel(nr.Params, keys), What: "new cell", Old: absent, New: nr.Status})
		}
	}
	return nil
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
