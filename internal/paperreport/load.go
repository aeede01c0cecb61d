package paperreport

import (
	"bufio"
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
	Tables        string           // tables.md, "" without it
	Figures       []figure
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

// loadRun reads the results of c under root.
func loadRun(root string, c *config.Config) (*run, error) {
	r := &run{Config: c, Dir: filepath.Join(root, c.Name)}
	b, err := os.ReadFile(filepath.Join(r.Dir, "claims.json"))
	switch {
	case err == nil:
		r.Ran = true
		if err := json.Unmarshal(b, &r.Claims); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(r.Dir, "claims.json"), err)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	if f, err := os.Open(filepath.Join(r.Dir, "records.jsonl")); err == nil {
		r.Ran, r.HasRecords = true, true
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<30)
		for sc.Scan() {
			var rec struct {
				Status string `json:"status"`
			}
			if len(strings.TrimSpace(sc.Text())) == 0 {
				continue
			}
			if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
				f.Close()
				return nil, fmt.Errorf("%s: %w", filepath.Join(r.Dir, "records.jsonl"), err)
			}
			r.Cells++
			if rec.Status != "ok" {
				r.Failed++
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if b, err := os.ReadFile(filepath.Join(r.Dir, "manifest.json")); err == nil {
		var m report.Manifest
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(r.Dir, "manifest.json"), err)
		}
		r.Manifest = &m
	}
	if b, err := os.ReadFile(filepath.Join(r.Dir, "tables.md")); err == nil {
		r.Tables = string(b)
	}
	ents, _ := os.ReadDir(r.Dir)
	for _, e := range ents {
		n := e.Name()
		if !e.Type().IsRegular() || strings.HasPrefix(n, ".") || filepath.Ext(n) != ".png" {
			continue
		}
		cap, err := report.ReadCaption(filepath.Join(r.Dir, n))
		if err != nil {
			return nil, err
		}
		px, w, h := pngFacts(filepath.Join(r.Dir, n))
		r.Figures = append(r.Figures, figure{File: n, Caption: cap, TextPx: px, W: w, H: h})
	}
	return r, nil
}

// loadSuite reads root/suite.json; nil when there is none (baseline/).
func loadSuite(root string) (*suiteFile, error) {
	b, err := os.ReadFile(filepath.Join(root, "suite.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var s suiteFile
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(root, "suite.json"), err)
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
