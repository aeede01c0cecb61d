package runner

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
)

// reporting returns cell with its estimator built so that what it reports
// of the parameters it ran with (methods.ParamsReporter: an external
// script's own parameters, defaults included) is gathered, and the
// function that returns what was gathered (nil when nothing was), and the
// one that returns the files it reported it loaded (methods.LoadReporter:
// an external script's modules), sorted. A cell
// without an estimator is returned as it is. The cell's estimator Spec is
// a copy whose New hands each estimator it builds the gathering function;
// nothing else of the cell changes.
func reporting(cell *Cell) (*Cell, func() map[string]any, func() []string) {
	if cell.Method == nil || cell.Method.Spec == nil || cell.Method.Spec.New == nil {
		return cell, func() map[string]any { return nil }, func() []string { return nil }
	}
	var mu sync.Mutex
	var got map[string]any
	var loaded []string
	load := func(files []string) {
		mu.Lock()
		defer mu.Unlock()
		loaded = append(loaded, files...)
	}
	note := func(m map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		if got == nil {
			got = map[string]any{}
		}
		for k, v := range m {
			got[k] = mergeRan(got[k], v, got != nil && hasKey(got, k))
		}
	}
	spec := *cell.Method.Spec
	build := spec.New
	spec.New = func(p methods.Params) (any, error) {
		est, err := build(p)
		if r, ok := est.(methods.ParamsReporter); ok && err == nil {
			r.ReportParams(note)
		}
		if r, ok := est.(methods.LoadReporter); ok && err == nil {
			r.ReportLoaded(load)
		}
		return est, err
	}
	bm := *cell.Method
	bm.Spec = &spec
	out := *cell
	out.Method = &bm
	return &out, func() map[string]any {
			mu.Lock()
			defer mu.Unlock()
			return got
		}, func() []string {
			mu.Lock()
			defer mu.Unlock()
			if loaded == nil {
				return nil
			}
			s := slices.Clone(loaded)
			sort.Strings(s)
			return slices.Compact(s)
		}
}

func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// mergeRan merges a reported value v into what was gathered for its
// parameter (old, when had): the same value stays one value; different
// ones become the list of the distinct values, in the order reported.
func mergeRan(old, v any, had bool) any {
	if !had {
		return v
	}
	list, isList := old.([]any)
	if !isList {
		list = []any{old}
	}
	for _, x := range list {
		if fmt.Sprint(x) == fmt.Sprint(v) {
			if isList {
				return list
			}
			return old
		}
	}
	return append(slices.Clone(list), v)
}

// withRan returns with (what the --with specs did in a config) with each
// added estimator's Ran filled in from the records of its label: the
// parameters its cells reported they ran with, merged as mergeRan does.
func withRan(with []report.WithSpec, recs []report.Record) []report.WithSpec {
	if len(with) == 0 {
		return with
	}
	out := slices.Clone(with)
	for i := range out {
		if out[i].Skipped != "" {
			continue
		}
		var ran map[string]any
		for _, r := range recs {
			if r.Method() != out[i].Label || len(r.Ran) == 0 {
				continue
			}
			if ran == nil {
				ran = map[string]any{}
			}
			keys := slices.Collect(maps.Keys(r.Ran))
			sort.Strings(keys)
			for _, k := range keys {
				ran[k] = mergeRan(ran[k], r.Ran[k], hasKey(ran, k))
			}
		}
		out[i].Ran = ran
	}
	return out
}

// externalModules lists what the records' external estimators loaded
// (Record.Loaded) from outside the folders of their own scripts (the .py
// arguments of each external method's command): a file under an
// installed-packages folder (site-packages, dist-packages) counts under
// its package's folder, any other file by itself.
func externalModules(c *config.Config, recs []report.Record) []report.ModuleFiles {
	var own []string
	for _, m := range c.Methods {
		cmd, _ := m.Params.Values["command"].(string)
		if m.Name != "external" || cmd == "" {
			continue
		}
		words, err := methods.SplitCommand(cmd)
		if err != nil {
			continue
		}
		for _, w := range words {
			if strings.HasSuffix(w, ".py") {
				if abs, err := filepath.Abs(w); err == nil {
					if real, err := filepath.EvalSymlinks(abs); err == nil {
						abs = real
					}
					own = append(own, filepath.Dir(abs))
				}
			}
		}
	}
	count := map[string]int{}
	seen := map[string]bool{}
	for _, r := range recs {
		for _, f := range r.Loaded {
			if seen[f] || underAny(f, own) {
				continue
			}
			seen[f] = true
			count[modulePackage(f)]++
		}
	}
	if len(count) == 0 {
		return nil
	}
	out := make([]report.ModuleFiles, 0, len(count))
	for _, p := range slices.Sorted(maps.Keys(count)) {
		out = append(out, report.ModuleFiles{Path: p, Files: count[p]})
	}
	return out
}

// modulePackage is the folder a loaded file is listed under: its
// package's folder when it lies in an installed-packages folder, else the
// file itself.
func modulePackage(f string) string {
	parts := strings.Split(filepath.ToSlash(f), "/")
	for i, p := range parts {
		if (p == "site-packages" || p == "dist-packages") && i+2 < len(parts) {
			return filepath.FromSlash(strings.Join(parts[:i+2], "/"))
		}
	}
	return f
}

// underAny reports whether file f lies in one of the folders dirs.
func underAny(f string, dirs []string) bool {
	for _, d := range dirs {
		if rel, err := filepath.Rel(d, f); err == nil && filepath.IsLocal(rel) {
			return true
		}
	}
	return false
}
