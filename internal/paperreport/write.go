package paperreport

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/safefs"
)

// Write builds paper's report and writes REPORT.md, report.html,
// metadata.yaml and bibliography.bib into dir, as WriteUnder does with
// dir's parent as top.
func Write(o Options, paper, dir string) ([]string, error) {
	return WriteUnder(o, paper, filepath.Dir(dir), dir)
}

// WriteUnder builds paper's report and writes REPORT.md, report.html,
// metadata.yaml and bibliography.bib as one set: into a staging folder beside dir that then
// replaces dir as a whole (report.CommitDir), so that an interruption
// leaves the old three files or the new three, never a new REPORT.md
// beside an old report.html; what an interrupted write left beside dir is
// put back or removed first (report.CleanStale). dir must lie under top
// (the folder the user named: --out, or the results root), and no folder
// from top down to dir, dir included, may be a symbolic link: the report
// is never written through one. It returns the files' paths.
func WriteUnder(o Options, paper, top, dir string) ([]string, error) {
	o.OutDir = dir
	r, err := Build(o, paper)
	if err != nil {
		return nil, err
	}
	if err := safefs.CheckUnder(top, dir); err != nil {
		return nil, err
	}
	report.CleanStale(dir)
	stage, err := report.StageDir(top, dir)
	if err != nil {
		return nil, err
	}
	committed := false
	defer func() {
		if !committed {
			os.RemoveAll(stage)
		}
	}()
	var files []string
	for name, body := range map[string]string{"REPORT.md": r.Markdown, "report.html": r.HTML, "metadata.yaml": r.Metadata, "bibliography.bib": r.Bibliography} {
		if err := report.WriteFileAtomic(filepath.Join(stage, name), []byte(body)); err != nil {
			return nil, err
		}
		files = append(files, filepath.Join(dir, name))
	}
	if err := report.CommitDir(stage, dir); err != nil {
		return nil, err
	}
	committed = true
	slices.Sort(files)
	return files, nil
}
