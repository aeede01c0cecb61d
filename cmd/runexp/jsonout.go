package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/suite"
)

// The JSON that status, list and compare print with --json is for
// scripts: one object, its keys stable and documented by a JSON Schema in
// docs/schemas/ (TestJSONSchemas validates each command's output against
// its schema). SchemaVersion grows when a key changes meaning or goes; a
// key may be added without it.
const jsonSchemaVersion = 1

// writeJSON writes v as indented JSON, HTML characters unescaped.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// compareOut is runexp compare --json (docs/schemas/compare.schema.json).
type compareOut struct {
	SchemaVersion int             `json:"schema_version"`
	Old           string          `json:"old"`
	New           string          `json:"new"`
	Changed       bool            `json:"changed"`
	Counts        compareCounts   `json:"counts"`
	Configs       []compareConfig `json:"configs"`
	Changes       []report.Change `json:"changes"`
	NotCompared   []string        `json:"not_compared"`
}

type compareCounts struct {
	Claims  int `json:"claims"`
	Metrics int `json:"metrics"`
	Other   int `json:"other"`
	Total   int `json:"total"`
}

// compareConfig is one config's summary: its counts and the causes of
// its cells' changes.
type compareConfig struct {
	Config string              `json:"config"`
	Counts compareCounts       `json:"counts"`
	Causes []report.CauseCount `json:"causes"`
}

func compareJSON(old, now string, c *report.Comparison) compareOut {
	d := report.NewDiff(c.Changes)
	out := compareOut{SchemaVersion: jsonSchemaVersion, Old: old, New: now, Changed: len(c.Changes) > 0,
		Changes: c.Changes, NotCompared: c.NotCompared, Configs: []compareConfig{}}
	if out.Changes == nil {
		out.Changes = []report.Change{}
	}
	if out.NotCompared == nil {
		out.NotCompared = []string{}
	}
	for _, cd := range d.Configs {
		cc := compareConfig{Config: cd.Config, Causes: cd.Causes,
			Counts: compareCounts{Claims: len(cd.Claims), Metrics: len(cd.Metrics), Other: len(cd.Other)}}
		cc.Counts.Total = cc.Counts.Claims + cc.Counts.Metrics + cc.Counts.Other
		if cc.Causes == nil {
			cc.Causes = []report.CauseCount{}
		}
		out.Configs = append(out.Configs, cc)
	}
	out.Counts.Claims, out.Counts.Metrics, out.Counts.Other = d.Counts()
	out.Counts.Total = out.Counts.Claims + out.Counts.Metrics + out.Counts.Other
	return out
}

// statusOut is runexp status --json (docs/schemas/status.schema.json).
type statusOut struct {
	SchemaVersion int               `json:"schema_version"`
	Configs       []statusConfig    `json:"configs"`
	Totals        statusTotals      `json:"totals"`
	Prediction    *statusPrediction `json:"prediction"`
	Errors        []statusError     `json:"errors"`
	ExitStatus    int               `json:"exit_status"`
}

type statusConfig struct {
	Config      string         `json:"config"`
	File        string         `json:"file"`
	Cells       int            `json:"cells"`
	Cached      int            `json:"cached"`
	ToCompute   int            `json:"to_compute"`
	Reasons     []statusReason `json:"reasons"`
	CachedCells []string       `json:"cached_cells,omitempty"`
	Data        statusData     `json:"data"`
}

// statusReason is the cells of a config computed for one reason: the
// causes (runner.Reason.Why), the text, and the cells by label and key.
type statusReason struct {
	Why   []string `json:"why"`
	Text  string   `json:"text"`
	Cells []string `json:"cells"`
	Keys  []string `json:"keys"`
}

type statusData struct {
	Needed    bool   `json:"needed"`
	Files     int    `json:"files"`
	Checked   int    `json:"checked"`
	Bytes     int64  `json:"bytes"`
	Unchecked string `json:"unchecked,omitempty"`
	Error     string `json:"error,omitempty"`
}

type statusTotals struct {
	Configs      int            `json:"configs"`
	Cells        int            `json:"cells"`
	Cached       int            `json:"cached"`
	ToCompute    int            `json:"to_compute"`
	Computations int            `json:"computations"`
	ByCause      map[string]int `json:"by_cause"`
}

// statusPrediction is the predicted wall time of the computations on
// Workers workers, from the recorded costs of all but Unknown of them;
// Earlier of those costs are earlier runs' (the cache had none), from
// the files EarlierFrom.
type statusPrediction struct {
	Workers     int      `json:"workers"`
	Seconds     float64  `json:"seconds"`
	WorkSeconds float64  `json:"work_seconds"`
	Unknown     int      `json:"unknown"`
	Earlier     int      `json:"earlier"`
	EarlierFrom []string `json:"earlier_from"`
}

type statusError struct {
	Config string `json:"config,omitempty"`
	Error  string `json:"error"`
}

// statusFailed is the JSON of a dry run that stopped on err.
func statusFailed(err error, code int) statusOut {
	return statusOut{SchemaVersion: jsonSchemaVersion, Configs: []statusConfig{}, Totals: statusTotals{ByCause: map[string]int{}},
		Errors: []statusError{{Error: err.Error()}}, ExitStatus: code}
}

