package suite

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/safefs"
)

// A cell the cache has no time of (a fresh results folder, new code) is
// planned from the costs earlier runs of the same config recorded: a
// suite.json named on the command line (--times), the results root's
// own suite.json, the latest night of a history (suite --history), or
// the costs a baseline keeps beside each config's records (costs.json,
// written with the baseline). The pool orders the
// cells by them, the progress estimates the time left from them, and a
// dry run predicts its wall time from them instead of "unknown".

// CostsFile is the file a baseline keeps of each config's unit costs.
const CostsFile = "costs.json"

// costsJSON is a baseline's costs.json: the cost (runner.CellTime.Cost)
// of each unit of the config's cells, by unit key (runner.UnitKey), as
// the run that wrote the baseline recorded it, and where: the machine's
// CPU model and cores.
type costsJSON struct {
	Note    string             `json:"note"`
	Machine string             `json:"machine,omitempty"`
	Costs   map[string]float64 `json:"costs"`
}

// writeCosts writes the unit costs of run r into dir/costs.json.
func writeCosts(r ConfigRun, dir string, machine string) error {
	c := costsJSON{Note: "CPU seconds (wall seconds where none was measured) of each unit of work of the cells when last computed: runexp plans runs of this config from them", Machine: machine, Costs: map[string]float64{}}
	for _, t := range append(r.times(), r.SharedCellTimes...) {
		if cost := t.Cost(); cost > 0 {
			c.Costs[t.Unit()] = cost
		}
	}
	file := filepath.Join(dir, CostsFile)
	if len(c.Costs) == 0 {
		os.Remove(file)
		return nil
	}
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return report.WriteFileAtomic(file, append(b, '\n'))
}

// readCosts reads a baseline config's costs.json (nil when there is
// none).
func readCosts(file string) map[string]float64 {
	b, err := safefs.ReadFile(file, maxReportBytes)
	if err != nil {
		return nil
	}
	var c costsJSON
	if json.Unmarshal(b, &c) != nil {
		return nil
	}
	return c.Costs
}

// Earlier names where earlier runs' costs are looked for
// (EarlierTimes); an empty field is not looked at.
type Earlier struct {
	// Baseline is a baseline folder (its CONFIG/costs.json); empty: the
	// baseline folder of each config's checkout, beside its configs
	// folder.
	Baseline string
	// History is a --history folder: its latest night's suite.json.
	History string
	// OutRoot is the results root: its suite.json.
	OutRoot string
	// File is a suite.json the user named (--times).
	File string
}

// EarlierTimes gathers what earlier runs recorded of the costs of the
// entries' cells, each source overlaying the ones before: the baseline's
// costs.json of each config, the latest night of the history, the
// suite.json in the results root, the suite.json named. from says, per
// config, which file gave its times (the last that had any). Only the
// file named is an error when it cannot be read: the others are looked
// for where they may not be.
func EarlierTimes(entries []Entry, e Earlier) (t Times, from map[string]string, err error) {
	t, from = Times{}, map[string]string{}
	add := func(config, src string, costs map[string]float64) {
		if len(costs) == 0 {
			return
		}
		if t[config] == nil {
			t[config] = map[string]float64{}
		}
		for k, v := range costs {
			t[config][k] = v
		}
		from[config] = src
	}
	addAll := func(src string, st Times) {
		for config, costs := range st {
			add(config, src, costs)
		}
	}
	for _, en := range entries {
		dir := e.Baseline
		if dir == "" {
			if abs, err := filepath.Abs(en.Config.File); err == nil {
				dir = filepath.Join(filepath.Dir(filepath.Dir(abs)), "baseline")
			}
		}
		f := filepath.Join(dir, en.Config.Name, CostsFile)
		add(en.Config.Name, f, readCosts(f))
	}
	if e.History != "" {
		if nights, err := ReadHistory(e.History); err == nil {
			for i := len(nights) - 1; i >= 0; i-- {
				if n := nights[i]; n.Suite != nil {
					addAll(fmt.Sprintf("the history in %s (night of %s)", e.History, n.Started.UTC().Format("2006-01-02 15:04")), n.Suite.Times())
					break
				}
			}
		}
	}
	var files []string
	if e.OutRoot != "" {
		files = append(files, filepath.Join(e.OutRoot, "suite.json"))
	}
	if e.File != "" {
		files = append(files, e.File)
	}
	for _, f := range files {
		st, err := ReadTimes(f)
		if err != nil {
			if f == e.File {
				return nil, nil, fmt.Errorf("--times: %w", err)
			}
			continue
		}
		addAll(f, st)
	}
	return t, from, nil
}

// cellCosts returns, by cell key, the cost of each cell of a config's
// times: its whole cell's, else the sum of its parts'.
func cellCosts(units map[string]float64) map[string]float64 {
	out := map[string]float64{}
	parts := map[string]float64{}
	for k, v := range units {
		if cell, _, ok := strings.Cut(k, "#part="); ok {
			parts[cell] += v
			continue
		}
		out[k] = v
	}
	for k, v := range parts {
		if _, ok := out[k]; !ok {
			out[k] = v
		}
	}
	return out
}

// sortedSources lists the distinct files of from.
func sortedSources(from map[string]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range from {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}
