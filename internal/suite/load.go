package suite

import (
	"fmt"
	"io"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// Entry is one config of a job, with the estimators --with added to it.
type Entry struct {
	Config *config.Config
	// Added is what each --with SPEC did in Config (added, or skipped
	// with the reason), for the manifest and a shard's provenance; nil
	// without --with.
	Added []report.WithSpec
}

// Load loads and validates every config before any runs (so a typo in
// the last does not surface after an hour of the first), adding the
// --with estimators to each; what AddWith skips is said on warn.
func Load(paths []string, with []*With, warn io.Writer) ([]Entry, error) {
	var es []Entry
	for _, p := range paths {
		c, err := config.Load(p)
		var a []report.WithSpec
		if err == nil {
			a, err = AddWith(c, with, warn)
		}
		if err == nil {
			_, err = runner.Validate(c)
		}
		if err != nil {
			return nil, err
		}
		es = append(es, Entry{Config: c, Added: a})
	}
	return es, nil
}

// CheckGlob reports whether g is a well-formed --only pattern (path.Match
// syntax).
func CheckGlob(g string) error {
	if _, err := path.Match(g, ""); err != nil {
		return fmt.Errorf("bad glob %q: %v", g, err)
	}
	return nil
}

// Select lists the configs of a suite: those named in args (files, or
// names of configs in dir), or else every *.yaml in dir; then those
// matching any of the globs in only (by name, the file's base name
// without .yaml).
func Select(dir string, args []string, only []string) ([]string, error) {
	var files []string
	if len(args) > 0 {
		for _, a := range args {
			if !strings.HasSuffix(a, ".yaml") && !strings.ContainsRune(a, filepath.Separator) {
				a = filepath.Join(dir, a+".yaml")
			}
			files = append(files, a)
		}
	} else {
		var err error
		files, err = filepath.Glob(filepath.Join(dir, "*.yaml"))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("no configs in %s (--configs DIR)", dir)
		}
		sort.Strings(files)
	}
	if len(only) == 0 {
		return files, nil
	}
	var out []string
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		for _, g := range only {
			if ok, _ := path.Match(g, name); ok {
				out = append(out, f)
				break
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--only %s matches none of the %d configs", strings.Join(only, ","), len(files))
	}
	return out, nil
}
