package runner

import (
	"bytes"
	"encoding/base64"
	"encoding/gob"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"github.com/runexp/runexp/internal/par"
	"github.com/runexp/runexp/internal/report"
)

// A cell whose work is a set of independent tasks (the repetitions of the
// missing kind, the splits of classify, the rows of a pre-image batch) is
// computed in parts: each part is a unit of work of its own, which the
// pool schedules like a cell and a shard selects like a cell, and the
// cell's record is combined from its parts' results in part order once
// every part has landed. The record is the one computing the cell whole
// gives, bit for bit: a part computes exactly the items a whole run would,
// with the same streams, and the combination reads them in the order the
// whole run did.
//
// Parts come in stages (Cell.Stages): the parts of a stage start when
// every part of the stages before it has landed, and read their results
// (a tuned estimator's validation points, then its test rows). A cell of
// one stage spreads over a shard array part by part; the parts of a cell
// of several stages stay in one shard, whose pool spreads them over its
// cores, since a later stage needs every earlier part.
//
// A part's result travels as a record (partRecord): its key is the
// cell's key with the part (UnitKey), its payload the kind's own part
// value, gob-encoded in the parameter PartData. Such records are cached
// under their own cache key, served between configs of a pool as a cell
// is, and written to a shard file beside whole cells' records, where
// merge combines them (Merge); they never reach a report.

// PartData is the parameter of a part's record that holds its payload.
const PartData = "part_data"

// UnitKey is the key of part k of a cell of n parts (n = 0: the cell
// itself).
func UnitKey(cell string, k, n int) string {
	if n == 0 {
		return cell
	}
	return cell + "#part=" + strconv.Itoa(k) + "/" + strconv.Itoa(n)
}

// Parts computes the parts of a kind's cells and combines them; build it
// with PartsOf. An Instance of a kind whose cells have stages implements
// Parted.
type Parts interface {
	stages(cell *Cell) []int
	run(cell *Cell, stage, k int, earlier [][]byte) ([]byte, error)
	combine(cell *Cell, parts [][]byte, rec *report.Record) error
}

// Parted is an Instance whose cells are computed in parts (Cell.Stages).
type Parted interface {
	Parts() Parts
}

// PartsOf returns the Parts of a kind whose part results have the type
// P. stages gives the cell's stages as Kind.Parts does (Cell.Stages is
// that value for the cells of a validated plan; RunParts asks stages, so
// that a cell built without a plan is computed whole all the same). run
// computes part k (its index among all the cell's parts) of the
// stage, given the results of every part of the earlier stages in part
// order; combine writes the cell's record from every part's result in
// part order and returns what Instance.Run would (an error fails the
// cell, keeping what combine set). An error of run fails the whole cell
// with that error and no values: a kind that records per-item failures
// puts them in P instead, so that combine reproduces a whole run. P is
// gob-encoded (exported fields; no maps, whose order gob does not fix).
func PartsOf[P any](stages func(cell *Cell) []int, run func(cell *Cell, stage, k int, earlier []P) (P, error), combine func(cell *Cell, parts []P, rec *report.Record) error) Parts {
	return typedParts[P]{stagesOf: stages, runP: run, combineP: combine}
}

type typedParts[P any] struct {
	stagesOf func(cell *Cell) []int
	runP     func(cell *Cell, stage, k int, earlier []P) (P, error)
	combineP func(cell *Cell, parts []P, rec *report.Record) error
}

func (t typedParts[P]) stages(cell *Cell) []int { return t.stagesOf(cell) }

func (t typedParts[P]) run(cell *Cell, stage, k int, earlier [][]byte) ([]byte, error) {
	prev, err := decodeParts[P](earlier)
	if err != nil {
		return nil, err
	}
	v, err := t.runP(cell, stage, k, prev)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&v); err != nil {
		return nil, fmt.Errorf("runner: encoding part %d: %w", k, err)
	}
	return buf.Bytes(), nil
}

