package suite

import (
	"github.com/runexp/runexp/internal/safefs"

	"path"
	"path/filepath"
	"slices"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/scoreboard"
)

// WriteIndexes refreshes the index of root, where the runs wrote, with
// the papers' headlines of its scoreboard (Headlines; nil when none was
// computed), and, when root is a --with folder inside out, out's index
// too, which links it; the --with folder's page links back up (no link
// when the relative path cannot be formed). It returns the pages written;
// a broken sibling result directory must not fail a run that succeeded,
// so the caller logs the error rather than failing.
func WriteIndexes(out, root string, papers []report.IndexPaper) (written []string, err error) {
	if err := safefs.CheckUnder(out, root); err != nil {
		return nil, err
	}
	if filepath.Clean(root) == filepath.Clean(out) {
		if err := report.WriteIndexWith(root, report.IndexOptions{Papers: papers}); err != nil {
			return nil, err
		}
		return []string{filepath.Join(root, "index.html")}, nil
	}
	var up string
	if rel, err := filepath.Rel(root, out); err == nil {
		up = path.Join(filepath.ToSlash(rel), "index.html")
	}
	if err := report.WriteIndexWith(root, report.IndexOptions{Up: up, Papers: papers}); err != nil {
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

// LoadScoreboard builds the scoreboard of the results under root for the
// configs of the folder configs (scoreboard.Load), with the section of
// every collection of that folder (Board.AddSet; nested collections
// expanded). Papers whose title cannot be read from paperValues are in
// Board.Untitled.
func LoadScoreboard(configs, root, paperValues string) (*scoreboard.Board, error) {
	b, err := scoreboard.Load(configs, root, paperValues)
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(configs, "*.yaml"))
	if err != nil {
		return nil, err
	}
	for _, f := range files { // Glob sorts
		if !config.IsCollection(f) {
			continue
		}
		xs, cols, err := Expand([]string{f})
		if err != nil {
			return nil, err
		}
		var members []*config.Config
		for _, x := range xs {
			c, err := config.Load(x.File)
			if err != nil {
				return nil, err
			}
			members = append(members, c)
		}
		if err := b.AddSet(cols[0].Name, cols[0].Title, members); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// Headlines are the papers of board b as the results index shows them:
// each one's headline (scoreboard.Headline) and the counts behind it, in
// the board's order. A nil board has none.
func Headlines(b *scoreboard.Board) []report.IndexPaper {
	if b == nil {
		return nil
	}
	var out []report.IndexPaper
	for _, p := range b.Papers {
		mark, why := scoreboard.Headline(p)
		out = append(out, report.IndexPaper{ID: p.ID, Title: p.Title, Mark: mark, Why: why})
	}
	return out
}

// WriteScoreboard writes out/scoreboard.md and out/scoreboard.html from
// the results under out, for the index page of a suite or of a
// collection's run, and returns the board and the HTML page's path. A
// partial run lists the configs it did not run as not run.
func WriteScoreboard(configs, out string) (*scoreboard.Board, string, error) {
	pv, err := SuitePaperValues(configs)
	if err != nil {
		return nil, "", err
	}
	b, err := LoadScoreboard(configs, out, pv)
	if err != nil {
		return nil, "", err
	}
	o := scoreboard.Options{Command: "runexp suite (scoreboard of " + filepath.ToSlash(out) + ")", ConfigsDir: configs, LinkDir: out}
	if err := report.WriteFileAtomic(filepath.Join(out, "scoreboard.md"), b.Markdown(o)); err != nil {
		return nil, "", err
	}
	page, err := b.HTML(o)
	if err != nil {
		return nil, "", err
	}
	file := filepath.Join(out, "scoreboard.html")
	return b, file, report.WriteFileAtomic(file, page)
}

// WriteSets writes the scoreboard of the results under root (as
// WriteScoreboard) when some of entries came from collections (Entry.Via),
// and returns the section of each collection named on the command line
// (the outermost of each entry's Via), in the order met, with the HTML
// page's path and the board. Without collections it writes nothing and
// returns nil.
func WriteSets(entries []Entry, root string) ([]scoreboard.Set, string, *scoreboard.Board, error) {
	var names []string
	dir := ""
	for _, e := range entries {
		if len(e.Via) == 0 {
			continue
		}
		if !slices.Contains(names, e.Via[0]) {
			names = append(names, e.Via[0])
		}
		if dir == "" {
			// A collection's members sit beside it, in its configs
			// folder.
			dir = filepath.Dir(e.Config.File)
		}
	}
	if len(names) == 0 {
		return nil, "", nil, nil
	}
	b, file, err := WriteScoreboard(dir, root)
	if err != nil {
		return nil, "", nil, err
	}
	var sets []scoreboard.Set
	for _, n := range names {
		for _, s := range b.Sets {
			if s.Name == n {
				sets = append(sets, s)
			}
		}
	}
	return sets, file, b, nil
}
