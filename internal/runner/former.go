package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/safefs"
)

// A cell's key holds its parameters (the model's and its estimator's), so
// a parameter edited in the grid (a method's tol 1e-9 → 1e-8) gives the
// cell a new key: the cache has no entry of it, nor a remembered key
// (Cache.last is by cell key). To say what changed, the cache also lists
// the cell keys each config had (cells-of/), and a cell whose key is new
// is paired with a cell of that list that the grid no longer has and
// whose key differs from its own in a few parameters, none of them the
// method's label, and that the last run of its method had: its former
// self, whose entry then says what else changed. A cell without one is a new cell of the grid, named by the
// values no cell of the config had before.

// maxPaired is the most parameters in which a cell may differ from a
// former cell paired with it: more is another cell, not an edit.
const maxPaired = 3

// maxListedCells bounds the cells read back from a config's list.
const maxListedCells = 1 << 20

// cellsOfDir is the folder listing the cell keys config had.
func (c *Cache) cellsOfDir(config string) string {
	h := sha256.Sum256([]byte(config))
	s := hex.EncodeToString(h[:])
	return filepath.Join(c.Dir, "cells-of", s[:2], s)
}

// runTime is the time of the run the cache lists cells for (the first
// cell it lists), to the millisecond: the modification time listCell
// gives the files of the cells it lists, so that the cells of one run of
// a config are told from those of earlier runs.
func (c *Cache) runTime() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.run.IsZero() {
		c.run = time.Now().Truncate(time.Millisecond)
	}
	return c.run
}

// listCell records that config has the cell of key cell in this run
// (runTime). It only serves explanations: errors are ignored.
func (c *Cache) listCell(config, cell string) {
	dir := c.cellsOfDir(config)
	h := sha256.Sum256([]byte(cell))
	file := filepath.Join(dir, hex.EncodeToString(h[:]))
	now := c.runTime()
	if fi, err := os.Lstat(file); err == nil {
		if fi.Mode().IsRegular() && !fi.ModTime().Equal(now) {
			os.Chtimes(file, now, now)
		}
		return
	}
	if safefs.MkdirUnder(c.Dir, dir) != nil {
		return
	}
	if report.WriteFileAtomic(file, []byte(cell)) == nil {
		os.Chtimes(file, now, now)
	}
}

// listedCell is a cell the cache lists for a config, with the time of
// the last run that had it.
type listedCell struct {
	key  string
	seen time.Time
}

