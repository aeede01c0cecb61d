package suite

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/runexp/runexp/internal/config"
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
			if fi, err := os.Stat(filepath.Join(dir, p+".yaml")); err != nil || !fi.Mode().IsRegular() {
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
	return "", fmt.Errorf("paper values not found: the configs of %s cite %s, missing from %s (--paper-values DIR names the folder)",
		configs, strings.Join(firstMissing, ", "), strings.Join(tried, ", "))
}
