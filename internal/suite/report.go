package suite

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/runexp/runexp/internal/report"
)

// ConfigRun is one config's line in suite.json.
type ConfigRun struct {
	Name         string  `json:"name"`
	File         string  `json:"file"`
	Seconds      float64 `json:"seconds"`
	CPUSeconds   float64 `json:"cpu_seconds,omitempty"` // user + system, all threads
	Cells        int     `json:"cells"`
	Computed     int     `json:"computed"`
	Cached       int     `json:"cached"`
	Failed       int     `json:"failed"`
	Crashed      int     `json:"crashed"`
	Claims       int     `json:"claims"`
	Unexpected   int     `json:"claims_unexpected"`
	NotEvaluated int     `json:"claims_not_evaluated"`
	Status       int     `json:"status"`
	Error        string  `json:"error,omitempty"`
	Dir          string  `json:"dir,omitempty"`
}

// NewConfigRun is r's line in suite.json.
func NewConfigRun(r Result) ConfigRun {
	c := ConfigRun{Name: r.Config.Name, File: r.Config.File, Seconds: r.Seconds, CPUSeconds: r.CPUSeconds, Status: r.Status()}
	if r.Err != nil {
		c.Error = r.Err.Error()
		return c
	}
	s := r.Summary
	c.Dir, c.Cells, c.Computed, c.Cached, c.Failed, c.Crashed = s.Dir, s.Cells, s.Computed, s.Cached, s.Failed, s.Crashed
	c.Claims, c.Unexpected, c.NotEvaluated = len(s.Claims), s.Unexpected, s.NotEvaluated
	return c
}

// Report is suite.json: what a suite run did, how long each config took,
// and how it compared with the baseline.
type Report struct {
	Started  time.Time       `json:"started"`
	Seconds  float64         `json:"seconds"`
	Workers  int             `json:"workers"`
	Runs     []ConfigRun     `json:"runs"`
	Baseline string          `json:"baseline,omitempty"`
	Changes  []report.Change `json:"changes,omitempty"`
	// Compared reports that the comparison with Baseline was made, so
	// that no Changes means nothing moved.
	Compared bool `json:"-"`
	// NotCompared counts, per config and added method, the cells of the
	// estimators added by --with: a baseline holds the configs' own
	// methods only, so these have nothing to be compared with.
	NotCompared []AddedCells `json:"added_not_compared,omitempty"`
	// Problems are what went wrong around the runs: the comparison with
	// the baseline, writing the baseline.
	Problems []string         `json:"problems,omitempty"`
	Status   int              `json:"status"`
	Manifest *report.Manifest `json:"build"`
}

// Write writes the report to root/suite.json, atomically.
func (r *Report) Write(root string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err == nil {
		err = report.WriteFileAtomic(filepath.Join(root, "suite.json"), append(b, '\n'))
	}
	if err != nil {
		return fmt.Errorf("suite.json: %w", err)
	}
	return nil
}

// TimesTable is the suite's wall and CPU time per config, with the total.
func (r *Report) TimesTable() *report.Table {
	t := &report.Table{Title: "Suite wall time", Header: []string{"Config", "Cells", "Computed", "Seconds", "CPU seconds", "Status"}}
	var cpu float64
	for _, x := range r.Runs {
		cpu += x.CPUSeconds
		t.Rows = append(t.Rows, []string{x.Name, fmt.Sprint(x.Cells), fmt.Sprint(x.Computed), fmt.Sprintf("%.1f", x.Seconds), fmt.Sprintf("%.1f", x.CPUSeconds), fmt.Sprint(x.Status)})
	}
	t.Rows = append(t.Rows, []string{"total", "", "", fmt.Sprintf("%.1f", r.Seconds), fmt.Sprintf("%.1f", cpu), ""})
	return t
}
