package suite

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/runner"
)

// TestWhere checks the summary of where the time went on hand-built
// numbers: 30 CPU-s over 10 s on 4 workers is 75% used, of which the
// tasks measured 24 CPU-s (80%); the critical path and the predictions
// appear only when known, and a suite that used no CPU shows 0% rather
// than dividing by zero.
func TestWhere(t *testing.T) {
	r := &Report{Seconds: 10, Workers: 4, CPUSeconds: 30, CellCPUSeconds: 24, Utilisation: 0.75}
	first := "utilisation: 30 CPU-s / (10.0 s × 4 workers) = 75%; the tasks' threads measured 24 CPU-s of it (80%)"
	if got := r.Where(); !reflect.DeepEqual(got, []string{first}) {
		t.Errorf("without a path or predictions:\n got %q\nwant %q", got, first)
	}
	r.Critical = &CriticalPath{Cell: "fig3", CellKey: "c=1", CellTime: 4.25, Chain: "fig6", ChainTime: 7.5, Start: 1, Longest: 6, Report: 0.5}
	r.Predicted = []Prediction{{Workers: 1, Seconds: 40}, {Workers: 2, Seconds: 21.4}}
	want := []string{
		first,
		"critical path: longest cell 4.2 s (fig3 c=1); longest chain 7.5 s (fig6: Start 1.0 + cell 6.0 + report 0.5)",
		"predicted wall time from the computed cells' times (runexp suite --predict N FILE): -j 1 40 s; -j 2 21 s",
	}
	if got := r.Where(); !reflect.DeepEqual(got, want) {
		t.Errorf("with both:\n got %q\nwant %q", got, want)
	}
	// A path of no cell time (every cell cached) is not shown.
	r.Critical.CellTime, r.Predicted = 0, nil
	if got := r.Where(); len(got) != 1 {
		t.Errorf("a path without cell time: %q, want the utilisation only", got)
	}
	idle := &Report{Seconds: 1, Workers: 2}
	if got := idle.Where()[0]; got != "utilisation: 0 CPU-s / (1.0 s × 2 workers) = 0%; the tasks' threads measured 0 CPU-s of it (0%)" {
		t.Errorf("no CPU: %q", got)
	}
}

// TestTimesTable checks the table of times: a row per config with its
// longest computed cell, and the total of wall and CPU time.
func TestTimesTable(t *testing.T) {
	r := &Report{Seconds: 12.34, CPUSeconds: 20.06, Runs: []ConfigRun{
		{Name: "a", Cells: 3, Computed: 2, Began: 0, Ended: 5.55, Seconds: 5.55, CPUSeconds: 9, Status: 0,
			CellTimes: []runner.CellTime{{Key: "k=1", Seconds: 1.5}, {Key: "k=2", Seconds: 3.25}}},
		{Name: "b", Cells: 1, Began: 5.55, Ended: 12.34, Seconds: 6.79, Status: 2},
	}}
	tab := r.TimesTable()
	want := [][]string{
		{"a", "3", "2", "0.0", "5.5", "5.5", "9.0", "3.2", "0"},
		{"b", "1", "0", "5.5", "12.3", "6.8", "0.0", "0.0", "2"},
		{"total", "", "", "", "", "12.3", "20.1", "", ""},
	}
	if !reflect.DeepEqual(tab.Rows, want) {
		t.Errorf("rows:\n got %q\nwant %q", tab.Rows, want)
	}
	if len(tab.Header) != len(want[0]) {
		t.Errorf("%d columns in the header, %d in the rows", len(tab.Header), len(want[0]))
	}
}

// TestNewConfigRun checks a config's line in suite.json: a config that
// did not run keeps its error and the usage status and no counts; one
// that ran copies its summary's counts, phases and cell times.
func TestNewConfigRun(t *testing.T) {
	c := &config.Config{Name: "fig3", File: "configs/fig3.yaml"}
	failed := NewConfigRun(Result{Entry: Entry{Config: c}, Err: errors.New("fig3.yaml:4: kind: unknown"), Seconds: 0.5})
	if failed.Error != "fig3.yaml:4: kind: unknown" || failed.Status != Usage || failed.Name != "fig3" || failed.File != "configs/fig3.yaml" ||
		failed.Cells != 0 || failed.Start != nil || failed.Seconds != 0.5 {
		t.Errorf("a config that did not run: %+v", failed)
	}
	sum := &runner.Summary{Dir: "out/fig3", Cells: 4, Computed: 3, Cached: 1, Failed: 1,
		Start: runner.Phase{Seconds: 2}, Report: runner.Phase{Seconds: 0.25}, Times: []runner.CellTime{{Key: "k=1", Seconds: 1}}}
	ran := NewConfigRun(Result{Entry: Entry{Config: c}, Summary: sum, Seconds: 3, CPUSeconds: 2.5, Began: 1, Ended: 4})
	if ran.Error != "" || ran.Dir != "out/fig3" || ran.Cells != 4 || ran.Computed != 3 || ran.Cached != 1 || ran.Failed != 1 ||
		ran.Start == nil || ran.Start.Seconds != 2 || ran.Report.Seconds != 0.25 || len(ran.CellTimes) != 1 ||
		ran.Seconds != 3 || ran.CPUSeconds != 2.5 || ran.Began != 1 || ran.Ended != 4 || ran.Status != SummaryStatus(sum) {
		t.Errorf("a config that ran: %+v", ran)
	}
}

// TestReportWrite checks suite.json: written at the root and read back
// the same, and a root that cannot hold it named in the error.
func TestReportWrite(t *testing.T) {
	root := t.TempDir()
	r := &Report{Seconds: 3, Workers: 2, Runs: []ConfigRun{{Name: "a", Cells: 1}}, Status: 1}
	if err := r.Write(root); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "suite.json"))
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(b, &back); err != nil || back.Seconds != 3 || back.Workers != 2 || len(back.Runs) != 1 || back.Runs[0].Name != "a" || back.Status != 1 {
		t.Errorf("read back %+v (%v)", back, err)
	}
	if !strings.HasSuffix(string(b), "}\n") {
		t.Error("suite.json does not end with a newline")
	}
	file := filepath.Join(root, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := r.Write(file); err == nil || !strings.HasPrefix(err.Error(), "suite.json: report: mkdir "+file+"/: ") {
		t.Errorf("a root that is a file: %v", err)
	}
}