func (t typedParts[P]) combine(cell *Cell, parts [][]byte, rec *report.Record) error {
	vs, err := decodeParts[P](parts)
	if err != nil {
		return err
	}
	return t.combineP(cell, vs, rec)
}

func decodeParts[P any](bs [][]byte) ([]P, error) {
	out := make([]P, len(bs))
	for i, b := range bs {
		if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&out[i]); err != nil {
			return nil, fmt.Errorf("runner: decoding part %d: %w", i, err)
		}
	}
	return out, nil
}

// stageOf returns the stage of part k of stages.
func stageOf(stages []int, k int) int {
	for s, n := range stages {
		if k < n {
			return s
		}
		k -= n
	}
	return len(stages) - 1
}

// stageStart returns the index of the first part of stage s.
func stageStart(stages []int, s int) int {
	n := 0
	for _, m := range stages[:s] {
		n += m
	}
	return n
}

func total(stages []int) int { return stageStart(stages, len(stages)) }

// numbered is how many shard numbers a cell takes: one per part of a
// cell of one stage (they spread over the shards), one for a cell
// computed whole or in several stages (it stays in one shard).
func (c *Cell) numbered() int {
	if len(c.Stages) == 1 {
		return c.Stages[0]
	}
	return 1
}

// parts returns the number of parts of the cell, 0 for a cell computed
// whole.
func (c *Cell) parts() int {
	if c.Stages == nil {
		return 0
	}
	return total(c.Stages)
}

// normalStages is what Cell.Stages holds for the stages a kind gave: nil
// for a cell of one part.
func normalStages(stages []int) []int {
	var out []int
	for _, n := range stages {
		if n > 0 {
			out = append(out, n)
		}
	}
	if len(out) == 0 || len(out) == 1 && out[0] == 1 {
		return nil
	}
	return out
}

// runPart computes part k of the cell into a part record, turning an
// error or a panic into a failed one, as runCell does for a cell.
func runPart(pr Parts, cell *Cell, k int, earlier [][]byte, log *slog.Logger) report.Record {
	n := cell.parts()
	return runRecord(cell, UnitKey(cell.Key, k, n), log, func(cell *Cell, rec *report.Record) error {
		b, err := pr.run(cell, stageOf(cell.Stages, k), k, earlier)
		if err != nil {
			return err
		}
		rec.Params = map[string]any{PartData: base64.StdEncoding.EncodeToString(b)}
		return nil
	})
}

// partPayload returns the payload of a part record.
func partPayload(r report.Record) ([]byte, error) {
	s, ok := r.Params[PartData].(string)
	if !ok {
		return nil, fmt.Errorf("part record %s has no %s", r.Key, PartData)
	}
	return base64.StdEncoding.DecodeString(s)
}

// combineParts returns the cell's record from its part records, in part
// order: failed with the first failed part's error where a part failed
// (a part's error ends a whole run there too), else what the kind's
// combine writes, through the checks runCell makes.
func combineParts(pr Parts, cell *Cell, parts []report.Record, log *slog.Logger) report.Record {
	for _, p := range parts {
		if p.Status == report.StatusFailed {
			return report.Record{Key: cell.Key, Seed: cell.Seed, Params: cell.Params, Metrics: map[string]float64{}, Status: report.StatusFailed, Error: p.Error}
		}
	}
	rec := runRecord(cell, cell.Key, log, func(cell *Cell, rec *report.Record) error {
		data := make([][]byte, len(parts))
		for k, p := range parts {
			b, err := partPayload(p)
			if err != nil {
				return err
			}
			data[k] = b
		}
		return pr.combine(cell, data, rec)
	})
	// The parameters the parts' estimators ran with, as one run of the
	// cell gathers them (mergeRan); parts read from the cache or a shard
	// keep none, as a cell read from the cache does.
	for _, p := range parts {
		for k, v := range p.Ran {
			if rec.Ran == nil {
				rec.Ran = map[string]any{}
			}
			rec.Ran[k] = mergeRan(rec.Ran[k], v, hasKey(rec.Ran, k))
		}
	}
	return rec
}

