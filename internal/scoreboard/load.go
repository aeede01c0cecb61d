package scoreboard

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/runexp/runexp/internal/config"
)

// Load reads every configs/*.yaml and builds the board of the results
// under root. Paper titles and claims come from paperValues/<paper>.yaml
// (citation.title, claims); a paper without that file is headed by its id,
// listed, with the reason, in Board.Untitled, and not accounted for. A
// file that is there but cannot be read or parsed is an error: the
// board would otherwise count that paper with no claims. The
// accounting files configsDir/accounting/*.yaml declare the paper claims
// no config tests (BuildWith). Collections among the files are left out
// (they state no claim); AddSet gives each its section.
func Load(configsDir, root, paperValues string) (*Board, error) {
	files, err := filepath.Glob(filepath.Join(configsDir, "*.yaml"))
	if err != nil {
		return nil, fmt.Errorf("scoreboard: %w", err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("scoreboard: no configs (*.yaml) in %s", configsDir)
	}
	cfgs := make([]*config.Config, 0, len(files))
	for _, f := range files { // Glob sorts
		if config.IsCollection(f) {
			continue
		}
		c, err := config.Load(f)
		if err != nil {
			return nil, err
		}
		cfgs = append(cfgs, c)
	}
	untitled := map[string]string{}
	// broken holds, by paper, why a paper-values file that is there
	// could not be read (bad YAML, too large, an alias bomb, no regular
	// file): counting that paper with no claims would shrink the totals
	// without a word, so it is an error of the board, never a warning.
	broken := map[string]error{}
	note := func(paper string, err error) {
		if err != nil && !errors.Is(err, fs.ErrNotExist) && broken[paper] == nil {
			broken[paper] = err
		}
	}
	title := func(paper string) string {
		if paperValues == "" {
			return ""
		}
		// A file without a title heads the paper by its id (a warning);
		// one that cannot be read fails its claims below.
		t, err := config.PaperTitle(filepath.Join(paperValues, paper+".yaml"))
		if err != nil {
			untitled[paper] = fmt.Sprintf("%s: %v", paper, err)
			return ""
		}
		return t
	}
	in := Inputs{Title: title, Accounting: map[string]*config.Accounting{}}
	if paperValues != "" {
		in.Claims = func(paper string) ([]config.PaperClaim, bool) {
			cs, err := config.PaperClaims(filepath.Join(paperValues, paper+".yaml"))
			note(paper, err)
			return cs, err == nil && len(cs) > 0
		}
		in.Ambiguities = func(paper string) ([]config.Ambiguity, bool) {
			info, err := config.ReadPaperInfo(filepath.Join(paperValues, paper+".yaml"))
			if err != nil {
				note(paper, err)
				return nil, false
			}
			return info.Ambiguities, true
		}
	}
	if err := loadAccounting(configsDir, in.Accounting); err != nil {
		return nil, err
	}
	b, err := BuildWith(cfgs, root, in)
	if err != nil {
		return nil, err
	}
	for _, p := range b.Papers {
		if err := broken[p.ID]; err != nil {
			return nil, fmt.Errorf("scoreboard: the paper values of %s cannot be read, so its claims cannot be counted: %w", p.ID, err)
		}
	}
	// Only the papers the board shows need a title (the matrix states no
	// claim and has no paper values).
	for _, p := range b.Papers {
		if u, ok := untitled[p.ID]; ok {
			b.Untitled = append(b.Untitled, u)
		}
	}
	return b, nil
}

// loadAccounting reads configsDir/accounting/*.yaml into acc, by paper.
func loadAccounting(configsDir string, acc map[string]*config.Accounting) error {
	files, err := filepath.Glob(filepath.Join(configsDir, "accounting", "*.yaml"))
	if err != nil {
		return fmt.Errorf("scoreboard: %w", err)
	}
	for _, f := range files {
		a, err := config.LoadAccounting(f)
		if err != nil {
			return err
		}
		if prev, dup := acc[a.Paper]; dup {
			return fmt.Errorf("scoreboard: %s and %s both account for paper %s", prev.File, f, a.Paper)
		}
		acc[a.Paper] = a
	}
	return nil
}
