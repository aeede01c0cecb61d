package paperreport

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/safefs"
)

// claim is a claim's verdict as claims.json holds it: claims.Result, the
// type that writes it (attribution, attribution_evidence and
// cannot_discriminate are empty in results written before runexp
// recorded them).
type claim = claims.Result

// run is what the results root holds for one config.
type run struct {
	Config *config.Config
	Dir    string // the config's result folder
	// Ran: the folder has claims.json or records.jsonl.
	Ran    bool
	Claims []claim
	// Cells and Failed count records.jsonl's records and those whose
	// status is not ok.
	Cells, Failed int
	HasRecords    bool
	Manifest      *report.Manifest // nil without manifest.json
	// Revision is a baseline folder's revision.json where it describes
	// the records beside it (report.ReadBaselineRevision); nil otherwise.
	Revision *report.BaselineRevision
	Tables   string // tables.md, "" without it
	Figures  []figure
}

// figure is a figure file of a run with its embedded caption, its size
// and the height of its smallest label in its own pixels (0 when the PNG
// does not say).
type figure struct {
	File, Caption string
	TextPx        float64
	W, H          int
}

// suiteRun is the part of suite.json's runs a report reads.
type suiteRun struct {
	Name       string  `json:"name"`
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpu_seconds"`
	Cells      int     `json:"cells"`
	Computed   int     `json:"computed"`
	Cached     int     `json:"cached"`
	Failed     int     `json:"failed"`
	Crashed    int     `json:"crashed"`
}

// suiteFile is the part of suite.json a report reads.
type suiteFile struct {
	Seconds    float64    `json:"seconds"`
	Workers    int        `json:"workers"`
	CPUSeconds float64    `json:"cpu_seconds"`
	Runs       []suiteRun `json:"runs"`
}

// loadRun reads the results of c under root. Every file is read as a run
// reads its inputs (package safefs): a regular file of bounded size, and
// only inside root: a result folder or file that is a link leading out of
// it is refused, naming it, rather than quoted into the report.
func loadRun(root string, c *config.Config) (*run, error) {
	r := &run{Config: c, Dir: filepath.Join(root, c.Name)}
	switch err := safefs.CheckInside(root, r.Dir); {
	case errors.Is(err, fs.ErrNotExist):
		return r, nil // not run
	case err != nil:
		return nil, err
	}
	b, err := safefs.ReadFileIn(root, filepath.Join(r.Dir, "claims.json"), report.MaxJSONBytes)
	switch {
	case err == nil:
		r.Ran = true
		if err := json.Unmarshal(b, &r.Claims); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(r.Dir, "claims.json"), err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	if err := r.countRecords(root); err != nil {
		return nil, err
	}
	switch m, err := report.ReadManifest(root, filepath.Join(r.Dir, "manifest.json")); {
	case err == nil:
		r.Manifest = m
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	if r.Revision, err = report.ReadBaselineRevision(root, r.Dir); err != nil {
		return nil, err
	}
	switch b, err := safefs.ReadFileIn(root, filepath.Join(r.Dir, "tables.md"), report.MaxJSONBytes); {
	case err == nil:
		r.Tables = string(b)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	return r, r.loadFigures(root)
}

// countRecords counts the records of the run's records.jsonl and those
// not ok, reading one record at a time (report.EachRecord's bounds).
func (r *run) countRecords(root string) error {
	path := filepath.Join(r.Dir, "records.jsonl")
	switch err := safefs.CheckInside(root, path); {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	}
	r.Ran, r.HasRecords = true, true
	return report.EachRecord(path, func(_ int, rec *report.Record) error {
		r.Cells++
		if rec.Status != report.StatusOK {
			r.Failed++
		}
		return nil
	})
}

// loadFigures reads the captions of the run's figures: the regular .png
// files of its folder (links are not followed), each read only as far as
// its caption (report.ReadCaption).
func (r *run) loadFigures(root string) error {
	ents, _ := os.ReadDir(r.Dir)
	for _, e := range ents {
		n := e.Name()
		if !e.Type().IsRegular() || strings.HasPrefix(n, ".") || filepath.Ext(n) != ".png" {
			continue
		}
		cap, err := report.ReadCaption(filepath.Join(r.Dir, n))
		if err != nil {
			return err
		}
		px, w, h := pngFacts(filepath.Join(r.Dir, n))
		r.Figures = append(r.Figures, figure{File: n, Caption: cap, TextPx: px, W: w, H: h})
	}
	return nil
}

// loadSuite reads root/suite.json; nil when there is none (baseline/).
func loadSuite(root string) (*suiteFile, error) {
	var s suiteFile
	if ok, err := report.ReadOptionalJSON(root, filepath.Join(root, "suite.json"), &s); !ok || err != nil {
		return nil, err
	}
	return &s, nil
}

// Papers returns the papers the configs of the folder configs name, sorted,
// leaving out collections and configs of no paper-values file (the
// cross-paper matrix).
func Papers(configs string) ([]string, error) {
	cfgs, err := loadConfigs(configs)
	if err != nil {
		return nil, err
	}
	var ps []string
	for _, c := range cfgs {
		if citesPaperValues(c) && !slices.Contains(ps, c.Paper) {
			ps = append(ps, c.Paper)
		}
	}
	slices.Sort(ps)
	return ps, nil
}

// citesPaperValues reports whether a claim of c cites its paper's
// paper-values file.
func citesPaperValues(c *config.Config) bool {
	for _, cl := range c.Claims {
		if strings.Contains(cl.Source, "paper-values/"+c.Paper+".yaml") {
			return true
		}
	}
	return false
}

// loadConfigs reads every config (not collection) of the folder, in name
// order.
func loadConfigs(dir string) ([]*config.Config, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("paperreport: no configs (*.yaml) in %s", dir)
	}
	var cs []*config.Config
	for _, f := range files {
		if config.IsCollection(f) {
			continue
		}
		c, err := config.Load(f)
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	return cs, nil
}
