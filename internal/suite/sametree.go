package suite

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// pageTimes matches what an index page shows of its manifests' times: a
// run's provenance line (start, wall seconds, workers) and the wall
// seconds of a row of the results index (report.WriteIndexUp's template).
var pageTimes = regexp.MustCompile(`<p class="prov">[^\n]*</p>|<td class="r" data-label="Wall \(s\)">[0-9.]+</td>`)

// DiffTrees lists the files that differ between two results roots (or
// result directories), and those only one of them has, leaving out what
// holds the times of a run or is its own: manifest.json, suite.json, the
// manifests' times shown in index pages, the paper reports (reports/,
// which state the root's path and the runs' compute), shards/ and hidden
// files (the cache, locks, .shards). Two runs of the same configs, whatever -j,
// shard split or merge, must give none: that is what "byte-identical" means
// for a suite.
func DiffTrees(a, b string) ([]string, error) {
	la, err := treeFiles(a)
	if err != nil {
		return nil, err
	}
	lb, err := treeFiles(b)
	if err != nil {
		return nil, err
	}
	var diff []string
	for f := range la {
		if !lb[f] {
			diff = append(diff, f+" (only in "+a+")")
			continue
		}
		x, err := os.ReadFile(filepath.Join(a, f))
		if err != nil {
			return nil, err
		}
		y, err := os.ReadFile(filepath.Join(b, f))
		if err != nil {
			return nil, err
		}
		if filepath.Base(f) == "index.html" {
			x, y = pageTimes.ReplaceAll(x, []byte("<time/>")), pageTimes.ReplaceAll(y, []byte("<time/>"))
		}
		if !bytes.Equal(x, y) {
			diff = append(diff, f)
		}
	}
	for f := range lb {
		if !la[f] {
			diff = append(diff, f+" (only in "+b+")")
		}
	}
	sort.Strings(diff)
	return diff, nil
}

func treeFiles(root string) (map[string]bool, error) {
	m := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		// reports/ (runexp report, written by the suite) states the
		// results root's path and each run's compute (wall and CPU
		// seconds, peak memory, the machine) from the manifests and
		// suite.json, so it differs between any two runs like them; what
		// it takes from records and claims is compared in those files.
		if p != root && (name == "manifest.json" || name == "suite.json" || name == "shards" || strings.HasPrefix(name, ".") || (d.IsDir() && name == "reports" && filepath.Dir(p) == root)) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			m[rel] = true
		}
		return nil
	})
	return m, err
}
