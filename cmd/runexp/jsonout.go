package main

import (
	"encoding/json"
	"io"

	"github.com/runexp/runexp/internal/report"
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
