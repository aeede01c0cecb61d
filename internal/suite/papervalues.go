package suite

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/safefs"
)

// PaperValuesNeeded returns the papers whose paper-values file the configs
// of the folder configs cite (a claim whose source is
// paper-values/<paper>.yaml#…), sorted: the files the scoreboard and the
// reports read titles and claims from.
func PaperValuesNeeded(configs string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(configs, "*.yaml"))
	if err != nil {
		return nil, err
	}
	var papers []string
	for _, f := range files {
		if config.IsCollection(f) {
			continue
		}
		c, err := config.Load(f)
		if err != nil {
			return nil, err
		}
		for _, cl := range c.Claims {
			if strings.Contains(cl.Source, "paper-values/"+c.Paper+".yaml") && !slices.Contains(papers, c.Paper) {
				papers = append(papers, c.Paper)
			}
		}
	}
	slices.Sort(papers)
	return papers, nil
}

// FindPaperValues returns the folder of the paper-values files for the
// configs of the folder configs. The configs cite them as
// ../shared/paper-values/<paper>.yaml from the checkout; given ("" for
// none, the --paper-values flag) is used alone when set. Otherwise the
// folders tried, in order, are shared/paper-values beside the checkout
// (PaperValuesDir), beside each folder above it, and beside the data root
// ($RUNEXP_DATA/../paper-values: the data and the paper values are both in
// shared/). The first that holds every cited file is returned; when none
// does, the error names the files missing and the folders tried, so that a
// scoreboard never counts a different set of claims for want of a file.
func FindPaperValues(configs, given string) (string, error) {
	return findPaperValues(configs, given, "--paper-values DIR names the folder")
}

// SuitePaperValues is FindPaperValues for the commands without a
// --paper-values flag (runexp suite, a collection's run): its error says
// where they are looked for instead.
func SuitePaperValues(configs string) (string, error) {
	return findPaperValues(configs, "", "they are looked for in shared/paper-values beside the checkout or a folder above it, and beside $RUNEXP_DATA: put them there, or set RUNEXP_DATA to a data root beside them")
}

// findPaperValues is FindPaperValues whose error ends in hint.
func findPaperValues(configs, given, hint string) (string, error) {
	need, err := PaperValuesNeeded(configs)
	if err != nil {
		return "", err
	}
	var tried []string
	if given != "" {
		tried = []string{given}
	} else {
		tried = append(tried, PaperValuesDir(configs))
		if abs, err := filepath.Abs(filepath.Join(configs, "..", "..")); err == nil {
			for d := abs; ; d = filepath.Dir(d) {
				p := filepath.Join(d, "shared", "paper-values")
				if !slices.Contains(tried, p) && p != filepath.Clean(PaperValuesDir(configs)) {
					tried = append(tried, p)
				}
				if filepath.Dir(d) == d {
					break
				}
			}
		}
		if data := os.Getenv("RUNEXP_DATA"); data != "" {
			tried = append(tried, filepath.Join(data, "..", "paper-values"))
		}
	}
	var firstMissing []string
	for _, dir := range tried {
		var missing []string
		for _, p := range need {
			f := filepath.Join(dir, p+".yaml")
			fi, err := os.Stat(f)
			switch {
			case err == nil && !fi.Mode().IsRegular():
				// There, but no file to read (a link to /dev/zero, a
				// FIFO): say so, not "missing".
				return "", fmt.Errorf("paper values: %w; want the paper's YAML file", &safefs.NotRegularError{Path: f, Mode: fi.Mode()})
			case err != nil:
				missing = append(missing, p+".yaml")
			}
		}
		if len(missing) == 0 {
			return dir, nil
		}
		if firstMissing == nil {
			firstMissing = missing
		}
	}
	return "", fmt.Errorf("paper values not found: the configs of %s cite %s, missing from %s (%s)",
		configs, strings.Join(firstMissing, ", "), strings.Join(tried, ", "), hint)
}
