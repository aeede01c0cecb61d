package suite

import (
	"encoding/json"
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
// own suite.json, or the costs a baseline keeps beside each config's
// records (costs.json, written with the baseline). The pool orders the
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

// EarlierTimes gathers what earlier runs recorded of the costs of the
// entries' cells: the baseline's costs.json of each config (baseline, or
// else the baseline folder of the config's checkout, beside its configs
// folder), overlaid with the suite.json in outRoot, overlaid with the one
// in file (when named). from says, per config, which file gave its times.
func EarlierTimes(entries []Entry, outRoot, file, baseline string) (t Times, from map[string]string) {
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
	for _, e := range entries {
		dir := baseline
		if dir == "" {
			if abs, err := filepath.Abs(e.Config.File); err == nil {
				dir = filepath.Join(filepath.Dir(filepath.Dir(abs)), "baseline")
			}
		}
		if dir != "" {
			f := filepath.Join(dir, e.Config.Name, CostsFile)
			add(e.Config.Name, f, readCosts(f))
		}
	}
	for _, f := range []string{filepath.Join(outRoot, "suite.json"), file} {
		if f == "" {
			continue
		}
		st, err := ReadTimes(f)
		if err != nil {
			continue
		}
		for config, costs := range st {
			add(config, f, costs)
		}
	}
	return t, from
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
