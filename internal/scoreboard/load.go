package scoreboard

import (
	"fmt"
	"path/filepath"

	"github.com/runexp/runexp/internal/config"
)

// Load reads every configs/*.yaml and builds the board of the results
// under root. Paper titles and claims come from paperValues/<paper>.yaml
// (citation.title, claims); a paper without that file is headed by its id
// and not accounted for. The accounting files configsDir/accounting/*.yaml
// declare the paper claims no config tests (BuildWith).
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
		c, err := config.Load(f)
		if err != nil {
			return nil, err
		}
		cfgs = append(cfgs, c)
	}
	title := func(paper string) string {
		if paperValues == "" {
			return ""
		}
		t, err := config.PaperTitle(filepath.Join(paperValues, paper+".yaml"))
		if err != nil {
			return ""
		}
		return t
	}
	in := Inputs{Title: title, Accounting: map[string]*config.Accounting{}}
	if paperValues != "" {
		in.Claims = func(paper string) ([]config.PaperClaim, bool) {
			cs, err := config.PaperClaims(filepath.Join(paperValues, paper+".yaml"))
			return cs, err == nil && len(cs) > 0
		}
	}
	accs, err := filepath.Glob(filepath.Join(configsDir, "accounting", "*.yaml"))
	if err != nil {
		return nil, fmt.Errorf("scoreboard: %w", err)
	}
	for _, f := range accs {
		a, err := config.LoadAccounting(f)
		if err != nil {
			return nil, err
		}
		if prev, dup := in.Accounting[a.Paper]; dup {
			return nil, fmt.Errorf("scoreboard: %s and %s both account for paper %s", prev.File, f, a.Paper)
		}
		in.Accounting[a.Paper] = a
	}
	return BuildWith(cfgs, root, in)
}
