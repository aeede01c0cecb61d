package suite

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// ConfigRun is one config's line in suite.json.
type ConfigRun struct {
	Name    string  `json:"name"`
	File    string  `json:"file"`
	Seconds float64 `json:"seconds"`
	// CPUSeconds is the CPU time of the config's tasks as their threads'
	// clocks measured it (Result.CPUSeconds).
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	// ProcessCPUSeconds is the process's CPU time while the config ran,
	// where it ran alone (runexp suite --cpuprofile runs the configs one
	// after another): beside CPUSeconds, what the threads' clocks missed.
	ProcessCPUSeconds float64 `json:"process_cpu_seconds,omitempty"`
	// Began and Ended are the offsets of the config's Start and of its
	// end from the start of the suite: the configs of one pool overlap.
	Began    float64 `json:"began_seconds"`
	Ended    float64 `json:"ended_seconds"`
	Cells    int     `json:"cells"`
	Computed int     `json:"computed"`
	Cached   int     `json:"cached"`
	// Shared counts the cells another config of the suite computed, with
	// the same cell cache key, and this one was served (runner.Pool):
	// Cells = Computed + Cached + Shared for a config that finished.
	Shared       int    `json:"shared,omitempty"`
	Failed       int    `json:"failed"`
	Crashed      int    `json:"crashed"`
	Claims       int    `json:"claims"`
	Unexpected   int    `json:"claims_unexpected"`
	NotEvaluated int    `json:"claims_not_evaluated"`
	Status       int    `json:"status"`
	Error        string `json:"error,omitempty"`
	Dir          string `json:"dir,omitempty"`
	// Start and Report are the times of the config's Start (data,
	// corruption) and of its report stage; CellTimes those of each cell
	// computed in this run, in grid order. CachedCellTimes are those of
	// the cells read from the cache, as their entries recorded them when
	// an earlier run computed them (each marked "cached"), in grid order:
	// they took no time in this run, so the config's and the suite's
	// CPU seconds and utilisation leave them out, and the critical path
	// and the predictions count them (WorkloadOf). A cell whose entry
	// records no time (written before entries kept one) is in neither.
	// SharedCellTimes are those of the Shared cells, as the config that
	// computed them measured them (each marked "shared"), in grid order:
	// that config's CellTimes count them, so nothing else here does.
	Start           *runner.Phase     `json:"start,omitempty"`
	Report          *runner.Phase     `json:"report,omitempty"`
	CellTimes       []runner.CellTime `json:"cell_times,omitempty"`
	CachedCellTimes []runner.CellTime `json:"cached_cell_times,omitempty"`
	SharedCellTimes []runner.CellTime `json:"shared_cell_times,omitempty"`
	// Interrupted marks a config the suite stopped (SIGINT, SIGTERM)
	// before it finished: Computed counts the cells that finished
	// before the stop, Unfinished the cells that did not, and it has
	// no report (nor Report time, nor claims); Status is 130.
	Interrupted bool `json:"interrupted,omitempty"`
	Unfinished  int  `json:"unfinished,omitempty"`
	// Recomputed says why each cell the cache did not serve was computed
	// (runner.Reason), its cells grouped by reason.
	Recomputed []ReasonGroup `json:"recomputed,omitempty"`
	// NotEvaluatedIDs names the claims NotEvaluated counts (exit status
	// 3), for the line that says which.
	NotEvaluatedIDs []string `json:"claims_not_evaluated_ids,omitempty"`
}

