package runner

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"sync"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/linalg"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/safefs"
)

// cacheFormat changes when the layout of cached records or of the key
// changes (3: the key names the BLAS/LAPACK backend).
const cacheFormat = "runexp-cell-cache/3"

// CellKey is everything known before a run that determines a cell's
// record: the cache format, the experiment kind with its version and a
// fingerprint of its code, the dataset and its code, the estimator with
// its version and code, the BLAS/LAPACK backend the binary was built with,
// the config's context (dataset options, corruption, seed, experiment
// options but those the kind declares report-only, RegisterReportOnly) and
// the cell's canonical key.
//
// The backend is not in the code fingerprints: both builds embed the same
// sources (sources.go), but the OpenBLAS build computes with other code
// (OpenBLAS and LAPACKE, and LPKPCA's dense eigensolver instead of the
// top-d one), whose rounding moves ill-conditioned results (huang-fig6's
// Local Gram row at β = 1e-8 by 1.6e-7 relative). A cell computed by one
// build is therefore never served to the other.
//
// The content of the data files the cell reads is the other half of what
// determines a record. It is known only once they are read, so a cache
// entry lists them with their SHA-256 (Entry.Data), and Get checks each
// against the data root's SHA256SUMS, which every read verifies the file
// against: a replaced data file (with its checksum updated) recomputes
// every cell that read it. Derived data (model fits, GIST descriptors) is
// a function of that data and of the code, both covered.
type CellKey struct {
	Format        string `json:"format"`
	Kind          string `json:"kind"`
	KindVersion   string `json:"kind_version"`
	KindCode      string `json:"kind_code"`
	Dataset       string `json:"dataset"`
	DatasetCode   string `json:"dataset_code"`
	Method        string `json:"method,omitempty"`
	MethodVersion string `json:"method_version,omitempty"`
	MethodCode    string `json:"method_code,omitempty"`
	// MethodExternal fingerprints what an external estimator runs (its
	// command line and scripts, methods.ExternalFingerprint): code
	// outside the module, which MethodCode cannot see.
	MethodExternal string `json:"method_external,omitempty"`
	// Backend is linalg.Fingerprint(): "gonum", or OpenBLAS and its
	// threads per call ("openblas-1-thread").
	Backend string `json:"backend"`
	Context string `json:"context"`
	Cell    string `json:"cell"`
}

// NewCellKey returns the key of a cell of config c of kind k.
func NewCellKey(c *config.Config, k *Kind, cell *Cell) (CellKey, error) {
	key := CellKey{
		Format:      cacheFormat,
		Kind:        k.Name,
		KindVersion: versionOr1(k.Version),
		Dataset:     c.Dataset.Name,
		Backend:     linalg.Fingerprint(),
		Context:     cellContext(c, k),
		Cell:        cell.Key,
	}
	var err error
	if key.KindCode, err = CodeFingerprint(k.File); err != nil {
		return key, err
	}
	if ds, ok := LookupDataset(c.Dataset.Name); ok {
		if key.DatasetCode, err = CodeFingerprint(ds.File); err != nil {
			return key, err
		}
	}
	if m := cell.Method; m != nil {
		key.Method = m.Spec.Name
		key.MethodVersion = versionOr1(m.Spec.Version)
		if key.MethodCode, err = CodeFingerprint(m.Spec.File); err != nil {
			return key, err
		}
		if m.Spec.Name == "external" {
			if key.MethodExternal, err = methods.ExternalFingerprint(m.Params); err != nil {
				return key, err
			}
		}
	}
	return key, nil
}

// reportOnly holds the experiment options each kind declared report-only.
// It lives here, with the keys, rather than in Kind: it decides which
// records a key may share, never a record's values, and a field in Kind
// would change every kind's code fingerprint (code.go's bookkeeping).
var reportOnly struct {
	sync.RWMutex
	byKind map[string][]string
}