func statusJSON(rep *suite.DryRunReport, workers int, listCached bool, code int) statusOut {
	out := statusOut{SchemaVersion: jsonSchemaVersion, Configs: []statusConfig{}, Errors: []statusError{}, ExitStatus: code}
	for _, cp := range rep.Configs {
		sc := statusConfig{Config: cp.Config.Name, File: cp.Config.File, Cells: len(cp.Cells), Reasons: []statusReason{}}
		for i, c := range cp.Cells {
			if c.Cached {
				sc.Cached++
				if listCached {
					sc.CachedCells = append(sc.CachedCells, cp.Labels[i])
				}
			} else {
				sc.ToCompute++
			}
		}
		for _, g := range reasonGroups(cp) {
			sc.Reasons = append(sc.Reasons, statusReason{Why: g.why, Text: g.text, Cells: g.cells, Keys: g.keys})
		}
		d := cp.Data
		sc.Data = statusData{Needed: d.Needed, Files: d.Files, Checked: d.Checked, Bytes: d.Bytes, Unchecked: d.Unchecked}
		if d.Err != nil {
			sc.Data.Error = d.Err.Error()
		}
		out.Configs = append(out.Configs, sc)
	}
	for _, de := range rep.DataErrors() {
		out.Errors = append(out.Errors, statusError{Config: de.Config, Error: de.Err.Error()})
	}
	cells, cached, run, distinct := rep.Counts()
	out.Totals = statusTotals{Configs: len(rep.Configs), Cells: cells, Cached: cached, ToCompute: run, Computations: distinct, ByCause: map[string]int{}}
	for _, w := range rep.WhyCounts() {
		out.Totals.ByCause[w.Why] = w.Cells
	}
	if run > rep.Stopped() {
		w, unknown := rep.Workload()
		if w.Cells() > 0 {
			n, from := rep.Earlier()
			out.Prediction = &statusPrediction{Workers: workers, Seconds: w.Predict(workers).Seconds, WorkSeconds: w.Work(), Unknown: unknown,
				Earlier: n, EarlierFrom: append([]string{}, from...)}
		}
	}
	return out
}

// listOut is runexp list --json (docs/schemas/list.schema.json): the
// sections asked for, the others left out.
type listOut struct {
	SchemaVersion int              `json:"schema_version"`
	Estimators    []listEstimator  `json:"estimators,omitempty"`
	Kinds         []listNamed      `json:"kinds,omitempty"`
	Datasets      []listDataset    `json:"datasets,omitempty"`
	ConfigsDir    string           `json:"configs_dir,omitempty"`
	Configs       []listConfig     `json:"configs,omitempty"`
	Collections   []listCollection `json:"collections,omitempty"`
	Unreadable    []listUnreadable `json:"unreadable,omitempty"`
}

type listEstimator struct {
	Name   string      `json:"name"`
	Title  string      `json:"title"`
	Doc    string      `json:"doc"`
	Params []listParam `json:"params"`
}

type listParam struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Default any    `json:"default"`
	Doc     string `json:"doc"`
}

type listNamed struct {
	Name string `json:"name"`
	Doc  string `json:"doc"`
}

type listDataset struct {
	Name      string `json:"name"`
	Doc       string `json:"doc"`
	NeedsRoot bool   `json:"needs_root"`
}

type listConfig struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	File  string `json:"file"`
}

type listCollection struct {
	Name    string   `json:"name"`
	Title   string   `json:"title"`
	File    string   `json:"file"`
	Members []string `json:"members"`
}

type listUnreadable struct {
	Name  string `json:"name"`
	File  string `json:"file"`
	Error string `json:"error"`
}

// listJSON gathers what runexp list prints of the sections what; quiet,
// as for the text, turns a configs folder that is not there into no
// configs when everything was asked for.
func listJSON(what []string, dir string, quiet bool) (listOut, error) {
	out := listOut{SchemaVersion: jsonSchemaVersion}
	for _, w := range what {
		switch w {
		case "estimators":
			out.Estimators = []listEstimator{}
			for _, s := range methods.All() {
				e := listEstimator{Name: s.Name, Title: s.Title, Doc: s.Doc, Params: []listParam{}}
				for _, p := range s.Params {
					e.Params = append(e.Params, listParam{Name: p.Name, Kind: fmt.Sprint(p.Kind), Default: p.Default, Doc: p.Doc})
				}
				out.Estimators = append(out.Estimators, e)
			}
		case "kinds":
			out.Kinds = []listNamed{}
			for _, k := range runner.Kinds() {
				out.Kinds = append(out.Kinds, listNamed{Name: k.Name, Doc: k.Doc})
			}
		case "datasets":
			out.Datasets = []listDataset{}
			for _, d := range runner.Datasets() {
				out.Datasets = append(out.Datasets, listDataset{Name: d.Name, Doc: d.Doc, NeedsRoot: d.NeedsRoot})
			}
		case "configs":
			cdir, _ := configsDir(dir)
			ls, err := suite.List(cdir)
			if err != nil {
				if quiet {
					continue
				}
				return out, err
			}
			out.ConfigsDir = cdir
			out.Configs, out.Collections = []listConfig{}, []listCollection{}
			for _, l := range ls {
				switch {
				case l.Err != nil:
					out.Unreadable = append(out.Unreadable, listUnreadable{Name: l.Name, File: l.File, Error: l.Err.Error()})
				case l.Members != nil:
					out.Collections = append(out.Collections, listCollection{Name: l.Name, Title: l.Title, File: l.File, Members: l.Members})
				default:
					out.Configs = append(out.Configs, listConfig{Name: l.Name, Title: l.Title, File: l.File})
				}
			}
		}
	}
	return out, nil
}
