package suite

import (
	"path"
	"path/filepath"

	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/scoreboard"
)

// WriteIndexes refreshes the index of root, where the runs wrote, and,
// when that is a --with folder inside out, out's index too, which links
// it; the --with folder's page links back up (no link when the relative
// path cannot be formed). It returns the pages written; a broken sibling
// result directory must not fail a run that succeeded, so the caller
// logs the error rather than failing.
func WriteIndexes(out, root string) (written []string, err error) {
	if filepath.Clean(root) == filepath.Clean(out) {
		if err := report.WriteIndexUp(root, ""); err != nil {
			return nil, err
		}
		return []string{filepath.Join(root, "index.html")}, nil
	}
	var up string
	if rel, err := filepath.Rel(root, out); err == nil {
		up = path.Join(filepath.ToSlash(rel), "index.html")
	}
	if err := report.WriteIndexUp(root, up); err != nil {
		return nil, err
	}
	written = append(written, filepath.Join(root, "index.html"))
	if err := report.WriteIndexUp(out, ""); err != nil {
		return written, err
	}
	return append(written, filepath.Join(out, "index.html")), nil
}

// PaperValuesDir is where the paper-values YAML files sit for a configs
// directory of this repository: ../shared/paper-values beside it.
func PaperValuesDir(configs string) string {
	return filepath.Join(configs, "..", "..", "shared", "paper-values")
}

// WriteScoreboard writes out/scoreboard.md and out/scoreboard.html from
// the results under out, for the suite's index page, and returns the
// HTML page's path. A partial run lists the configs it did not run as not
// run.
func WriteScoreboard(configs, out string) (string, error) {
	b, err := scoreboard.Load(configs, out, PaperValuesDir(configs))
	if err != nil {
		return "", err
	}
	o := scoreboard.Options{Command: "runexp suite (scoreboard of " + filepath.ToSlash(out) + ")", ConfigsDir: configs, LinkDir: out}
	if err := report.WriteFileAtomic(filepath.Join(out, "scoreboard.md"), b.Markdown(o)); err != nil {
		return "", err
	}
	page, err := b.HTML(o)
	if err != nil {
		return "", err
	}
	file := filepath.Join(out, "scoreboard.html")
	return file, report.WriteFileAtomic(file, page)
}