// RegisterReportOnly declares experiment options of kind that its cells'
// records do not depend on: they only choose what the report presents of a
// record (which of the recorded errors the tables, figures and claims
// read, through the instance's Present, or how a figure is drawn). The cell
// cache key leaves them out (cellContext), so configs that differ
// only in them share every cell. A kind may declare an option only if
// flipping it leaves every record its Run writes unchanged; its tests must
// show that (denoise's TestReportOnlyOptionsShareCells does). Call it from
// the kind's init, beside RegisterKind.
func RegisterReportOnly(kind string, options ...string) {
	reportOnly.Lock()
	defer reportOnly.Unlock()
	if reportOnly.byKind == nil {
		reportOnly.byKind = map[string][]string{}
	}
	reportOnly.byKind[kind] = append(reportOnly.byKind[kind], options...)
}

// ReportOnly returns the experiment options kind declared report-only.
func ReportOnly(kind string) []string {
	reportOnly.RLock()
	defer reportOnly.RUnlock()
	return append([]string(nil), reportOnly.byKind[kind]...)
}

// cellContext is the config's context (config.Context) without the
// experiment options kind k declared report-only: configs that differ only
// in them share their cells.
func cellContext(c *config.Config, k *Kind) string {
	skip := ReportOnly(k.Name)
	if len(skip) == 0 {
		return c.Context()
	}
	cc := *c
	cc.Experiment.Values = maps.Clone(c.Experiment.Values)
	for _, o := range skip {
		delete(cc.Experiment.Values, o)
	}
	return cc.Context()
}

