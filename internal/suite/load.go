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
	// Via names the collections, outermost first, that brought the
	// config in; nil for a config named directly.
	Via []string
}

// Load loads and validates every config before any runs (so a typo in
// the last does not surface after an hour of the first), adding the
// --with estimators to each; what AddWith skips is said on warn. A
// collection among paths stands for its members (Expand); a config
// reached twice runs once.
func Load(paths []string, with []*With, warn io.Writer) ([]Entry, error) {
	xs, _, err := Expand(paths)
	if err != nil {
		return nil, err
	}
	var es []Entry
	for _, x := range xs {
		c, err := config.Load(x.File)
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
		es = append(es, Entry{Config: c, Added: a, Via: x.Via})
	}
	return es, nil
}

// CheckExternal refuses, before anything runs, entries whose configs'
// own methods run commands (runner.ExternalCommands) unless allow
// (--allow-external) is set: the error of the first such config, naming
// its file, line and command.
func CheckExternal(entries []Entry, allow bool) error {
	if allow {
		return nil
	}
	for _, e := range entries {
		if ext := runner.ExternalCommands(e.Config); len(ext) > 0 {
			return &runner.ExternalNotAllowedError{File: e.Config.File, Commands: ext}
		}
	}
	return nil
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
// names of configs and collections in dir: Resolve), collections
// expanded, in the order given; or else every config of dir in name
// order. With globs in only, it keeps the configs whose name, or the
// name of a collection that brought them in, matches one of them (a
// name is the file's base name without .yaml); without args, a
// collection of dir whose name matches brings in its members.
func Select(dir string, args []string, only []string) ([]string, error) {
	match := func(names ...string) bool {
		if len(only) == 0 {
			return true
		}
		for _, n := range names {
			for _, g := range only {
				if ok, _ := path.Match(g, n); ok {
					return true
				}
			}
		}
		return false
	}
	nameOf := func(f string) string { return strings.TrimSuffix(filepath.Base(f), ".yaml") }
	var files []string
	var total int
	if len(args) > 0 {
		named, err := ResolveAll(dir, args)
		if err != nil {
			return nil, err
		}
		xs, _, err := Expand(named)
		if err != nil {
			return nil, err
		}
		total = len(xs)
		for _, x := range xs {
			if match(append([]string{nameOf(x.File)}, x.Via...)...) {
				files = append(files, x.File)
			}
		}
	} else {
		all, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
		if err != nil {
			return nil, err
		}
		if len(all) == 0 {
			return nil, fmt.Errorf("no configs in %s (--configs DIR)", dir)
		}
		sort.Strings(all)
		seen := map[string]bool{}
		for _, f := range all {
			var xs []Expanded
			if config.IsCollection(f) {
				// Every member of a collection is a config of dir too:
				// only a collection --only names brings them in.
				if len(only) == 0 || !match(nameOf(f)) {
					continue
				}
				if xs, _, err = Expand([]string{f}); err != nil {
					return nil, err
				}
			} else {
				total++
				if !match(nameOf(f)) {
					continue
				}
				xs = []Expanded{{File: f}}
			}
			for _, x := range xs {
				if k := filepath.Clean(x.File); !seen[k] {
					seen[k] = true
					files = append(files, x.File)
				}
			}
		}
		sort.Slice(files, func(i, j int) bool { return nameOf(files[i]) < nameOf(files[j]) })
	}
	if len(files) == 0 && len(only) == 0 {
		return nil, fmt.Errorf("no configs in %s, only collections (--configs DIR)", dir)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("--only %s matches none of the %d configs", strings.Join(only, ","), total)
	}
	return files, nil
}