// NewConfigRun is r's line in suite.json.
func NewConfigRun(r Result) ConfigRun {
	c := ConfigRun{Name: r.Config.Name, File: r.Config.File, Seconds: r.Seconds, CPUSeconds: r.CPUSeconds, ProcessCPUSeconds: r.ProcessCPUSeconds, Began: r.Began, Ended: r.Ended, Status: r.Status()}
	if r.Err != nil {
		c.Error = r.Err.Error()
		return c
	}
	s := r.Summary
	c.Dir, c.Cells, c.Computed, c.Cached, c.Shared, c.Failed, c.Crashed = s.Dir, s.Cells, s.Computed, s.Cached, s.Shared, s.Failed, s.Crashed
	c.Claims, c.Unexpected, c.NotEvaluated = len(s.Claims), s.Unexpected, s.NotEvaluated
	start, rep := s.Start, s.Report
	c.Start, c.Report, c.CellTimes, c.CachedCellTimes, c.SharedCellTimes = &start, &rep, s.Times, s.CachedTimes, s.SharedTimes
	c.Recomputed = GroupReasons(s.Reasons)
	for _, cl := range s.Claims {
		if !cl.AsExpected && cl.Status == claims.NotEvaluated {
			c.NotEvaluatedIDs = append(c.NotEvaluatedIDs, cl.ID)
		}
	}
	if r.Interrupted {
		c.Interrupted, c.Unfinished, c.Report = true, s.Cells-s.Cached-s.Computed-s.Shared, nil
		if s.Start == (runner.Phase{}) {
			c.Start = nil // not started, or its Start did not return
		}
	}
	return c
}

// Report is suite.json: what a suite run did, how long each config took,
// and how it compared with the baseline.
type Report struct {
	Started time.Time `json:"started"`
	Seconds float64   `json:"seconds"`
	Workers int       `json:"workers"`
	// Interrupted marks a suite stopped by SIGINT or SIGTERM: suite.json
	// then holds what finished before the stop (the configs that
	// completed, and those marked interrupted with the cells they
	// finished) and no comparison, index or scoreboard; its critical
	// path and predictions cover only the cells with a time.
	Interrupted bool            `json:"interrupted,omitempty"`
	Runs        []ConfigRun     `json:"runs"`
	Baseline    string          `json:"baseline,omitempty"`
	Changes     []report.Change `json:"changes,omitempty"`
	// Compared reports that the comparison with Baseline was made, so
	// that no Changes means nothing moved; DiffPage is the page that
	// shows the changes (changes.html beside suite.json).
	Compared bool   `json:"-"`
	DiffPage string `json:"changes_page,omitempty"`
	// NotCompared counts, per config and added method, the cells of the
	// estimators added by --with: a baseline holds the configs' own
	// methods only, so these have nothing to be compared with.
	NotCompared []AddedCells `json:"added_not_compared,omitempty"`
	// Problems are what went wrong around the runs: the comparison with
	// the baseline, writing the baseline.
	Problems []string `json:"problems,omitempty"`
	Status   int      `json:"status"`
	// PaperClaims are the scoreboard's lines over the papers' claims
	// (scoreboard.Board.ClaimLines): the unit the scoreboard and the
	// reports count, which the suite's summary leads with; none when the
	// scoreboard was not written.
	PaperClaims []string `json:"paper_claims,omitempty"`
	// CPUSeconds is the process's CPU time (user and system, every
	// thread) over the suite; CellCPUSeconds the part the configs' tasks
	// were measured to use (ConfigRun.CPUSeconds); the rest is what the
	// threads' clocks miss: goroutines not started through package par
	// (gonum's parallel Dgemm), the garbage collector, loading configs,
	// the index and the scoreboard.
	CPUSeconds     float64 `json:"cpu_seconds"`
	CellCPUSeconds float64 `json:"task_cpu_seconds"`
	// Utilisation is CPUSeconds / (Seconds × Workers).
	Utilisation float64 `json:"utilisation"`
	// Critical is the recorded cells' critical path; Predicted the wall
	// time list scheduling predicts from them for a few worker counts
	// (runexp suite --predict).
	Critical  *CriticalPath    `json:"critical_path,omitempty"`
	Predicted []Prediction     `json:"predicted,omitempty"`
	Manifest  *report.Manifest `json:"build"`
}

