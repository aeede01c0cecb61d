package paperreport

import (
	"fmt"
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
// metadata.yaml, bibliography.bib and its figures as one set: into a staging folder beside dir that then
// replaces dir as a whole (report.CommitDir), so that an interruption
// leaves the old three files or the new three, never a new REPORT.md
// beside an old report.html; what an interrupted write left beside dir is
// put back or removed first (report.CleanStale). dir must lie under top
// (the folder the user named: --out, or the results root), and no folder
// from top down to dir, dir included, may be a symbolic link: the report
// is never written through one. It returns the files' paths.
func WriteUnder(o Options, paper, top, dir string) ([]string, error) {
	_, files, err := WriteReport(o, paper, top, dir)
	return files, err
}

// WriteReport is WriteUnder that also returns the report written, for
// a caller that shows its headline.
func WriteReport(o Options, paper, top, dir string) (*Report, []string, error) {
	o.OutDir = dir
	r, err := Build(o, paper)
	if err != nil {
		return nil, nil, err
	}
	files, err := writeSet(r, top, dir)
	if err != nil {
		return nil, nil, err
	}
	return r, files, nil
}

// writeSet writes report r's files into dir under top as one set.
func writeSet(r *Report, top, dir string) ([]string, error) {
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
	pages := map[string]string{articleMD: r.Markdown, articleHTML: r.HTML, "metadata.yaml": r.Metadata, "bibliography.bib": r.Bibliography}
	if r.AppendixMarkdown != "" {
		pages[appendixMD], pages[appendixHTML] = r.AppendixMarkdown, r.AppendixHTML
	}
	for name, body := range pages {
		if err := report.WriteFileAtomic(filepath.Join(stage, name), []byte(body)); err != nil {
			return nil, err
		}
		files = append(files, filepath.Join(dir, name))
	}
	// The figures, copied or drawn: the folder holds everything its
	// pages show.
	for name, body := range r.Files {
		if name != filepath.Base(name) || name == "." || name == ".." {
			return nil, fmt.Errorf("paperreport: figure name %q is not a file name", name)
		}
		if err := report.WriteFileAtomic(filepath.Join(stage, name), body); err != nil {
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
