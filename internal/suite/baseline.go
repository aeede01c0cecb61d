package suite

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/runexp/runexp/internal/report"
)

// CompareBaseline compares each config run with its run directory in
// baseline: only what ran is compared, so a partial suite reports no
// "missing run" for the configs it skipped. A config the baseline lacks
// is a change ("new run", absent → present).
func CompareBaseline(baseline string, runs []ConfigRun, o report.CompareOptions) ([]report.Change, error) {
	var all []report.Change
	for _, r := range runs {
		if r.Error != "" {
			continue
		}
		old := filepath.Join(baseline, r.Name)
		if _, err := os.Stat(filepath.Join(old, "records.jsonl")); err != nil {
			all = append(all, report.Change{Config: r.Name, What: "new run", Old: "absent", New: "present"})
			continue
		}
		ch, err := report.CompareResults(old, r.Dir, o)
		if err != nil {
			return nil, err
		}
		for i := range ch {
			ch[i].Config = r.Name
		}
		all = append(all, ch...)
	}
	return all, nil
}

// AddedCells is one line of the "added by --with, not compared" list.
type AddedCells struct {
	Config string `json:"config"`
	Method string `json:"method"` // the label its records carry
	Spec   string `json:"spec"`   // the --with SPEC as given
	Cells  int    `json:"cells"`
}

// SetAsideAdded takes out of ch the "new cell" changes of the methods
// added by --with and counts them per config and method instead: a
// baseline holds the configs' own methods, so the added cells are new by
// construction, and only the rest — the papers' methods, their claims —
// says whether adding an estimator moved anything. A run is matched to
// its entry by name. A cell of an added method that the baseline does
// have (a baseline written with the method in the file) is compared as
// any other.
func SetAsideAdded(ch []report.Change, runs []ConfigRun, entries []Entry) ([]report.Change, []AddedCells, error) {
	byName := map[string][]report.WithSpec{}
	for _, e := range entries {
		byName[e.Config.Name] = e.Added
	}
	// addedKey maps config → cell key → index into out.
	addedKey := map[string]map[string]int{}
	var out []AddedCells
	for _, r := range runs {
		if r.Error != "" {
			continue
		}
		idx := map[string]int{} // label → index into out
		for _, w := range byName[r.Name] {
			if w.Skipped != "" {
				continue
			}
			idx[w.Label] = len(out)
			out = append(out, AddedCells{Config: r.Name, Method: w.Label, Spec: w.Spec})
		}
		if len(idx) == 0 {
			continue
		}
		recs, err := report.ReadJSONL(filepath.Join(r.Dir, "records.jsonl"))
		if err != nil {
			return nil, nil, err
		}
		keys := map[string]int{}
		for _, rec := range recs {
			if i, ok := idx[rec.Method()]; ok {
				keys[rec.Key] = i
			}
		}
		addedKey[r.Name] = keys
	}
	var kept []report.Change
	for _, c := range ch {
		if i, ok := addedKey[c.Config][c.Key]; ok && c.What == "new cell" {
			out[i].Cells++
			continue
		}
		kept = append(kept, c)
	}
	return kept, out, nil
}

// AddedTable lists the cells SetAsideAdded took out of the comparison.
func AddedTable(a []AddedCells) *report.Table {
	t := &report.Table{Title: "Added by --with, not compared", Header: []string{"Config", "Method", "--with", "Cells"}}
	n := 0
	for _, x := range a {
		t.Rows = append(t.Rows, []string{x.Config, x.Method, x.Spec, fmt.Sprint(x.Cells)})
		n += x.Cells
	}
	t.Caption = fmt.Sprintf("%d cells of estimators added by --with: the baseline holds the configs' own methods only, so these are neither compared nor counted as changes.", n)
	return t
}

// WriteBaselines writes the records and claims of every run without an
// error into dir/NAME (refreshing a baseline), with the costs of its
// cells' units (costs.json: runs of the config are planned from them),
// and the figure files of a config of the stated protocol (keepFigures),
// so that its report built from the baseline alone shows them; a run that cannot be written does not keep
// the others from being written.
func WriteBaselines(runs []ConfigRun, entries []Entry, dir string) error {
	machine := ""
	if m := report.NewManifest().Machine; m != nil {
		machine = fmt.Sprintf("%s, %d cores", m.CPUModel, m.Cores)
	}
	var errs []error
	for _, r := range runs {
		if r.Error != "" {
			continue
		}
		if err := report.WriteBaseline(r.Dir, filepath.Join(dir, r.Name), keepFigures(r, entries)); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := writeCosts(r, filepath.Join(dir, r.Name), machine); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// writeDiffPage writes root/changes.html, the comparison with the
// baseline as a page (report.Diff), and returns its path.
func writeDiffPage(root, baseline string, ch []report.Change) (string, error) {
	var b bytes.Buffer
	title := "Changes against the baseline in " + filepath.Clean(baseline) + string(filepath.Separator)
	if err := report.NewDiff(ch).RenderHTML(&b, title); err != nil {
		return "", err
	}
	file := filepath.Join(root, "changes.html")
	if err := report.WriteFileAtomic(file, b.Bytes()); err != nil {
		return "", fmt.Errorf("changes.html: %w", err)
	}
	return file, nil
}

// keepFigures says whether the baseline keeps the figure files of run r:
// those of a config of the stated protocol, which a paper's report shows
// beside the paper's (a variant's it does not). A run of no entry keeps
// none.
func keepFigures(r ConfigRun, entries []Entry) bool {
	for _, e := range entries {
		if e.Config != nil && e.Config.Name == r.Name {
			return e.Config.VariantOf == ""
		}
	}
	return false
}