// RunParts computes a cell of a Parted instance whole: every part, each
// stage's parts on the cores the pool has idle (par.Run), then the
// combination. A kind's Run calls it, so that a cell computed whole (a
// test, runner.RunCell) is the one its parts give.
func RunParts(p Parted, cell *Cell, rec *report.Record) error {
	pr := p.Parts()
	stages := normalStages(pr.stages(cell))
	if stages == nil {
		stages = []int{1}
	}
	data := make([][]byte, total(stages))
	errs := make([]error, len(data))
	for s, n := range stages {
		first := stageStart(stages, s)
		earlier := data[:first]
		par.Run(n, func(next func() (int, bool)) {
			for k, ok := next(); ok; k, ok = next() {
				data[first+k], errs[first+k] = pr.run(cell, s, first+k, earlier)
			}
		})
		for _, err := range errs[first : first+n] {
			if err != nil {
				return err
			}
		}
	}
	return pr.combine(cell, data, rec)
}

// partOfKey splits a unit key into the cell's key and the part, or
// reports false for a cell's own key.
func partOfKey(key string) (cell string, k, n int, ok bool) {
	i := strings.LastIndex(key, "#part=")
	if i < 0 {
		return key, 0, 0, false
	}
	a, b, found := strings.Cut(key[i+len("#part="):], "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !found || err1 != nil || err2 != nil || k < 0 || k >= n {
		return key, 0, 0, false
	}
	return key[:i], k, n, true
}

// unit is what one entry of a job's todo list computes: a cell whole
// (part −1) or one of its parts, with the unit's cache key.
type unit struct {
	cell, part int // index into the job's cells; index among its parts
	key        CellKey
}

// partState is what a job holds of a cell computed in parts.
type partState struct {
	// recs and times hold each part's record and time once it was
	// computed, served or read from the cache (Key "" before); a part of
	// another shard never has one.
	recs  []report.Record
	times []CellTime
	// in marks the parts of this run (all, or the shard's); left counts
	// those not yet there.
	in   []bool
	left int
}

func newPartState(n int, in []bool) *partState {
	ps := &partState{recs: make([]report.Record, n), times: make([]CellTime, n), in: in}
	for _, b := range in {
		if b {
			ps.left++
		}
	}
	return ps
}

// whole reports whether every part of the cell is there.
func (ps *partState) whole() bool {
	for _, r := range ps.recs {
		if r.Key == "" {
			return false
		}
	}
	return true
}

// unitKey is the cache key of part k of a cell of n parts: the cell's,
// naming the part.
func unitKey(key CellKey, k, n int) CellKey {
	key.Cell = UnitKey(key.Cell, k, n)
	return key
}

// CachedUnitTimes returns the times the cache records of a cell's units
// of work, as a prediction needs them: the cell's own time (whole,
// wholeOK: its entry's, Cache.RecordedTime) for a cell computed whole;
// for a cell computed in parts, each part's own time with its stage, or,
// where a part's entry records none, the cell's time shared evenly among
// its parts (the cell's entry records the sum of its parts'). ok is
// false when a time is missing. A cell served whole from the cache is
// so predicted as the pool would run it, part by part, not as one unit
// of the parts' summed time.
func CachedUnitTimes(cache *Cache, key CellKey, cell *Cell, whole CellTime, wholeOK bool) ([]CellTime, bool) {
	n := cell.parts()
	if n == 0 {
		whole.Key = cell.Key
		return []CellTime{whole}, wholeOK
	}
	out := make([]CellTime, n)
	stage, left := 0, cell.Stages[0]
	for k := range out {
		for left == 0 {
			stage++
			left = cell.Stages[stage]
		}
		left--
		t, ok := cache.RecordedTime(unitKey(key, k, n))
		if !ok {
			if !wholeOK {
				return nil, false
			}
			t = CellTime{Seconds: whole.Seconds / float64(n), CPUSeconds: whole.CPUSeconds / float64(n)}
		}
		t.Key, t.Part, t.Parts, t.Stage = cell.Key, k, n, stage
		out[k] = t
	}
	return out, true
}
