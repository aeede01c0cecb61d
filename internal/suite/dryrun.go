package suite

import (
	"sort"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// ConfigPlan is what a run would do with one config's cells (DryRun).
type ConfigPlan struct {
	Config *config.Config
	Cells  []runner.CellPlan
	// Labels are the cells' short labels (report.CellLabels).
	Labels []string
	// Shared marks, beside Cells, a cell that would be computed whose
	// cache key a config before it in the same run has too: one pool
	// computes it once, for the first.
	Shared []bool
	// Data is what was checked of the data the run would read before
	// its first cell (runner.DataChecker); Data.Err is what the run would
	// stop on.
	Data runner.DataCheck
}

// DryRunReport is what a run of some configs would do: which cells the
// cache serves, and which it would compute, and why (runexp status, run
// --dry-run).
type DryRunReport struct {
	Configs []ConfigPlan
	// Times are the costs earlier runs recorded of the configs' cells
	// (EarlierTimes), for the cells to compute whose cache has no time;
	// TimesFrom says, per config, which file gave them.
	Times     Times
	TimesFrom map[string]string
}

// cost returns the cost of cell i of p for the prediction: the time its
// cache recorded (runner.CellPlan.Cost), else an earlier run's (Times);
// earlier says it is the latter.
func (r *DryRunReport) cost(p ConfigPlan, i int) (cost float64, earlier bool) {
	c := p.Cells[i]
	if c.Cost > 0 {
		return c.Cost, false
	}
	units := r.Times[p.Config.Name]
	if units == nil {
		return 0, false
	}
	if v, ok := units[c.Cell.Key]; ok && v > 0 {
		return v, true
	}
	var sum float64
	for k, v := range units {
		if strings.HasPrefix(k, c.Cell.Key+"#part=") {
			sum += v
		}
	}
	return sum, sum > 0
}

// Earlier counts the computations whose cost is an earlier run's
// (Times), and names the files those came from.
func (r *DryRunReport) Earlier() (n int, files []string) {
	from := map[string]string{}
	for _, p := range r.Configs {
		for i, c := range p.Cells {
			if c.Cached || p.Shared[i] {
				continue
			}
			if _, earlier := r.cost(p, i); earlier {
				n++
				from[p.Config.Name] = r.TimesFrom[p.Config.Name]
			}
		}
	}
	return n, sortedSources(from)
}

// DryRun says what running entries with o would do, config by config
// (runner.DryRun): it locks, writes and computes nothing.
func DryRun(entries []Entry, o runner.Options) (*DryRunReport, error) {
	rep := &DryRunReport{}
	seen := map[string]bool{}
	data := runner.NewDataChecker()
	for _, e := range entries {
		ro := o
		ro.With = e.Added
		cells, err := runner.DryRun(e.Config, ro)
		if err != nil {
			return nil, err
		}
		p := ConfigPlan{Config: e.Config, Cells: cells, Shared: make([]bool, len(cells)), Data: data.Check(e.Config, ro, cells)}
		params := make([]map[string]any, len(cells))
		for i, c := range cells {
			params[i] = c.Cell.Params
			if c.Cached {
				continue
			}
			h := c.Key.Hash()
			p.Shared[i] = seen[h]
			seen[h] = true
		}
		p.Labels = report.CellLabels(params)
		rep.Configs = append(rep.Configs, p)
	}
	return rep, nil
}

// DataErrors returns, by config, what a run would stop on before its
// first cell (the data root missing, a data file not as SHA256SUMS
// lists it).
func (r *DryRunReport) DataErrors() []ConfigError {
	var out []ConfigError
	for _, p := range r.Configs {
		if p.Data.Err != nil {
			out = append(out, ConfigError{Config: p.Config.Name, Err: p.Data.Err})
		}
	}
	return out
}

// Stopped returns how many of the cells that would be computed belong to
// configs that would stop on their data before their first cell
// (DataErrors): the run computes none of them.
func (r *DryRunReport) Stopped() int {
	n := 0
	for _, p := range r.Configs {
		if p.Data.Err == nil {
			continue
		}
		for _, c := range p.Cells {
			if !c.Cached {
				n++
			}
		}
	}
	return n
}

// ConfigError is an error of one config.
type ConfigError struct {
	Config string
	Err    error
}

// Counts returns the cells of the report, those the cache serves, those
// that would be computed, and how many computations those are (a cell
// several configs share is computed once).
func (r *DryRunReport) Counts() (cells, cached, run, distinct int) {
	for _, p := range r.Configs {
		for i, c := range p.Cells {
			cells++
			switch {
			case c.Cached:
				cached++
			default:
				run++
				if !p.Shared[i] {
					distinct++
				}
			}
		}
	}
	return cells, cached, run, distinct
}

// Workload is the work of what would be computed, for the prediction
// (Workload.Predict): each distinct cell that would be computed at the
// time it took when last computed (runner.CellPlan.Cost), else at the
// cost an earlier run recorded (Times); cached cells cost nothing. unknown counts the cells that would be computed whose
// time no entry records (left out). A config that would stop on its
// data before its first cell (DataErrors) computes nothing and is left
// out, a cell it shares with another config then counted there. It knows
// nothing of the configs' Start and report times.
func (r *DryRunReport) Workload() (w Workload, unknown int) {
	seen := map[string]bool{}
	for _, p := range r.Configs {
		if p.Data.Err != nil {
			continue
		}
		l := ConfigWork{Config: p.Config.Name}
		for i, c := range p.Cells {
			if c.Cached {
				continue
			}
			h := c.Key.Hash()
			if seen[h] {
				continue
			}
			seen[h] = true
			cost, _ := r.cost(p, i)
			if cost <= 0 {
				unknown++
				continue
			}
			l.Cells = append(l.Cells, cost)
			l.Keys = append(l.Keys, c.Cell.Key)
		}
		w = append(w, l)
	}
	return w, unknown
}

// ReasonGroup is the cells computed for one reason (runner.Reason), as
// suite.json lists them.
type ReasonGroup struct {
	Why   []string `json:"why"`
	Text  string   `json:"text"`
	Cells []string `json:"cells"`
}

// GroupReasons groups reasons by their text, in the order first met.
func GroupReasons(rs []runner.Reason) []ReasonGroup {
	var out []ReasonGroup
	at := map[string]int{}
	for _, r := range rs {
		i, ok := at[r.Text]
		if !ok {
			i = len(out)
			at[r.Text] = i
			out = append(out, ReasonGroup{Why: r.Why, Text: r.Text})
		}
		out[i].Cells = append(out[i].Cells, r.Cell)
	}
	return out
}

// WhyCounts counts the cells that would be computed by their first
// cause (runner.Reason.Why), sorted by count then cause.
func (r *DryRunReport) WhyCounts() []WhyCount {
	n := map[string]int{}
	for _, p := range r.Configs {
		for _, c := range p.Cells {
			if !c.Cached && len(c.Reason.Why) > 0 {
				n[c.Reason.Why[0]]++
			}
		}
	}
	var out []WhyCount
	for w, k := range n {
		out = append(out, WhyCount{w, k})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Cells != out[j].Cells {
			return out[i].Cells > out[j].Cells
		}
		return out[i].Why < out[j].Why
	})
	return out
}

// WhyCount is a number of cells that would be computed for one cause.
type WhyCount struct {
	Why   string
	Cells int
}