// listedCells returns the cells the cache lists for config.
func (c *Cache) listedCells(config string) []listedCell {
	dir := c.cellsOfDir(config)
	if safefs.CheckUnder(c.Dir, dir) != nil {
		return nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []listedCell
	for _, e := range ents {
		if len(out) == maxListedCells {
			break
		}
		if !e.Type().IsRegular() || len(e.Name()) != 64 {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		b, err := safefs.ReadFile(filepath.Join(dir, e.Name()), report.MaxRecordLine)
		if err == nil {
			out = append(out, listedCell{key: string(b), seen: fi.ModTime()})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// formerCells is what a lookup knows of a config's former cells, read on
// the first cell without a remembered key.
type formerCells struct {
	read bool
	// gone are the listed cells the grid no longer has, with their
	// parameters (flatKey); seen holds, per parameter, every value a
	// listed cell had.
	gone   []string
	params map[string]map[string]string
	seen   map[string]map[string]bool
	// grid holds, per parameter, every value a cell of the grid has now.
	grid map[string]map[string]bool
}

// add records value v of parameter name in set.
func addValue(set map[string]map[string]bool, name, v string) {
	if set[name] == nil {
		set[name] = map[string]bool{}
	}
	set[name][v] = true
}

// load reads the config's list of cells, once.
func (f *formerCells) load(cache *Cache, c *config.Config) {
	if f.read {
		return
	}
	f.read = true
	listed := cache.listedCells(c.Name)
	if len(listed) == 0 {
		return
	}
	grid := map[string]bool{}
	f.grid = map[string]map[string]bool{}
	if plan, err := Validate(c); err == nil {
		for _, cell := range plan.Cells {
			grid[cell.Key] = true
			for name, v := range flatKey(cell.Key, "") {
				addValue(f.grid, name, v)
			}
		}
	}
	f.params = map[string]map[string]string{}
	f.seen = map[string]map[string]bool{}
	// The last run of each method (by label): a cell the grid lost
	// before it is no former self of a cell new now.
	last := map[string]time.Time{}
	for _, l := range listed {
		p := flatKey(l.key, "")
		f.params[l.key] = p
		for name, v := range p {
			addValue(f.seen, name, v)
		}
		if m := p[report.MethodParam]; l.seen.After(last[m]) {
			last[m] = l.seen
		}
	}
	for _, l := range listed {
		if !grid[l.key] && l.seen.Equal(last[f.params[l.key][report.MethodParam]]) {
			f.gone = append(f.gone, l.key)
		}
	}
}

// whyNew explains a cell of config that the cache never had under its
// key: the former cell it replaces, with the parameters that changed (and
// whatever else changed since that cell's entry), or the new values of
// the grid it holds.
func (c *Cache) whyNew(cf *config.Config, kind *Kind, cell *Cell, key CellKey, sums func(string) (string, bool), f *formerCells) (Reason, *CellTime) {
	f.load(c, cf)
	if len(f.params) == 0 {
		return reasonOf(cell.Key, "new", "not in the cache"), nil
	}
	now := flatKey(cell.Key, "")
	method := ""
	if m, ok := now[report.MethodParam]; ok {
		method = " (method " + m + ")"
	}
	best, bestDiff := f.nearest(now)
	if best == nil {
		return reasonOf(cell.Key, "new", "not in the cache: "+f.newValues(now, method)), nil
	}
	// The values the parameters had: one former cell, or several equally
	// near (two values of tol replaced by one). A parameter whose value
	// is new while its former value is still in the grid took a new
	// value beside the old one: said as such, not as a change.
	var parts, added []string
	for _, name := range bestDiff {
		if v, ok := now[name]; ok && len(bestDiff) > 1 && !f.seen[name][v] && f.gridHas(name, best) {
			added = append(added, name+" "+v)
			continue
		}
		var was []string
		for _, k := range best {
			v, ok := f.params[k][name]
			if !ok {
				v = "unset"
			}
			if !slices.Contains(was, v) {
				was = append(was, v)
			}
		}
		v, ok := now[name]
		if !ok {
			v = "unset"
		}
		parts = append(parts, name+" "+strings.Join(was, " or ")+" → "+v)
	}
	if slices.Contains(bestDiff, report.MethodParam) {
		method = ""
	}
	what := "config changed: "
	if m := cell.Method; m != nil && m.Index < len(cf.Methods) && cf.Methods[m.Index].Added {
		what = "--with changed: "
	}
	text := what + strings.Join(parts, ", ") + method
	switch len(added) {
	case 0:
	case 1:
		text += "; a new value of the grid: " + added[0]
	default:
		text += "; new values of the grid: " + strings.Join(added, ", ")
	}
	r := Reason{Cell: cell.Key, Why: []string{"config"}, Text: text}
	// What else changed since the former cell's entry (the code, the
	// data) is said as for a cell whose key changed.
	h, ok := c.last(cf.Name, best[0])
	if !ok {
		return r, nil
	}
	old, err := c.readOld(h)
	if err != nil {
		return r, nil
	}
	return c.whyChanged(r, old, kind, cell, key, sums)
}

// nearest returns the former cells nearest to the cell of parameters
// now, those differing from it in the fewest parameters (at most
// maxPaired, the method alone), and those parameters.
func (f *formerCells) nearest(now map[string]string) (best, diff []string) {
	for _, k := range f.gone {
		d := report.ParamDiff(f.params[k], now)
		if len(d) == 0 || len(d) > maxPaired || slices.Contains(d, report.MethodParam) && len(d) > 1 {
			continue
		}
		switch {
		case best == nil || len(d) < len(diff):
			best, diff = []string{k}, d
		case len(d) == len(diff):
			best = append(best, k)
		}
	}
	return best, diff
}

// gridHas reports whether the grid still has the value of parameter name
// that each of the former cells had.
func (f *formerCells) gridHas(name string, cells []string) bool {
	for _, k := range cells {
		if v, ok := f.params[k][name]; !ok || !f.grid[name][v] {
			return false
		}
	}
	return true
}

// newValues names what a cell paired with no former one holds that no
// cell of the config had: a new method, new values of the grid's
// parameters, or else a new combination of values it had.
func (f *formerCells) newValues(now map[string]string, method string) string {
	if m, ok := now[report.MethodParam]; ok && !f.seen[report.MethodParam][m] {
		return "a new method of the grid, " + m
	}
	var parts []string
	for _, name := range sortedKeys(now) {
		if name == report.MethodParam {
			continue
		}
		switch v := now[name]; {
		case f.seen[name] == nil:
			parts = append(parts, name+" "+v+" (a new parameter)")
		case !f.seen[name][v]:
			parts = append(parts, name+" "+v)
		}
	}
	switch len(parts) {
	case 0:
		return "a new combination of the grid's values" + method
	case 1:
		return "a new value of the grid: " + parts[0] + method
	}
	return "new values of the grid: " + strings.Join(parts, ", ") + method
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