// CodeFingerprint is the code part of the key, the fingerprint each
// record carries (report.Record.Code): the first 16 hex digits of the
// SHA-256 of the kind's, the dataset's and the estimator's names,
// versions and code fingerprints and of what an external estimator runs.
// Two records with the same code fingerprint were computed by the same
// code; the build's BLAS/LAPACK backend is in the manifest instead.
func (k CellKey) CodeFingerprint() string {
	h := sha256.New()
	for _, s := range []string{k.Kind, k.KindVersion, k.KindCode, k.Dataset, k.DatasetCode, k.Method, k.MethodVersion, k.MethodCode, k.MethodExternal} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Hash names the cache file of the key.
func (k CellKey) Hash() string {
	b, _ := json.Marshal(k) // a struct of strings always marshals
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// CellHash returns the cache key hash of a cell.
func CellHash(c *config.Config, k *Kind, cell *Cell) (string, error) {
	key, err := NewCellKey(c, k, cell)
	if err != nil {
		return "", err
	}
	return key.Hash(), nil
}

func versionOr1(v string) string {
	if v == "" {
		return "1"
	}
	return v
}

// cacheDir is the cell cache's folder: CacheDir, else OUT/.cache.
func (o Options) cacheDir() string {
	if o.CacheDir != "" {
		return o.CacheDir
	}
	root := o.OutRoot
	if root == "" {
		root = "results"
	}
	return filepath.Join(root, ".cache")
}

// checkCacheDir refuses a cache folder a run could not use, before any
// cell runs, as a dry run refuses it too: a path that is there but no
// folder (a file, a named pipe), or a link at its cells folder (refused
// now, status 2, not found when the first computed cell's entry cannot
// be written).
func checkCacheDir(cd string) error {
	if fi, err := os.Stat(cd); err == nil && !fi.IsDir() {
		return fmt.Errorf("cell cache: %s is %s, not a folder: name a folder with --cache, or run with --no-cache", cd, safefs.Kind(fi.Mode()))
	}
	if err := safefs.CheckUnder(cd, filepath.Join(cd, "cells")); err != nil {
		return fmt.Errorf("cell cache: %w", err)
	}
	return nil
}

// maxEntryBytes bounds a cache entry read back: a record (report's
// MaxRecordLine) and its key and data list.
const maxEntryBytes = report.MaxRecordLine + 1<<20

// Cache stores finished cells, one JSON file per cell, named by the hash
// of its CellKey. Each entry carries its full key, the data files the run
// had read with their SHA-256, the record, and a checksum of all three;
// Get verifies every part, so an entry edited by hand, damaged, moved
// under another cell's name or computed on other data is recomputed, never
// used. Failed cells are never stored, so re-running retries them; every
// file is written atomically, so a killed run leaves whole entries or
// none.
type Cache struct {
	Dir string
}

// entryBody is what an entry's checksum covers.
type entryBody struct {
	Key    CellKey          `json:"key"`
	Data   []report.FileSum `json:"data"`
	Record json.RawMessage  `json:"record"`
	// Loaded are the files an external estimator's process reported it
	// loaded for the cell (report.Record.Loaded), each with its SHA-256
	// then: Get recomputes the cell when one changed. Absent for cells
	// that ran no such estimator, so entries written before it verify.
	Loaded []report.FileSum `json:"loaded,omitempty"`
}

type entry struct {
	entryBody
	Sum string `json:"sum"`
	// Timing is how long the cell took when it was computed. It is
	// advisory (the pool runs the longest cells first, runexp suite
	// --predict reads it) and never part of a record, so the checksum
	// leaves it out: entries written before it verify as they did, and
	// a binary that does not know it ignores it.
	Timing *CellTime `json:"timing,omitempty"`
}

func (b *entryBody) sum() (string, error) {
	raw, err := json.Marshal(b)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(raw)
	return hex.EncodeToString(h[:]), nil
}

func (c *Cache) path(hash string) string {
	return filepath.Join(c.Dir, "cells", hash[:2], hash+".json")
}

// Rejected explains why an existing cache entry was not used.
type Rejected struct {
	File   string
	Reason string
	// Stale is true when the entry is sound but was computed from other
	// inputs (Why says which: "data", a data file; "external", a file
	// an external estimator loaded); false when it is damaged, edited or
	// misplaced.
	Stale bool
	Why   string
}

func (r *Rejected) Error() string { return r.File + ": " + r.Reason }

// Get returns the record cached for key. ok is false when there is no
// entry; rej is set when there is one that must not be used (and is
// recomputed). dataSum gives the current SHA-256 of a data file, from the
// data root's SHA256SUMS.
func (c *Cache) Get(key CellKey, dataSum func(path string) (string, bool)) (r report.Record, ok bool, rej *Rejected) {
	r, _, ok, rej = c.get(key, dataSum)
	return r, ok, rej
}

// get is Get that also returns the time recorded with a usable entry
// (nil when the entry has none: it was written before entries kept
// their time, or by Put).
func (c *Cache) get(key CellKey, dataSum func(path string) (string, bool)) (r report.Record, timing *CellTime, ok bool, rej *Rejected) {
	file := c.path(key.Hash())
	if safefs.CheckUnder(c.Dir, filepath.Dir(file)) != nil {
		return r, nil, false, nil // Put refuses the folder with its reason
	}
	b, err := safefs.ReadFile(file, maxEntryBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil, false, nil
	}
	if err != nil {
		return r, nil, false, &Rejected{File: file, Reason: err.Error()}
	}
	return decodeEntry(file, b, key, dataSum)
}

// decodeEntry is Get's reading of entry b, found in file, for key: every
// check a cache hit passes, the record, and the time the entry recorded.
// A pool serves a cell another config computed through it too (Pool), so
// that such a cell is exactly what a cache hit gives.
func decodeEntry(file string, b []byte, key CellKey, dataSum func(path string) (string, bool)) (r report.Record, timing *CellTime, ok bool, rej *Rejected) {
	bad := func(format string, a ...any) (report.Record, *CellTime, bool, *Rejected) {
		return report.Record{}, nil, false, &Rejected{File: file, Reason: fmt.Sprintf(format, a...)}
	}
	var e entry
	if err := json.Unmarshal(b, &e); err != nil {
		return bad("damaged entry (%v)", err)
	}
	want, err := e.entryBody.sum()
	if err != nil || want != e.Sum {
		return bad("checksum mismatch: the entry was edited or damaged")
	}
	if e.Key != key {
		return bad("the entry holds another cell's record (%s of %s)", e.Key.Cell, e.Key.Kind)
	}
	if err := json.Unmarshal(e.Record, &r); err != nil {
		return bad("damaged record (%v)", err)
	}
	if r.Key != key.Cell {
		return bad("the record is of cell %s", r.Key)
	}
	if r.Status == report.StatusFailed {
		return bad("a failed record (failures are never cached)")
	}
	for _, f := range e.Data {
		now, ok := dataSum(f.Path)
		if !ok || now != f.SHA256 {
			if !ok {
				now = "none"
			}
			return report.Record{}, nil, false, &Rejected{File: file, Stale: true, Why: "data",
				Reason: fmt.Sprintf("computed on %s with SHA-256 %.12s, the data root now has %.12s", f.Path, f.SHA256, now)}
		}
	}
	for _, f := range e.Loaded {
		now, err := loadedSum(f.Path)
		if err != nil || now != f.SHA256 {
			was := fmt.Sprintf("SHA-256 %.12s, now %.12s", f.SHA256, now)
			if err != nil {
				was = fmt.Sprintf("SHA-256 %.12s, now unreadable (%v)", f.SHA256, err)
			}
			return report.Record{}, nil, false, &Rejected{File: file, Stale: true, Why: "external",
				Reason: fmt.Sprintf("the external estimator loaded %s (%s), which changed since: %s", filepath.Base(f.Path), f.Path, was)}
		}
		r.Loaded = append(r.Loaded, f.Path)
	}
	return r, e.Timing, true, nil
}

// loadedSums memoises loadedSum by file, size, modification time and
// inode: a process checks a module NumPy's hundred files bring along once
// per cell otherwise.
var loadedSums struct {
	sync.Mutex
	m map[string]loadedStamp
}

type loadedStamp struct {
	size, mtime int64
	ino         uint64
	sum         string
}

// loadedSum returns the SHA-256 of the file at path, which an external
// estimator loaded: read through links (the path was resolved by the
// process that loaded it), a regular file, streamed whatever its size
// (a compiled extension module is megabytes).
func loadedSum(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", &safefs.NotRegularError{Path: path, Mode: fi.Mode()}
	}
	st := loadedStamp{size: fi.Size(), mtime: fi.ModTime().UnixNano(), ino: inodeOf(fi)}
	loadedSums.Lock()
	if old, ok := loadedSums.m[path]; ok && old.size == st.size && old.mtime == st.mtime && old.ino == st.ino {
		loadedSums.Unlock()
		return old.sum, nil
	}
	loadedSums.Unlock()
	f, _, err := safefs.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	st.sum = hex.EncodeToString(h.Sum(nil))
	loadedSums.Lock()
	if loadedSums.m == nil {
		loadedSums.m = map[string]loadedStamp{}
	}
	loadedSums.m[path] = st
	loadedSums.Unlock()
	return st.sum, nil
}

// loadedFileSums returns the files of a record's Loaded with their
// SHA-256, for its cache entry.
func loadedFileSums(files []string) ([]report.FileSum, error) {
	if len(files) == 0 {
		return nil, nil
	}
	out := make([]report.FileSum, len(files))
	for i, f := range files {
		sum, err := loadedSum(f)
		if err != nil {
			return nil, fmt.Errorf("a file the external estimator loaded: %w", err)
		}
		out[i] = report.FileSum{Path: f, SHA256: sum}
	}
	return out, nil
}

// Put stores a finished record computed from the data files data; failed
// records are not stored.
func (c *Cache) Put(key CellKey, data []report.FileSum, r report.Record) error {
	return c.PutTimed(key, data, r, nil)
}

// PutTimed is Put with the time the cell took, kept beside the record
// (RecordedTime).
func (c *Cache) PutTimed(key CellKey, data []report.FileSum, r report.Record, t *CellTime) error {
	b, err := encodeEntry(key, data, r, t)
	if b == nil {
		return err
	}
	return c.putEntry(key, b)
}

// encodeEntry returns the entry Put stores for a record, nil for a failed
// one (never stored).
func encodeEntry(key CellKey, data []report.FileSum, r report.Record, t *CellTime) ([]byte, error) {
	if r.Status == report.StatusFailed {
		return nil, nil
	}
	rec, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	if data == nil {
		data = []report.FileSum{}
	}
	loaded, err := loadedFileSums(r.Loaded)
	if err != nil {
		return nil, err
	}
	e := entry{entryBody: entryBody{Key: key, Data: data, Record: rec, Loaded: loaded}, Timing: t}
	if e.Sum, err = e.entryBody.sum(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&e); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// putEntry writes entry b (encodeEntry) of key.
func (c *Cache) putEntry(key CellKey, b []byte) error {
	file := c.path(key.Hash())
	// The cache folder is used as given; nothing below it is followed.
	if err := safefs.MkdirUnder(c.Dir, filepath.Dir(file)); err != nil {
		return err
	}
	return report.WriteFileAtomic(file, b)
}

// RecordedTime returns the time recorded with the entry of key, whether
// or not the entry is still usable (it may have been computed on other
// data, or be passed over by --force): it only orders cells and predicts
// wall times. ok is false when there is no entry or it has no time.
func (c *Cache) RecordedTime(key CellKey) (t CellTime, ok bool) {
	file := c.path(key.Hash())
	// Read as Get reads: through no link below the cache folder, a
	// regular file within the entries' bound.
	if safefs.CheckUnder(c.Dir, filepath.Dir(file)) != nil {
		return t, false
	}
	b, err := safefs.ReadFile(file, maxEntryBytes)
	if err != nil {
		return t, false
	}
	var e struct {
		Timing *CellTime `json:"timing"`
	}
	if json.Unmarshal(b, &e) != nil || e.Timing == nil || !e.Timing.plausible() {
		return t, false
	}
	return *e.Timing, true
}

// MaxRecordedSeconds bounds a time a cell's entry may record and still be
// read back (115 days): the checksum leaves the timing out, so an edited
// one (1e300 s) must not reach the pool's order or a prediction, whose
// sums need finite inputs.
const MaxRecordedSeconds = 1e7

// plausible reports whether every time of t is one a run could have
// measured: finite, not negative, at most MaxRecordedSeconds.
func (t *CellTime) plausible() bool {
	for _, v := range []float64{t.Seconds, t.CPUSeconds, t.ParallelCPUSeconds, t.HelperCPUSeconds} {
		if !(v >= 0 && v <= MaxRecordedSeconds) {
			return false
		}
	}
	return t.Width >= 0
}

// Delete removes the entry of key if present (used by --force before
// recomputing).
func (c *Cache) Delete(key CellKey) error {
	err := os.Remove(c.path(key.Hash()))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// dataSum returns what a cache entry's data files are checked against:
// the current SHA-256 of a data file, from env's data root's SHA256SUMS.
// It lives here, not as a method of Env, because this file is
// bookkeeping (code.go): a method of Env would count in the code
// fingerprint of every kind, and recompute every cell.
func dataSum(env *Env) func(path string) (string, bool) {
	return func(path string) (string, bool) {
		root, err := env.Root()
		if err != nil {
			return "", false
		}
		return root.Sum(path)
	}
}

// lookup is what lookupCells found: every cell's key, the units left to
// compute, the state of the cells computed in parts, how many entries
// were rejected, and the time recorded with each unit read from the
// cache when it was computed (Cached set, grid order; units whose entry
// records none are left out), with the unit's key. Each cell with units
// left to compute (todoCells, by index) has its reason and, when its
// previous entry (another key's: the config or code changed) recorded
// one, that entry's time (prev).
type lookup struct {
	keys       []CellKey
	todo       []unit
	todoCells  []int
	reasons    []Reason
	prev       []*CellTime
	parts      []*partState
	units      int
	rejected   int
	cached     []CellTime
	cachedKeys []CellKey
}

// lookupCells computes the key of every cell and fills recs with the
// cached records that pass Get's checks; of a cell computed in parts
// without one, it looks up each of its parts in the run (in, per cell: a
// shard's selection), keeping those the cache has. A rejected entry is
// logged (a warning when it was damaged, edited or misplaced;
// information when its data changed) and recomputed. Each cell left to
// compute gets its reason (Reason), logged at debug level. It writes
// nothing: runexp status and run --dry-run call it too.
func lookupCells(c *config.Config, kind *Kind, cells []*Cell, in [][]bool, cache *Cache, force bool, env *Env, recs []report.Record) (l lookup, err error) {
	l.keys = make([]CellKey, len(cells))
	l.parts = make([]*partState, len(cells))
	sums := dataSum(env)
	// get looks key up; it reports a hit, with its time, or the
	// rejection of the entry it found.
	get := func(key CellKey, what string) (report.Record, CellTime, bool, *Rejected) {
		var t CellTime
		if cache == nil || force {
			return report.Record{}, t, false, nil
		}
		r, timing, ok, rej := cache.get(key, sums)
		switch {
		case ok:
			if timing != nil {
				t = *timing
				t.Key, t.Part, t.Parts, t.Cached = what, 0, 0, true
				if cell, k, n, isPart := partOfKey(key.Cell); isPart {
					t.Key, t.Part, t.Parts = cell, k, n
				}
				l.cached, l.cachedKeys = append(l.cached, t), append(l.cachedKeys, key)
			}
		case rej != nil && rej.Stale:
			env.Log.Info("cached cell computed on other data; recomputing", "cell", key.Cell, "reason", rej.Reason)
			l.rejected++
		case rej != nil:
			env.Log.Warn("cache entry rejected; recomputing", "cell", key.Cell, "file", rej.File, "reason", rej.Reason)
			l.rejected++
		}
		return r, t, ok, rej
	}
	for i, cell := range cells {
		if l.keys[i], err = NewCellKey(c, kind, cell); err != nil {
			return lookup{}, err
		}
		n := cell.parts()
		var ps *partState
		if n > 0 {
			ps = newPartState(n, in[i])
			l.parts[i] = ps
			l.units += ps.left
		} else {
			l.units++
		}
		r, _, ok, rej := get(l.keys[i], cell.Key)
		if ok {
			recs[i] = r
			if ps != nil {
				ps.left = 0
				l.partTimes(cache, i, cell)
			}
			continue
		}
		before := len(l.todo)
		if n == 0 {
			l.todo = append(l.todo, unit{cell: i, part: -1, key: l.keys[i]})
		}
		for k := range n {
			if !ps.in[k] {
				continue
			}
			key := unitKey(l.keys[i], k, n)
			if r, t, ok, _ := get(key, cell.Key); ok {
				ps.recs[k], ps.times[k] = r, t
				ps.left--
				continue
			}
			l.todo = append(l.todo, unit{cell: i, part: k, key: key})
		}
		if len(l.todo) == before {
			continue // every part of the run's is cached
		}
		why, prev := l.reason(c, kind, cell, cache, force, env, rej, sums, i)
		env.Log.Debug("to compute", "config", c.Name, "cell", cell.Key, "reason", why.Text)
		l.todoCells = append(l.todoCells, i)
		l.reasons = append(l.reasons, why)
		l.prev = append(l.prev, prev)
	}
	return l, nil
}

// partTimes replaces the time of cell i, computed in parts and served
// whole from the cache (get recorded its entry's: the sum of its parts'),
// with its units' times (CachedUnitTimes), so that the run's prediction
// and critical path see the parts the pool would run, not one unit of
// their summed time.
func (l *lookup) partTimes(cache *Cache, i int, cell *Cell) {
	var whole CellTime
	wholeOK := false
	if k := len(l.cachedKeys) - 1; k >= 0 && l.cachedKeys[k] == l.keys[i] {
		whole, wholeOK = l.cached[k], true
		l.cached, l.cachedKeys = l.cached[:k], l.cachedKeys[:k]
	}
	ts, ok := CachedUnitTimes(cache, l.keys[i], cell, whole, wholeOK)
	if !ok {
		return
	}
	n := len(ts)
	for k, t := range ts {
		t.Cached = true
		l.cached, l.cachedKeys = append(l.cached, t), append(l.cachedKeys, unitKey(l.keys[i], k, n))
	}
}

// reason says why cell i, which the cache did not serve whole (rej: the
// rejection of the entry found under its key, if any), is computed.
func (l *lookup) reason(c *config.Config, kind *Kind, cell *Cell, cache *Cache, force bool, env *Env, rej *Rejected, sums func(string) (string, bool), i int) (Reason, *CellTime) {
	switch {
	case cache == nil:
		return reasonOf(cell.Key, "no-cache", "--no-cache: the cache is neither read nor written"), nil
	case force:
		return reasonOf(cell.Key, "forced", "--force"), nil
	case rej != nil && rej.Stale && rej.Why == "external":
		return reasonOf(cell.Key, "external", "external estimator's module changed: "+rej.Reason), nil
	case rej != nil && rej.Stale:
		why := reasonOf(cell.Key, "data", "data changed: "+rej.Reason)
		if _, rerr := env.Root(); rerr != nil {
			why.Text = "the data root cannot be read (" + rerr.Error() + "), so the data this cell read cannot be checked: " + rej.Reason
		}
		return why, nil
	case rej != nil:
		return reasonOf(cell.Key, "rejected", "cache entry rejected: "+rej.Reason), nil
	}
	return cache.whyMissing(c.Name, kind, cell, l.keys[i], sums)
}