// Write writes the report to root/suite.json, atomically.
func (r *Report) Write(root string) error {
	return r.writeFile(filepath.Join(root, "suite.json"))
}

func (r *Report) writeFile(file string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err == nil {
		err = report.WriteFileAtomic(file, append(b, '\n'))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", filepath.Base(file), err)
	}
	return nil
}

// TimesTable is the suite's wall and CPU time per config, with the
// longest cell of each, and the total.
func (r *Report) TimesTable() *report.Table {
	t := &report.Table{Title: "Suite wall time", Header: []string{"Config", "Cells", "Computed", "From s", "To s", "Seconds", "CPU seconds", "Longest unit s", "Status"}}
	for _, x := range r.Runs {
		var longest float64
		for _, c := range x.CellTimes {
			longest = max(longest, c.Seconds, c.CPUSeconds)
		}
		t.Rows = append(t.Rows, []string{x.Name, fmt.Sprint(x.Cells), fmt.Sprint(x.Computed), fmt.Sprintf("%.1f", x.Began), fmt.Sprintf("%.1f", x.Ended),
			fmt.Sprintf("%.1f", x.Seconds), fmt.Sprintf("%.1f", x.CPUSeconds), fmt.Sprintf("%.1f", longest), fmt.Sprint(x.Status)})
	}
	t.Rows = append(t.Rows, []string{"total", "", "", "", "", fmt.Sprintf("%.1f", r.Seconds), fmt.Sprintf("%.1f", r.CPUSeconds), "", ""})
	return t
}

// Where is the summary of where the time went: utilisation, the
// critical path and the predicted wall times, one line each.
func (r *Report) Where() []string {
	var out []string
	out = append(out, fmt.Sprintf("utilisation: %.0f CPU-s / (%.1f s × %d workers) = %.0f%%; the tasks' threads measured %.0f CPU-s of it (%.0f%%)",
		r.CPUSeconds, r.Seconds, r.Workers, 100*r.Utilisation, r.CellCPUSeconds, 100*ratio(r.CellCPUSeconds, r.CPUSeconds)))
	if cp := r.Critical; cp != nil && cp.CellTime > 0 {
		out = append(out, fmt.Sprintf("critical path: longest cell %s; longest chain %.1f s (%s: Start %.1f + cell %.1f + report %.1f)",
			cp.longestCell(), cp.ChainTime, cp.Chain, cp.Start, cp.Longest, cp.Report))
	}
	if len(r.Predicted) > 0 {
		s := "predicted wall time from the computed cells' times (runexp suite --predict N FILE):"
		if _, cached, _ := r.Coverage(); cached > 0 {
			s = fmt.Sprintf("predicted wall time from the cells' times, %d of them recorded in the cache when computed (runexp suite --predict N FILE):", cached)
		}
		for _, p := range r.Predicted {
			if p.Shards > 0 {
				s += fmt.Sprintf(" %d shards × -j %d %.0f s;", p.Shards, p.Workers, p.Seconds)
				continue
			}
			s += fmt.Sprintf(" -j %d %.0f s;", p.Workers, p.Seconds)
		}
		out = append(out, s[:len(s)-1])
	}
	return out
}

// Coverage counts the cells of the report's configs (those of a config
// that did not run are not known), the cells with a time (computed here,
// served from another config's computation, or recorded in the cache; a
// cell computed in parts counts once, whatever its parts' times) and of
// those the cells with a time recorded in the cache.
func (r *Report) Coverage() (timed, cached, cells int) {
	for _, x := range r.Runs {
		cells += x.Cells
		seen, fromCache := map[string]bool{}, map[string]bool{}
		for _, ts := range [][]runner.CellTime{x.CellTimes, x.CachedCellTimes, x.SharedCellTimes} {
			for _, c := range ts {
				seen[c.Key] = true
				if c.Cached {
					fromCache[c.Key] = true
				}
			}
		}
		timed += len(seen)
		cached += len(fromCache)
	}
	return timed, cached, cells
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
